"""A brute-force transcription of crates/dialects/src/opencl/models/opencl.cat, to cross-check the
hand-derived headers of this corpus until the model engine runs the draft.

    VKHERD_DUMP_OPENCL=/tmp/opencl.dump cargo test -p vkherd --test opencl_corpus dump -- --ignored
    python3 litmus-tests/opencl/crosscheck.py /tmp/opencl.dump

It reads the lowered programs (so it uses vkherd's parser and lowering), enumerates every
path of each thread (reads take every value their location can hold), every reads-from
and every total modification order per location, keeps the executions that satisfy the
draft's axioms (one Python block per cat definition, same names), and prints, per test,
the verdict and race flag it finds next to the header's. Not part of the build: a
throwaway oracle, like the one the Vulkan corpus was cross-checked with.
"""
import itertools, re, sys

def parse_dump(path):
    tests, cur, th = [], None, None
    for line in open(path):
        w = line.split()
        if not w: continue
        if w[0] == 'TEST': cur = {'name': w[1], 'locs': {}, 'threads': []}; tests.append(cur)
        elif w[0] == 'LOC': cur['locs'][w[1]] = int(w[2])
        elif w[0] == 'THREAD': th = {'ids': tuple(map(int, w[2:5])), 'regs': {}, 'code': []}; cur['threads'].append(th)
        elif w[0] == 'REG': th['regs'][w[1]] = int(w[2])
        elif w[0] in ('ACCESS', 'ARITH', 'JUMP', 'JUMPIF'): th['code'].append(w)
        elif w[0] == 'OBSERVED': cur['observed'] = w[1:]
        elif w[0] == 'COND': cur['quant'] = w[1]; cur['cond'] = line.split(None, 2)[2].strip()
    return tests

def val(o, regs):
    if o.startswith('r'): return regs.get(o, 0)
    return int(o)

def arith(op, a, b):
    return {'Add': a + b, 'Sub': a - b, 'Mul': a * b, 'Div': (int(a / b) if b else 0), 'And': a & b, 'Or': a | b,
            'Xor': a ^ b, 'Min': min(a, b), 'Max': max(a, b)}[op]

def cmp(op, a, b):
    return {'Eq': a == b, 'Ne': a != b, 'Lt': a < b, 'Le': a <= b, 'Gt': a > b, 'Ge': a >= b}[op]

def traces(th, dom, tid):
    """Every path of a thread: (events, final regs); reads take any value of dom[loc]."""
    out = []
    def run(pc, regs, evs, steps):
        if steps > 200: return
        code = th['code']
        while pc < len(code):
            ins = code[pc]
            if ins[0] == 'ARITH':
                regs = dict(regs); regs[ins[2]] = arith(ins[1], val(ins[3], regs), val(ins[4], regs)); pc += 1; continue
            if ins[0] == 'JUMP': pc = int(ins[1]); steps += 1; continue
            if ins[0] == 'JUMPIF':
                pc = int(ins[4]) if cmp(ins[1], val(ins[2], regs), val(ins[3], regs)) else pc + 1; steps += 1
                if steps > 200: return
                continue
            _, kind, flags, loc, dst, value, rop, cas = ins
            fl = set(flags.split('|'))
            ev = {'tid': tid, 'idx': len(evs), 'flags': fl, 'loc': None if loc == '-' else loc}
            if kind in ('Fence', 'Cbar'):
                run(pc + 1, regs, evs + [ev], steps); return
            if kind == 'Store':
                ev['w'] = val(value, regs); run(pc + 1, regs, evs + [ev], steps); return
            for v in sorted(dom[loc]):
                r2 = dict(regs)
                if kind == 'Load':
                    r2[dst] = v; run(pc + 1, r2, evs + [dict(ev, r=v)], steps)
                elif cas == '-':
                    new = val(value, regs) if rop == '-' else arith(rop, v, val(value, regs))
                    r2[dst] = v; run(pc + 1, r2, evs + [dict(ev, r=v, w=new)], steps)
                else:
                    exp, weak, fail_flags, okdst = cas.split(',')
                    e = val(exp, regs)
                    if v == e:
                        r3 = dict(r2); r3[dst] = v
                        if okdst != '-': r3[okdst] = 1
                        run(pc + 1, r3, evs + [dict(ev, r=v, w=val(value, regs))], steps)
                    if v != e or weak == 'true':
                        r3 = dict(r2); r3[dst] = v
                        if okdst != '-': r3[okdst] = 0
                        run(pc + 1, r3, evs + [dict(ev, r=v, flags=set(fail_flags.split('|')))], steps)
            return
        out.append((evs, regs))
    run(0, dict(th['regs']), [], 0)
    return out

def closure(rel, n):
    m = [[(i, j) in rel for j in range(n)] for i in range(n)]
    for k in range(n):
        for i in range(n):
            if m[i][k]:
                for j in range(n):
                    if m[k][j]: m[i][j] = True
    return {(i, j) for i in range(n) for j in range(n) if m[i][j]}

def seq(a, b):
    bm = {}
    for (x, y) in b: bm.setdefault(x, []).append(y)
    return {(x, z) for (x, y) in a for z in bm.get(y, [])}

def check_test(t):
    locs = t['locs']
    # Values each location may hold: fixpoint over the threads' writes.
    dom = {l: {v} for l, v in locs.items()}
    for _ in range(6):
        new = {l: set(s) for l, s in dom.items()}
        for tid, th in enumerate(t['threads']):
            for evs, _ in traces(th, dom, tid):
                for e in evs:
                    if 'w' in e: new[e['loc']].add(e['w'])
        if new == dom: break
        dom = new
    per_thread = [traces(th, dom, tid) for tid, th in enumerate(t['threads'])]
    has_bar = [any(i[0] == 'ACCESS' and i[1] == 'Cbar' for i in th['code']) for th in t['threads']]
    ids = [th['ids'] for th in t['threads']]
    results = []  # (cond holds, racy)
    for combo in itertools.product(*per_thread):
        evs = [e for (es, _) in combo for e in es]
        n = len(evs)
        # barriers: members of a work-group with a barrier in their code execute it equally often
        bars = {}
        for i, e in enumerate(evs):
            if 'CBAR' in e['flags']:
                bars.setdefault(e['tid'], []).append(i)
        groups = {}
        for tid in range(len(combo)):
            if has_bar[tid]: groups.setdefault(ids[tid][:2], []).append(tid)
        dead = any(len({len(bars.get(tid, [])) for tid in g}) > 1 for g in groups.values())
        if dead: continue
        inst = set()
        for g in groups.values():
            for a in g:
                for b in g:
                    for k, ea in enumerate(bars.get(a, [])):
                        inst.add((ea, bars[b][k]))
        reads = [i for i, e in enumerate(evs) if 'r' in e]
        writes = [i for i, e in enumerate(evs) if 'w' in e]
        choices = []
        for r in reads:
            c = [w for w in writes if w != r and evs[w]['loc'] == evs[r]['loc'] and evs[w]['w'] == evs[r]['r']]
            if locs[evs[r]['loc']] == evs[r]['r']: c.append(None)
            choices.append(c)
        if any(not c for c in choices): continue
        byloc = {}
        for w in writes: byloc.setdefault(evs[w]['loc'], []).append(w)
        cos = [list(itertools.permutations(ws)) for ws in byloc.values()]
        for rfc in itertools.product(*choices):
            rf = {(w, r) for r, w in zip(reads, rfc) if w is not None}
            rfinit = {r for r, w in zip(reads, rfc) if w is None}
            for coc in itertools.product(*cos):
                co = set()
                for order in coc:
                    for a in range(len(order)):
                        for b in range(a + 1, len(order)): co.add((order[a], order[b]))
                res = evaluate(t, evs, ids, inst, rf, rfinit, co, combo)
                if res is not None: results.append(res)
    return results

def evaluate(t, evs, ids, inst, rf, rfinit, co, combo):
    n = len(evs); E = range(n)
    S = lambda name: {i for i in E if name in evs[i]['flags']}
    R = {i for i in E if 'R' in evs[i]['flags']}; W = {i for i in E if 'W' in evs[i]['flags']}
    F = S('F'); A = S('A'); ACQ = S('ACQ'); REL = S('REL'); SC = S('SEQCST'); CBAR = S('CBAR')
    GL = S('SC0'); LO = S('SC1'); GF = F & S('SEMSC0'); LF = F & S('SEMSC1')
    M = R | W; RMW = R & W
    tid = lambda i: evs[i]['tid']
    sthd = {(a, b) for a in E for b in E if tid(a) == tid(b)}
    sb = {(a, b) for a in E for b in E if tid(a) == tid(b) and evs[a]['idx'] < evs[b]['idx']}
    sloc = {(a, b) for a in E for b in E if evs[a]['loc'] is not None and evs[a]['loc'] == evs[b]['loc']}
    I = lambda i: ids[tid(i)]
    ssg = {(a, b) for a in E for b in E if I(a) == I(b)}
    swg = {(a, b) for a in E for b in E if I(a)[:2] == I(b)[:2]}
    sdv = {(a, b) for a in E for b in E if I(a)[0] == I(b)[0]}
    WI, SG, WG, DV, ALL = S('SCOPEWI'), S('SCOPESG'), S('SCOPEWG'), S('SCOPEQF'), S('SCOPEDEV')
    X = lambda s1, s2: {(a, b) for a in s1 for b in s2}
    incl = (X(WI, WI) & sthd) | (X(SG, SG) & ssg) | (X(WG, WG) & swg) | (X(DV, DV) & sdv) | X(ALL, ALL)
    WGL = WG | DV | ALL
    incl_local = (X(WI, WI) & sthd) | (X(SG, SG) & ssg) | (X(WGL, WGL) & swg)
    ident = {(i, i) for i in E}
    fr = ({(r, w) for (w0, r) in rf for (a, w) in co if a == w0} | {(r, w) for r in rfinit for w in W if evs[w]['loc'] == evs[r]['loc']}) - ident
    eco = closure(rf | co | fr, n)
    # release sequences
    rsm = sthd | X(W, RMW)
    rs = {(a, a) for a in W & A}
    for a in W & A:
        for b in E:
            if (a, b) in co and (a, b) in rsm:
                if not any((a, c) in co and (c, b) in co and (a, c) not in rsm for c in E):
                    rs.add((a, b))
    rsrf = seq(rs, rf)
    def sw(RG, FG):
        aa = {(a, b) for (a, b) in rsrf if a in REL & A & W & RG and b in ACQ & A & R & RG}
        xs = {(x, y) for (x, y) in rsrf if x in A & W & RG and y in A & R & RG}
        ff = seq(seq({p for p in sb if p[0] in REL & FG}, xs), {p for p in sb if p[1] in ACQ & FG})
        fa = seq({p for p in sb if p[0] in REL & FG}, {p for p in xs if p[1] in ACQ})
        af = seq({p for p in xs if p[0] in REL}, {p for p in sb if p[1] in ACQ & FG})
        return aa | ff | fa | af
    gsw0 = sw(GL, GF) & incl; lsw0 = sw(LO, LF) & incl_local
    scsw = (gsw0 | lsw0) & X(SC, SC)
    gsw = gsw0 | scsw; lsw = lsw0 | scsw
    def bsw(FG, In):
        return {(a, b) for (a, b) in inst if a != b and a in CBAR & FG and b in CBAR & FG} & In
    gbar = seq(seq(sb, bsw(GF, incl)), sb); lbar = seq(seq(sb, bsw(LF, incl_local)), sb)
    GACT = (M & GL) | GF; LACT = (M & LO) | LF
    ghb = closure({p for p in (sb | gsw | gbar) if p[0] in GACT and p[1] in GACT}, n)
    lhb = closure({p for p in (sb | lsw | lbar) if p[0] in LACT and p[1] in LACT}, n)
    if any((i, i) in ghb or (i, i) in lhb for i in E): return None
    hbloc = ({p for p in ghb if p[0] in GL and p[1] in GL} | {p for p in lhb if p[0] in LO and p[1] in LO}) & sloc
    if any((b, a) in eco for (a, b) in hbloc) or any(a == b for (a, b) in seq(hbloc, eco)): return None
    if any((b, a) in co for (a, b) in rf): return None
    for (w, e) in rf:
        if e in RMW and any((w, c) in co and (c, e) in co for c in E): return None
    for e in RMW & rfinit:
        if any((w, e) in co for w in W): return None
    vis = {(w, r) for (w, r) in hbloc if w in W and r in R and not any((w, c) in hbloc and (c, r) in hbloc for c in W)}
    for (w, r) in rf:
        if r not in A and (w, r) not in vis: return None
    for r in rfinit:
        if r not in A and any((w, r) in hbloc for w in W): return None
    hb = ghb | lhb
    sbnl = sb - sloc
    scb = sb | seq(seq(sbnl, hb), sbnl) | (hb & sloc) | co | fr
    hbq = hb | ident
    left = {(i, i) for i in SC & M} | {p for p in hbq if p[0] in SC & F}
    right = {(i, i) for i in SC & M} | {p for p in hbq if p[1] in SC & F}
    psc = seq(seq(left, scb), right) | {p for p in (hb | seq(seq(hb, eco), hb)) if p[0] in SC & F and p[1] in SC & F}
    sc_incl = incl | (incl_local & X(LO, LO)) | sthd
    pc = closure(psc & sc_incl, n)
    if any((i, i) in pc for i in E): return None
    conflict = (sloc & (X(W, M) | X(M, W))) - sthd
    race_g = {p for p in conflict if p[0] in GL and p[1] in GL} - (X(A, A) & incl) - ghb - {(b, a) for (a, b) in ghb}
    race_l = {p for p in conflict if p[0] in LO and p[1] in LO} - (X(A, A) & incl_local) - lhb - {(b, a) for (a, b) in lhb}
    racy = bool(race_g or race_l)
    # final state
    final = {}
    for l, v in t['locs'].items():
        ws = [w for w in W if evs[w]['loc'] == l]
        last = [w for w in ws if not any((w, x) in co for x in ws)]
        final[l] = evs[last[0]]['w'] if last else v
    for tid_, (_, regs) in enumerate(combo):
        for r, v in regs.items(): final[f"{tid_}:{r}"] = v
    cond = t['cond']
    expr = cond.replace('/\\', ' and ').replace('\\/', ' or ').replace('~', ' not ').replace('!=', '<>').replace('=', '==').replace('<>', '!=').replace('<==', '<=').replace('>==', '>=')
    expr = re.sub(r'(\d+:r\d+|\b[a-z_]\w*\b)', lambda m: m.group(1) if m.group(1) in ('and', 'or', 'not') else f"V['{m.group(1)}']", expr)
    holds = eval(expr, {'V': final})
    return holds, racy

for t in parse_dump(sys.argv[1]):
    res = check_test(t)
    q = t['quant']
    if q == 'Exists': ok = any(h for h, _ in res)
    elif q == 'NotExists': ok = not any(h for h, _ in res)
    else: ok = all(h for h, _ in res)
    racy = any(r for _, r in res)
    src = open(t['name']).read()
    m = re.search(r'Expected: (\w+) .*data race: (\w+)', src)
    exp = (m.group(1), m.group(2) == 'yes')
    got = ('Ok' if ok else 'No', racy)
    flag = '' if exp == got else '   <<<< MISMATCH'
    print(f"{t['name'].split('litmus-tests/')[1]:55} expected {exp} got {got} ({len(res)} consistent){flag}")
