"""From a parsed test to path combinations of events (vkherd's single-event view: an
atom is one event, a bar.cta.sync one event), with values as expressions over the
values the reads return, syntactic data and control dependencies, and the constraints
(branches, compare-and-swap outcomes) a candidate's values must meet."""
import itertools


class Ev:
    def __init__(self, **kw):
        self.kind = None      # R W RMW F PF BAR
        self.loc = None       # the name used
        self.phys = None
        self.vaddr = None
        self.proxy = None     # GEN SUR TEX CON for accesses; for PF: GEN SUR TEX CON ALIAS
        self.scope = None     # None (thread) or cta gpu sys
        self.acq = False
        self.rel = False
        self.sc = False
        self.arrive = False
        self.inst = None
        self.barid = None
        self.wval = None      # expression of the written value; may use ("self",)
        self.data = set()     # reads (path-local index) the written value / operands use
        self.ctrl = set()
        self.thread = None
        self.__dict__.update(kw)


OPS = {
    "add": lambda a, b: a + b, "sub": lambda a, b: a - b, "mul": lambda a, b: a * b,
    "div": lambda a, b: int(a / b) if b != 0 else 0,
    "and": lambda a, b: a & b, "or": lambda a, b: a | b, "xor": lambda a, b: a ^ b,
}
CMP = {"beq": lambda a, b: a == b, "bne": lambda a, b: a != b, "blt": lambda a, b: a < b,
       "bgt": lambda a, b: a > b, "ble": lambda a, b: a <= b, "bge": lambda a, b: a >= b}


def deps_of(expr):
    k = expr[0]
    if k == "imm":
        return set()
    if k == "read":
        return {expr[1]}
    if k == "op":
        return deps_of(expr[2]) | deps_of(expr[3])
    raise ValueError(expr)


def value(expr, readval):
    k = expr[0]
    if k == "imm":
        return expr[1]
    if k == "read":
        return readval[expr[1]]
    if k == "op":
        return OPS[expr[1]](value(expr[2], readval), value(expr[3], readval))
    raise ValueError(expr)


def thread_paths(test, tid):
    """Every path of thread tid: (events, constraints, final register expressions).
    Event indices in expressions are path-local."""
    code = test.code[tid]
    labels = {ins["name"]: i for i, ins in enumerate(code) if ins["k"] == "label"}
    out = []

    def operand(v, regs):
        if v[0] == "imm":
            return ("imm", v[1])
        return regs.get(v[1], ("imm", test.reg_init.get((tid, v[1]), 0)))

    def run(pc, evs, cons, regs, ctrl):
        while pc < len(code):
            ins = code[pc]
            k = ins["k"]
            pc += 1
            if k == "label":
                continue
            if k == "goto":
                t = labels[ins["target"]]
                assert t > pc - 1, "backward jump"
                pc = t
                continue
            if k == "branch":
                a, b = operand(ins["a"], regs), operand(ins["b"], regs)
                t = labels[ins["target"]]
                assert t > pc - 1, "backward jump"
                nctrl = ctrl | deps_of(a) | deps_of(b)
                run(t, list(evs), cons + [(ins["op"], a, b, True)], dict(regs), nctrl)
                cons = cons + [(ins["op"], a, b, False)]
                ctrl = nctrl
                continue
            if k == "move":
                regs[ins["dst"]] = operand(ins["v"], regs)
                continue
            if k == "arith":
                regs[ins["dst"]] = ("op", ins["op"], operand(ins["a"], regs),
                                    operand(ins["b"], regs))
                continue
            base = dict(thread=tid, ctrl=set(ctrl))
            if k in ("ld", "st", "atom"):
                base.update(loc=ins["loc"], phys=test.phys[ins["loc"]],
                            vaddr=test.vaddr[ins["loc"]], proxy=ins["proxy"])
                if ins["mo"] != "weak":
                    base["scope"] = ins["scope"]
            if k == "ld":
                e = Ev(kind="R", acq=ins["mo"] == "acquire", **base)
                evs.append(e)
                regs[ins["dst"]] = ("read", len(evs) - 1)
            elif k == "st":
                v = operand(ins["v"], regs)
                e = Ev(kind="W", rel=ins["mo"] == "release", wval=v, data=deps_of(v), **base)
                evs.append(e)
            elif k == "atom":
                acq = ins["mo"] in ("acquire", "acq_rel")
                rel = ins["mo"] in ("release", "acq_rel")
                v = operand(ins["v"], regs)
                me = len(evs)
                if ins["op"] == "cas":
                    exp = operand(ins["expected"], regs)
                    data = deps_of(v) | deps_of(exp)
                    # success: an RMW that writes v; failure: a read
                    e1 = Ev(kind="RMW", acq=acq, rel=rel, wval=v, data=data, **base)
                    e2 = Ev(kind="R", acq=acq, data=data, **base)
                    r1 = dict(regs)
                    r1[ins["dst"]] = ("read", me)
                    run(pc, evs + [e1], cons + [("beq", ("read", me), exp, True)], r1, ctrl)
                    evs.append(e2)
                    cons = cons + [("beq", ("read", me), exp, False)]
                    regs[ins["dst"]] = ("read", me)
                    continue
                if ins["op"] == "exch":
                    wv = v
                else:
                    wv = ("op", ins["op"], ("read", me), v)
                e = Ev(kind="RMW", acq=acq, rel=rel, wval=wv, data=deps_of(v), **base)
                evs.append(e)
                if ins["dst"]:
                    regs[ins["dst"]] = ("read", me)
            elif k == "fence":
                evs.append(Ev(kind="F", scope=ins["scope"], acq=True, rel=True,
                              sc=ins["mo"] == "sc", thread=tid, ctrl=set(ctrl)))
            elif k == "pfence":
                evs.append(Ev(kind="PF", proxy=ins["proxy"], thread=tid, ctrl=set(ctrl)))
            elif k == "bar":
                bid = None
                if ins["id"] is not None:
                    o = operand(ins["id"], regs)
                    assert o[0] == "imm", "dynamic barrier id"
                    bid = o[1]
                evs.append(Ev(kind="BAR", scope="cta", arrive=ins["mode"] == "arrive",
                              inst=ins["inst"], barid=bid, thread=tid, ctrl=set(ctrl)))
            else:
                raise ValueError(k)
        out.append((evs, cons, regs))

    run(0, [], [], {}, set())
    return out


def program_barriers(test, tid):
    keys = set()
    for ins in test.code[tid]:
        if ins["k"] == "bar":
            bid = None
            if ins["id"] is not None:
                v = ins["id"]
                bid = v[1] if v[0] == "imm" else test.reg_init.get((tid, v[1]), 0)
            keys.add((test.threads[tid], ins["inst"], bid))
    return keys


def barrier_meeting(test, evs, deadlock=True):
    """evs: global list. Returns scbarinst pairs (all members of an instance, both ways,
    with identity), or None on deadlock (docs/control-barriers.md, without quorum).
    deadlock=False: Dat3M's reading, every barrier of one CTA with one instance label
    and id meets every other, and nothing blocks."""
    if not deadlock:
        pairs = set()
        for a, ea in enumerate(evs):
            for b, eb in enumerate(evs):
                if ea.kind == "BAR" and eb.kind == "BAR" and ea.inst == eb.inst \
                        and ea.barid == eb.barid \
                        and test.threads[ea.thread] == test.threads[eb.thread]:
                    pairs.add((a, b))
        return pairs
    nthreads = len(test.threads)
    wait = {}
    for t in range(nthreads):
        for key in program_barriers(test, t):
            wait.setdefault(key, set()).add(t)
    seqs = [[i for i, e in enumerate(evs) if e.thread == t and e.kind == "BAR"]
            for t in range(nthreads)]
    pos = [0] * nthreads
    count = {}
    inst_of = {}
    arrived = {}
    progress = True
    while progress:
        progress = False
        for t in range(nthreads):
            while pos[t] < len(seqs[t]):
                i = seqs[t][pos[t]]
                e = evs[i]
                key = (test.threads[t], e.inst, e.barid)
                if i not in inst_of:
                    k = count.get((t, key), 0)
                    count[(t, key)] = k + 1
                    inst_of[i] = (key, k)
                    arrived.setdefault((key, k), set()).add(t)
                    progress = True
                if e.arrive:
                    pos[t] += 1
                    continue
                if wait[key] <= arrived[inst_of[i]]:
                    pos[t] += 1
                    progress = True
                    continue
                break
    if any(pos[t] < len(seqs[t]) for t in range(nthreads)):
        return None
    groups = {}
    for i, ik in inst_of.items():
        groups.setdefault(ik, []).append(i)
    pairs = set()
    for members in groups.values():
        for a in members:
            for b in members:
                pairs.add((a, b))
    return pairs


def combos(test):
    per = [thread_paths(test, t) for t in range(len(test.threads))]
    for choice in itertools.product(*per):
        evs = []
        cons = []
        finals = []
        for t, (pevs, pcons, regs) in enumerate(choice):
            off = len(evs)

            def shift(expr, off=off):
                k = expr[0]
                if k == "read":
                    return ("read", expr[1] + off)
                if k == "op":
                    return ("op", expr[1], shift(expr[2]), shift(expr[3]))
                return expr

            for e in pevs:
                ne = Ev(**e.__dict__)
                ne.wval = shift(e.wval) if e.wval is not None else None
                ne.data = {d + off for d in e.data}
                ne.ctrl = {d + off for d in e.ctrl}
                evs.append(ne)
            for op, a, b, want in pcons:
                cons.append((op, shift(a), shift(b), want))
            for r, ex in regs.items():
                finals.append(((t, r), shift(ex)))
        yield evs, cons, finals
