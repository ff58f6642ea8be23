"""Shared candidate machinery: scopes, rf choices, values."""
import itertools

from events import value, CMP


def incl(a, b, evs, threads):
    """b's thread is inside a's scope (a's scope: its thread, or cta/gpu/sys)."""
    ea, eb = evs[a], evs[b]
    if ea.thread == eb.thread:
        return True
    ga, ca = threads[ea.thread]
    gb, cb = threads[eb.thread]
    if ea.scope == "cta":
        return (ga, ca) == (gb, cb)
    if ea.scope == "gpu":
        return ga == gb
    if ea.scope == "sys":
        return True
    return False


def scope_ms(a, b, evs, threads):
    return incl(a, b, evs, threads) and incl(b, a, evs, threads)


def is_read(e):
    return e.kind in ("R", "RMW")


def is_write(e):
    return e.kind in ("W", "RMW")


def rf_choices(evs):
    reads = [i for i, e in enumerate(evs) if is_read(e)]
    opts = []
    for r in reads:
        ws = [w for w, e in enumerate(evs) if is_write(e) and w != r and e.phys == evs[r].phys]
        opts.append([None] + ws)
    for choice in itertools.product(*opts):
        yield dict(zip(reads, choice))


def compute_values(evs, rf, init_of):
    """Read values and written values, or None when rf and data dependencies form a
    cycle (thin air: both models forbid it by No-Thin-Air)."""
    readval = {}
    wval = {}
    state = {}

    def wv(w):
        if w in wval:
            return wval[w]
        from events import deps_of
        for d in evs[w].data | (deps_of(evs[w].wval) if evs[w].wval is not None else set()):
            if rv(d) is None:
                return None
        v = value(evs[w].wval, readval)
        wval[w] = v
        return v

    def rv(r):
        if r in readval:
            return readval[r]
        if state.get(r) == "busy":
            raise RecursionError
        state[r] = "busy"
        src = rf[r]
        v = init_of[evs[r].phys] if src is None else wv(src)
        readval[r] = v
        state[r] = "done"
        return v

    try:
        for r in rf:
            rv(r)
        for w, e in enumerate(evs):
            if e.kind in ("W", "RMW"):
                wv(w)
    except RecursionError:
        return None
    return readval, wval


def constraints_ok(cons, readval):
    for op, a, b, want in cons:
        if CMP[op](value(a, readval), value(b, readval)) != want:
            return False
    return True


def acyclic_pairs(n, pairs):
    adj = {}
    for a, b in pairs:
        adj.setdefault(a, []).append(b)
    color = {}

    def dfs(u):
        color[u] = 1
        for v in adj.get(u, ()):
            c = color.get(v, 0)
            if c == 1:
                return False
            if c == 0 and not dfs(v):
                return False
        color[u] = 2
        return True

    return all(color.get(u, 0) or dfs(u) for u in list(adj))


def orientations(n, pairs):
    """Every acyclic orientation of the unordered pairs."""
    pairs = list(pairs)
    for bitsel in itertools.product((0, 1), repeat=len(pairs)):
        o = [(a, b) if s == 0 else (b, a) for (a, b), s in zip(pairs, bitsel)]
        if acyclic_pairs(n, o):
            yield o


def final_states(evs, co_pairs, wval, init_of, mode="any", shown=None):
    """Final values of every physical location: per location, the values of the writes
    no other write follows in co (mode any: each is a final state), or (mode unique)
    only when all such writes agree. Returns a list of dicts."""
    locs = sorted(init_of)
    per = []
    succ = {}
    for a, b in co_pairs:
        succ.setdefault(a, set()).add(b)
    for p in locs:
        ws = [i for i, e in enumerate(evs) if is_write(e) and e.phys == p]
        if not ws:
            per.append([init_of[p]])
            continue
        maxi = [w for w in ws if not any(evs[s].phys == p for s in succ.get(w, ()))]
        vals = sorted({wval[w] for w in maxi})
        if mode == "unique" and len(vals) > 1:
            if shown is None or p in shown:
                return []
            vals = vals[:1]
        per.append(vals)
    return [dict(zip(locs, c)) for c in itertools.product(*per)]


def reg_finals(test, finals, readval):
    regs = {}
    for t in range(len(test.threads)):
        for (tt, r), v in test.reg_init.items():
            if tt == t:
                regs[(t, r)] = v
    for key, ex in finals:
        regs[key] = value(ex, readval)
    return regs
