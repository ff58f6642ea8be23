"""An independent reference: NVIDIA's Alloy models evaluated directly, on two-event
RMWs (read half, write half, `rmw`) and two-event bar.cta.sync (BarrierArrive,
BarrierWait), enumerating EVERY coherence order (every strict partial order of the
writes of a location that orders the pairs the Alloy `co` facts require) and every
Fence-SC order, with final values from co-maximal writes. Written from the Alloy files,
not from the cat files, so that the two can be compared.

Variants (flags): the NVIDIA literal text (`lit`), the fixes of ptx.cat (C1..C6), and a
reading of Dat3M's cat files (`dat3m`)."""
import itertools

from rel import Rel
from common import (is_read, is_write, rf_choices, compute_values, constraints_ok,
                    final_states, reg_finals, acyclic_pairs)
from events import combos, barrier_meeting

_PO_CACHE = {}


def partial_orders(k):
    """All strict partial orders on range(k), as frozensets of pairs."""
    if k in _PO_CACHE:
        return _PO_CACHE[k]
    pairs = [(a, b) for a in range(k) for b in range(a + 1, k)]
    out = []
    for sel in itertools.product((0, 1, 2), repeat=len(pairs)):
        rel = set()
        for (a, b), s in zip(pairs, sel):
            if s == 1:
                rel.add((a, b))
            elif s == 2:
                rel.add((b, a))
        ok = True
        for (a, b) in rel:
            for (c, d) in rel:
                if b == c and (a, d) not in rel:
                    ok = False
                    break
            if not ok:
                break
        if ok and all((b, a) not in rel for (a, b) in rel):
            out.append(frozenset(rel))
    _PO_CACHE[k] = out
    return out


def orders_over(items, required):
    """Strict partial orders over items in which every required unordered pair is
    ordered one way or the other."""
    k = len(items)
    req = [(items.index(a), items.index(b)) for a, b in required]
    for po in partial_orders(k):
        if all((a, b) in po or (b, a) in po for a, b in req):
            yield [(items[a], items[b]) for a, b in po]


class Op:
    def __init__(self, **kw):
        self.kind = None   # Read Write Fence PF AF BA BW BAR(dat3m single)
        self.src = None
        self.thread = None
        self.scope = None  # None: thread scope; cta gpu sys
        self.noscope = False  # proxy and alias fences: not a ScopedOp
        self.phys = None
        self.vaddr = None
        self.proxy = None
        self.acq = False
        self.rel = False
        self.sc = False
        self.acqrel = False
        self.pfproxy = None
        self.arrive = False
        self.__dict__.update(kw)


def build_ops(evs, split_bar=True):
    ops = []
    role = {}  # (event, 'r'|'w'|'a'|'t'|'x') -> op
    for i, e in enumerate(evs):
        common = dict(src=i, thread=e.thread, scope=e.scope)
        if e.kind in ("R", "W", "RMW"):
            mem = dict(phys=e.phys, vaddr=e.vaddr, proxy=e.proxy)
            if e.kind in ("R", "RMW"):
                role[(i, "r")] = len(ops)
                ops.append(Op(kind="Read", acq=e.acq, **common, **mem))
            if e.kind in ("W", "RMW"):
                role[(i, "w")] = len(ops)
                ops.append(Op(kind="Write", rel=e.rel, **common, **mem))
        elif e.kind == "F":
            role[(i, "x")] = len(ops)
            ops.append(Op(kind="Fence", acqrel=True, sc=e.sc, **common))
        elif e.kind == "PF":
            role[(i, "x")] = len(ops)
            ops.append(Op(kind="AF" if e.proxy == "ALIAS" else "PF", pfproxy=e.proxy,
                          noscope=True, src=i, thread=e.thread))
        elif e.kind == "BAR":
            if split_bar:
                role[(i, "a")] = len(ops)
                ops.append(Op(kind="BA", **common))
                if not e.arrive:
                    role[(i, "t")] = len(ops)
                    ops.append(Op(kind="BW", **common))
            else:
                role[(i, "x")] = len(ops)
                ops.append(Op(kind="BAR", arrive=e.arrive, **common))
    return ops, role


class Flags:
    def __init__(self, **kw):
        self.model = "v6"          # v6 | v75
        self.C1 = True             # fences/barriers generic proxy (v75)
        self.C2 = True             # memory ms needs one virtual address (v75)
        self.C3 = True             # recursive observation in cause (v75)
        self.C4 = True             # Fence-SC against cause_base (v75); False: literal
        self.optional = True       # causality with optional[...] (NVIDIA)
        self.dat3m_fencesc = False  # [F&SC];cause;[F&SC] in sc
        self.sc_is_acqrel = True   # fence.sc is an acq_rel fence (NVIDIA)
        self.bar_split = True      # NVIDIA two-event barrier, wait is an acq_rel fence
        self.rmw_dep = True        # rmw in dep (NVIDIA); False: only when the written value uses the read (Dat3M)
        self.final = "any"         # any | unique
        self.__dict__.update(kw)


def dat3m(model):
    return Flags(model=model, C1=True, C2=True, C3=False, C4=False, optional=False,
                 dat3m_fencesc=True, sc_is_acqrel=False, bar_split=False, rmw_dep=False,
                 final="unique")


def nvidia_literal(model):
    return Flags(model=model, C1=False, C2=False, C3=False, C4=False)


def check(test, evs, rf, scb, ops, role, co_pairs, sc_pairs, fl, selfdep):
    n = len(ops)
    th = test.threads
    v75 = fl.model == "v75"

    def R(pairs):
        return Rel.from_pairs(n, pairs)

    def S(pred):
        return sum(1 << i for i, o in enumerate(ops) if pred(o))

    idn = Rel.ident(n, (1 << n) - 1)
    mem = lambda o: o.kind in ("Read", "Write")
    Read = S(lambda o: o.kind == "Read")
    Write = S(lambda o: o.kind == "Write")
    # program order: by event, read half before write half, arrive before wait
    order = sorted(range(n), key=lambda i: (ops[i].src, ops[i].kind in ("Write", "BW")))
    rank = {i: k for k, i in enumerate(order)}
    po = R([(a, b) for a in range(n) for b in range(n)
            if ops[a].thread == ops[b].thread and rank[a] < rank[b]])
    if v75:
        same_addr = R([(a, b) for a in range(n) for b in range(n) if mem(ops[a]) and mem(ops[b])
                       and ops[a].vaddr == ops[b].vaddr])
    else:
        same_addr = R([(a, b) for a in range(n) for b in range(n) if mem(ops[a]) and mem(ops[b])
                       and ops[a].phys == ops[b].phys])
    same_loc = R([(a, b) for a in range(n) for b in range(n) if mem(ops[a]) and mem(ops[b])
                  and ops[a].phys == ops[b].phys])
    po_loc = po & same_addr

    def incl(a, b):
        oa, ob = ops[a], ops[b]
        if oa.noscope or ob.noscope:
            return False
        if oa.thread == ob.thread:
            return True
        if oa.scope == "cta":
            return th[oa.thread] == th[ob.thread]
        if oa.scope == "gpu":
            return th[oa.thread][0] == th[ob.thread][0]
        return oa.scope == "sys"

    def proxy_of(o):
        if mem(o):
            return o.proxy
        if o.kind in ("Fence", "BA", "BW", "BAR"):
            return "GEN" if (not v75 or fl.C1) else None
        return None

    def strong_pair(a, b):
        if not (incl(a, b) and incl(b, a)):
            return False
        if v75:
            pa, pb = proxy_of(ops[a]), proxy_of(ops[b])
            if pa is None or pa != pb:
                return False
            if fl.C2 and mem(ops[a]) and mem(ops[b]) and ops[a].vaddr != ops[b].vaddr:
                return False
        return True

    strong_r = R([(a, b) for a in range(n) for b in range(n) if strong_pair(a, b)])

    def strong(r):
        return r & strong_r

    rfp = [(role[(w, "w")], role[(r, "r")]) for r, w in rf.items() if w is not None]
    rfr = R(rfp)
    co = R(co_pairs)
    sc = R(sc_pairs)
    init_readers = [role[(r, "r")] for r, w in rf.items() if w is None]
    fr = rfr.inv().comp(co) | R([(r, w) for r in init_readers for w in range(n)
                                 if ops[w].kind == "Write" and ops[w].phys == ops[r].phys])
    rmw = R([(role[(i, "r")], role[(i, "w")]) for i, e in enumerate(evs) if e.kind == "RMW"])
    dep_pairs = []
    for i, e in enumerate(evs):
        targets = [role[k] for k in role if k[0] == i]
        for d in e.data:
            src = role[(d, "r")]
            for t in targets:
                if ops[t].kind == "Write" or ops[t].kind not in ("Read",):
                    if src != t:
                        dep_pairs.append((src, t))
        for d in e.ctrl:
            for t in targets:
                dep_pairs.append((role[(d, "r")], t))
        if e.kind == "RMW" and (fl.rmw_dep or selfdep[i]):
            dep_pairs.append((role[(i, "r")], role[(i, "w")]))
    dep = R(dep_pairs)

    # no_thin_air
    if not (rfr | dep).acyclic():
        return False
    com = rfr | co | fr
    srf = strong(rfr)
    # observation, least fixpoint of srf + obs.rmw.obs
    obs = srf
    while True:
        nxt = obs | obs.comp(rmw).comp(obs)
        if nxt == obs:
            break
        obs = nxt
    obs1 = srf | rmw
    opt_po = po.opt()
    FenceAcqRel = S(lambda o: o.kind == "Fence" and (fl.sc_is_acqrel or not o.sc))
    FenceSC = S(lambda o: o.kind == "Fence" and o.sc)
    BW = S(lambda o: o.kind == "BW")
    Release = S(lambda o: o.kind == "Write" and o.rel)
    Acquire = S(lambda o: o.kind == "Read" and o.acq)

    # barriers
    if fl.bar_split:
        bpairs = []
        for (a, b) in scb:
            if evs[b].arrive:
                continue
            bpairs.append((role[(a, "a")], role[(b, "t")]))
        synchronizes = R(bpairs)
    else:
        synchronizes = R([(role[(a, "x")], role[(b, "x")]) for (a, b) in scb
                          if not evs[b].arrive])

    if not v75:
        FenceRels = FenceAcqRel | BW
        FenceAcqs = FenceAcqRel | BW
        prefix = Rel.ident(n, Release).comp(po_loc.opt()).comp(Rel.ident(n, Write)) | \
            Rel.ident(n, FenceRels).comp(po).comp(Rel.ident(n, Write))
        suffix = Rel.ident(n, Read).comp(po_loc.opt()).comp(Rel.ident(n, Acquire)) | \
            Rel.ident(n, Read).comp(po).comp(Rel.ident(n, FenceAcqs))
        imm_po = po - po.comp(po)
        Releasers = Release | FenceRels | Rel.ident(n, FenceRels).comp(imm_po).comp(rmw).range()
        Acquirers = Acquire | FenceAcqs
        sync = Rel.ident(n, Releasers).comp(strong(prefix.comp(obs.plus()).comp(suffix))).comp(
            Rel.ident(n, Acquirers))
        if fl.bar_split:
            step = opt_po.comp(synchronizes | sc | sync).comp(opt_po)
            cause_base = step.plus()
        else:
            cause_base = opt_po.comp((sync | sc | synchronizes).comp(opt_po).plus())
        cause = cause_base | obs.comp(po_loc | cause_base)
        # axioms
        if not (strong(com) | po_loc).acyclic():
            return False
        if not (strong(fr).comp(strong(co)) & rmw).empty():
            return False
        WW = Rel.ident(n, Write).comp(cause).comp(Rel.ident(n, Write)) & same_loc
        if not (WW - co).empty():
            return False
        if fl.optional:
            if not (idn | rfr | fr).comp(cause).irreflexive():
                return False
        else:
            if not (rfr | fr).comp(cause).irreflexive():
                return False
        if fl.dat3m_fencesc:
            FF = Rel.ident(n, FenceSC).comp(cause).comp(Rel.ident(n, FenceSC))
            if not (FF - sc).empty():
                return False
        return True

    # v75
    ReleaseFences = FenceAcqRel | (FenceSC if fl.sc_is_acqrel else 0) | (BW if fl.bar_split else 0)
    AcquireFences = ReleaseFences
    release_sequence = strong(Rel.ident(n, Release).comp(po_loc.opt()).comp(Rel.ident(n, Write))) | \
        strong(Rel.ident(n, ReleaseFences).comp(po).comp(Rel.ident(n, Write)))
    acquire_sequence = strong(Rel.ident(n, Read).comp(po_loc.opt()).comp(Rel.ident(n, Acquire))) | \
        strong(Rel.ident(n, Read).comp(po).comp(Rel.ident(n, AcquireFences)))
    sync = strong(release_sequence.comp(obs1.plus()).comp(acquire_sequence))
    if fl.bar_split:
        cause_base = po | po.star().comp((sc | sync | synchronizes).comp(po.star()).plus())
    else:
        cause_base = po | opt_po.comp((sync | sc | synchronizes).comp(opt_po).plus())
    cb = cause_base
    Gen = S(lambda o: mem(o) and o.proxy == "GEN")
    AF = S(lambda o: o.kind == "AF")
    same_cta = R([(a, b) for a in range(n) for b in range(n) if th[ops[a].thread] == th[ops[b].thread]])
    same_proxy = R([(a, b) for a in range(n) for b in range(n) if mem(ops[a]) and mem(ops[b])
                    and ops[a].proxy == ops[b].proxy])
    pfo = R([(a, b) for a in range(n) for b in range(n) if ops[a].kind == "PF" and mem(ops[b])
             and ops[b].proxy == ops[a].pfproxy and th[ops[a].thread] == th[ops[b].thread]])
    src = cb & pfo.inv()
    dst = cb & pfo
    IG = Rel.ident(n, Gen)
    IA = Rel.ident(n, AF)
    ppcb = (same_addr & IG.comp(cb).comp(IG)) | \
        (same_addr & cb & same_cta & same_proxy) | \
        (same_addr & src.comp(cb).comp(IG)) | \
        (same_addr & IG.comp(cb).comp(dst)) | \
        (same_addr & src.comp(cb).comp(dst)) | \
        (same_loc & IG.comp(cb).comp(IA).comp(cb).comp(IG)) | \
        (same_loc & src.comp(cb).comp(IA).comp(cb).comp(IG)) | \
        (same_loc & IG.comp(cb).comp(IA).comp(cb).comp(dst)) | \
        (same_loc & src.comp(cb).comp(IA).comp(cb).comp(dst))
    obs_c = (obs | rmw) if fl.C3 else obs1
    cause = obs_c.opt().comp(ppcb)
    if not (strong(fr).comp(strong(co)) & rmw).empty():
        return False
    WW = Rel.ident(n, Write).comp(cause).comp(Rel.ident(n, Write)) & same_loc
    if not (WW - co).empty():
        return False
    if fl.optional:
        if not (idn | com).comp(cause).irreflexive():
            return False
    else:
        if not (rfr | fr).comp(cause).irreflexive():
            return False
    FF = Rel.ident(n, FenceSC).comp(cause).comp(Rel.ident(n, FenceSC))
    if fl.dat3m_fencesc:
        if not (FF - sc).empty():
            return False
    elif fl.C4:
        for a in range(n):
            for b in range(n):
                if a != b and (FenceSC >> a) & 1 and (FenceSC >> b) & 1 and incl(a, b) and incl(b, a):
                    if cb.has(a, b) and sc.has(b, a):
                        return False
    else:
        if not (FF - sc).empty():
            return False
    return True


def run(test, fl, stats=None):
    outcomes = set()
    v75 = fl.model == "v75"
    for evs, cons, finals in combos(test):
        scb = barrier_meeting(test, evs, deadlock=fl.bar_split)
        if scb is None:
            continue
        ops, role = build_ops(evs, split_bar=fl.bar_split)
        selfdep = {}
        for i, e in enumerate(evs):
            selfdep[i] = e.kind == "RMW" and e.wval is not None and e.wval[0] == "op"
        th = test.threads

        def incl_ev(a, b):
            ea, eb = evs[a], evs[b]
            if ea.thread == eb.thread:
                return True
            if ea.scope == "cta":
                return th[ea.thread] == th[eb.thread]
            if ea.scope == "gpu":
                return th[ea.thread][0] == th[eb.thread][0]
            return ea.scope == "sys"

        # co: per physical location, every strict partial order of its writes ordering the
        # pairs co_per_scope requires
        per_loc = []
        for p in sorted(test.init_of):
            ws = [role[(i, "w")] for i, e in enumerate(evs) if is_write(e) and e.phys == p]
            req = []
            for x in range(len(ws)):
                for y in range(x + 1, len(ws)):
                    a, b = ops[ws[x]].src, ops[ws[y]].src
                    if not (incl_ev(a, b) and incl_ev(b, a)):
                        continue
                    if v75 and (evs[a].vaddr != evs[b].vaddr or evs[a].proxy != evs[b].proxy):
                        continue
                    req.append((ws[x], ws[y]))
            per_loc.append(list(orders_over(ws, req)))
        fs = [role[(i, "x")] for i, e in enumerate(evs) if e.kind == "F" and e.sc]
        freq = [(fs[x], fs[y]) for x in range(len(fs)) for y in range(x + 1, len(fs))
                if incl_ev(ops[fs[x]].src, ops[fs[y]].src) and incl_ev(ops[fs[y]].src, ops[fs[x]].src)]
        sc_orders = list(orders_over(fs, freq))
        for rf in rf_choices(evs):
            vals = compute_values(evs, rf, test.init_of)
            if vals is None:
                continue
            readval, wval = vals
            if not constraints_ok(cons, readval):
                continue
            regs = reg_finals(test, finals, readval)
            for co_parts in itertools.product(*per_loc):
                co_pairs = [p for part in co_parts for p in part]
                for sc_pairs in sc_orders:
                    if stats is not None:
                        stats["cand"] = stats.get("cand", 0) + 1
                    if not check(test, evs, rf, scb, ops, role, co_pairs, sc_pairs, fl, selfdep):
                        continue
                    ev_co = [(ops[a].src, ops[b].src) for a, b in co_pairs]
                    for locs in final_states(evs, ev_co, wval, test.init_of, fl.final,
                                             shown=test.cond_locs):
                        outcomes.add((tuple(sorted(regs.items())), tuple(sorted(locs.items()))))
    return outcomes
