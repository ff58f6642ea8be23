"""vkherd's view: one event per instruction, the base names of docs/models.md (PTX), the
enumerated asmo, and a model file (ptx.cat or ptx-v6.0.cat) run by the cat interpreter."""
from rel import Rel
from common import (scope_ms, is_read, is_write, rf_choices, compute_values,
                    constraints_ok, orientations, final_states, reg_finals)
from events import combos, barrier_meeting


def base_env(test, evs, rf, scb, asmo):
    n = len(evs)
    th = test.threads

    def S(pred):
        s = 0
        for i, e in enumerate(evs):
            if pred(e):
                s |= 1 << i
        return s

    def Rl(pred):
        return Rel.from_pairs(n, [(a, b) for a in range(n) for b in range(n) if pred(a, b)])

    acc = lambda e: e.kind in ("R", "W", "RMW")
    env = {
        "EV": (1 << n) - 1,
        "R": S(is_read), "W": S(is_write), "F": S(lambda e: e.kind == "F"),
        "SC": S(lambda e: e.kind == "F" and e.sc),
        "ACQ": S(lambda e: e.acq), "REL": S(lambda e: e.rel),
        "SCOPEWG": S(lambda e: e.scope == "cta"), "SCOPEQF": S(lambda e: e.scope == "gpu"),
        "SCOPEDEV": S(lambda e: e.scope == "sys"),
        "CBAR": S(lambda e: e.kind == "BAR"), "ARRIVE": S(lambda e: e.kind == "BAR" and e.arrive),
        "GEN": S(lambda e: acc(e) and e.proxy == "GEN"), "SUR": S(lambda e: acc(e) and e.proxy == "SUR"),
        "TEX": S(lambda e: acc(e) and e.proxy == "TEX"), "CON": S(lambda e: acc(e) and e.proxy == "CON"),
        "FGEN": S(lambda e: e.kind == "PF" and e.proxy == "GEN"),
        "FSUR": S(lambda e: e.kind == "PF" and e.proxy == "SUR"),
        "FTEX": S(lambda e: e.kind == "PF" and e.proxy == "TEX"),
        "FCON": S(lambda e: e.kind == "PF" and e.proxy == "CON"),
        "FALIAS": S(lambda e: e.kind == "PF" and e.proxy == "ALIAS"),
        "RFINIT": S(lambda e: False) | sum(1 << r for r, w in rf.items() if w is None),
        "id": Rel.ident(n, (1 << n) - 1),
        "po": Rl(lambda a, b: evs[a].thread == evs[b].thread and a < b),
        "sthd": Rl(lambda a, b: evs[a].thread == evs[b].thread),
        "swg": Rl(lambda a, b: th[evs[a].thread] == th[evs[b].thread]),
        "sqf": Rl(lambda a, b: th[evs[a].thread][0] == th[evs[b].thread][0]),
        "sloc": Rl(lambda a, b: acc(evs[a]) and acc(evs[b]) and evs[a].phys == evs[b].phys),
        "sref": Rl(lambda a, b: acc(evs[a]) and acc(evs[b]) and evs[a].vaddr == evs[b].vaddr),
        "scbarinst": Rel.from_pairs(n, scb),
        "rf": Rel.from_pairs(n, [(w, r) for r, w in rf.items() if w is not None]),
        "asmo": Rel.from_pairs(n, asmo),
        "addr": Rel(n),
        "data": Rel.from_pairs(n, [(d, i) for i, e in enumerate(evs) for d in e.data]),
        "ctrl": Rel.from_pairs(n, [(d, i) for i, e in enumerate(evs) for d in e.ctrl]),
    }
    return env


def asmo_domain(test, evs):
    pairs = []
    n = len(evs)
    for a in range(n):
        for b in range(a + 1, n):
            ea, eb = evs[a], evs[b]
            if is_write(ea) and is_write(eb) and ea.phys == eb.phys and scope_ms(a, b, evs, test.threads):
                pairs.append((a, b))
            if ea.kind == "F" and eb.kind == "F" and ea.sc and eb.sc and scope_ms(a, b, evs, test.threads):
                pairs.append((a, b))
    return pairs


def run(test, model, final_mode="any", stats=None):
    outcomes = set()
    for evs, cons, finals in combos(test):
        scb = barrier_meeting(test, evs)
        if scb is None:
            if stats is not None:
                stats["deadlock"] = stats.get("deadlock", 0) + 1
            continue
        dom = asmo_domain(test, evs)
        orients = list(orientations(len(evs), dom))
        for rf in rf_choices(evs):
            vals = compute_values(evs, rf, test.init_of)
            if vals is None:
                continue
            readval, wval = vals
            if not constraints_ok(cons, readval):
                continue
            regs = reg_finals(test, finals, readval)
            for asmo in orients:
                env = base_env(test, evs, rf, scb, asmo)
                failed, got = model.run(len(evs), env)
                if stats is not None:
                    stats["cand"] = stats.get("cand", 0) + 1
                if failed:
                    continue
                co = got["co"].pairs()
                for locs in final_states(evs, co, wval, test.init_of, final_mode):
                    outcomes.add((tuple(sorted(regs.items())), tuple(sorted(locs.items()))))
    return outcomes
