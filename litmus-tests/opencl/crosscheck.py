"""A brute-force transcription of crates/dialects/src/opencl/models/opencl.cat, to
cross-check the hand-derived headers of this corpus and the model.

    VKHERD_DUMP_OPENCL=/tmp/opencl.dump cargo test -p vkherd --test integration opencl_corpus::dump -- --ignored
    python3 litmus-tests/opencl/crosscheck.py /tmp/opencl.dump [VARIANT ...] [--only SUBSTRING]

VARIANT is one of opencl.cat's variants this script transcribes: rc11-sc, unscoped-sc,
no-svm-atomics (not mmra). With a variant, a header's `RC11-SC:`, `UNSCOPED-SC:` or
`NO-SVM-ATOMICS:` line, where there is one, is the expected verdict.

It reads the lowered programs (so it uses vkherd's parser and lowering), enumerates every
path of each thread (reads take every value their location can hold), every reads-from
and every total modification order per location, keeps the executions that satisfy the
model's axioms, and prints, per test, the verdict and race flag it finds next to the
header's. The model is transcribed from seed 004 rather than from the cat encodings:
happens-before is the transitive closure of sequenced-before and synchronises-with over
each region's memory actions (§3.6), and the order S of seq_cst operations is found by
trying every permutation of the seq_cst events against the seed's conditions (§3.6.1),
not by the edges and the `total-order` builtin of opencl.cat. Not part of the build: a
throwaway oracle, like the one the Vulkan corpus was cross-checked with. Tests whose
condition names a variable (not `rK`) are skipped.
"""
import itertools, re, sys

ARGS = [a for a in sys.argv[2:]]
ONLY = None
if '--only' in ARGS:
    i = ARGS.index('--only'); ONLY = ARGS[i + 1]; del ARGS[i:i + 2]
VARIANTS = set(ARGS)
assert VARIANTS <= {'rc11-sc', 'unscoped-sc', 'no-svm-atomics'}, VARIANTS

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
            ev = {'tid': tid, 'idx': len(evs), 'kind': kind, 'flags': fl, 'loc': None if loc == '-' else loc}
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
    # Values each location may hold: its initial value and every constant a store or an
    # RMW writes (a write that runs only once a value is read, LB-ctrl), then a fixpoint
    # over the threads' writes.
    consts = set()
    for th in t['threads']:
        for i in th['code']:
            if i[0] == 'ACCESS' and i[5] != '-' and not i[5].startswith('r'):
                consts.add(int(i[5]))
    dom = {l: {v} | consts for l, v in locs.items()}
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
        # Barriers (§3.6.3): the k-th barrier of each work-item of a work-group is one
        # instance; a work-item with a barrier in its code that executes fewer than the
        # others waits forever. An instance's events are the entry fences (kind Cbar);
        # each exit fence (an acquire fence) is the next event of its work-item.
        bars = {}
        for i, e in enumerate(evs):
            if e['kind'] == 'Cbar':
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
    F = S('F'); A = S('A'); ACQ = S('ACQ'); REL = S('REL'); SC = S('SEQCST')
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
    if 'no-svm-atomics' in VARIANTS:
        # §3.5: on memory other than fine-grained SVM with atomics, CrossDevice behaves
        # as Device.
        DV, ALL = DV | ALL, set()
    X = lambda s1, s2: {(a, b) for a in s1 for b in s2}
    # §3.5 inclusive scopes: the same scope, and both work-items in one instance of it.
    incl = (X(WI, WI) & sthd) | (X(SG, SG) & ssg) | (X(WG, WG) & swg) | (X(DV, DV) & sdv) | X(ALL, ALL)
    # On local memory, device and all_svm_devices scopes act as work_group.
    WGL = WG | DV | ALL
    incl_local = (X(WI, WI) & sthd) | (X(SG, SG) & ssg) | (X(WGL, WGL) & swg)
    ident = {(i, i) for i in E}
    fr = ({(r, w) for (w0, r) in rf for (a, w) in co if a == w0} | {(r, w) for r in rfinit for w in W if evs[w]['loc'] == evs[r]['loc']}) - ident
    eco = closure(rf | co | fr, n)
    # §3.6 release sequences (and §3.6.2's hypothetical ones, from any atomic write).
    rsm = sthd | X(W, RMW)
    rs = {(a, a) for a in W & A}
    for a in W & A:
        for b in E:
            if (a, b) in co and (a, b) in rsm:
                if not any((a, c) in co and (c, b) in co and (a, c) not in rsm for c in E):
                    rs.add((a, b))
    rsrf = seq(rs, rf)
    # §3.6.1 and §3.6.2: atomic-atomic, fence-fence, fence-atomic, atomic-fence.
    def sw_ff(RG, FG):
        xs = {(x, y) for (x, y) in rsrf if x in A & W & RG and y in A & R & RG}
        return seq(seq({p for p in sb if p[0] in REL & FG}, xs), {p for p in sb if p[1] in ACQ & FG})
    def sw(RG, FG):
        aa = {(a, b) for (a, b) in rsrf if a in REL & A & W & RG and b in ACQ & A & R & RG}
        xs = {(x, y) for (x, y) in rsrf if x in A & W & RG and y in A & R & RG}
        fa = seq({p for p in sb if p[0] in REL & FG}, {p for p in xs if p[1] in ACQ})
        af = seq({p for p in xs if p[0] in REL}, {p for p in sb if p[1] in ACQ & FG})
        return aa | sw_ff(RG, FG) | fa | af
    gsw0 = sw(GL, GF) & incl; lsw0 = sw(LO, LF) & incl_local
    # §3.6.2, last paragraph: two fences naming both regions synchronise in both when
    # either region's conditions hold.
    BF = GF & LF
    sw_both = (sw_ff(GL, BF) & incl) | (sw_ff(LO, BF) & incl_local)
    # §3.6.1: between seq_cst operations, either synchronisation is both.
    scsw = (gsw0 | lsw0) & X(SC, SC)
    # §3.6.3: each barrier's entry fence synchronises with the exit fences of the other
    # work-items at the same instance, for the regions its flags name, in inclusive scopes.
    exit_of = {e: e + 1 for e in E if evs[e]['kind'] == 'Cbar'}
    def bsw(FG, In):
        return {(a, exit_of[b]) for (a, b) in inst if a != b and a in FG and b in FG and (a, b) in In}
    gsw = gsw0 | sw_both | scsw | bsw(GF, incl)
    lsw = lsw0 | sw_both | scsw | bsw(LF, incl_local)
    # §3.6: global (local) memory actions: accesses to the region, fences naming it, and
    # every seq_cst operation (§3.6.1); happens-before is the transitive closure of sb and
    # sw over them.
    GACT = (M & GL) | GF | SC; LACT = (M & LO) | LF | SC
    ghb = closure({p for p in (sb | gsw) if p[0] in GACT and p[1] in GACT}, n)
    lhb = closure({p for p in (sb | lsw) if p[0] in LACT and p[1] in LACT}, n)
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
    # Which pairs of seq_cst events S orders (docs/opencl.md "Scoped SC"): those of one
    # work-item, and those where each is in the other's scope instance; with
    # unscoped-sc, every pair.
    def reaches(a, b):
        if a in WI: return tid(a) == tid(b)
        if a in SG: return I(a) == I(b)
        if a in WG: return I(a)[:2] == I(b)[:2]
        if a in DV: return I(a)[0] == I(b)[0]
        return a in ALL
    if 'unscoped-sc' in VARIANTS:
        sc_incl = X(E, E)
    else:
        sc_incl = sthd | {(a, b) for a in E for b in E if reaches(a, b) and reaches(b, a)}
    if 'rc11-sc' in VARIANTS:
        sbnl = sb - sloc
        scb = sb | seq(seq(sbnl, hb), sbnl) | (hb & sloc) | co | fr
        hbq = hb | ident
        left = {(i, i) for i in SC & M} | {p for p in hbq if p[0] in SC & F}
        right = {(i, i) for i in SC & M} | {p for p in hbq if p[1] in SC & F}
        psc = seq(seq(left, scb), right) | {p for p in (hb | seq(seq(hb, eco), hb)) if p[0] in SC & F and p[1] in SC & F}
        pc = closure(psc & sc_incl, n)
        if any((i, i) in pc for i in E): return None
    elif not seed_order_exists(SC, R, W, F, A, sb, hb, co, fr, hbloc, sloc, sc_incl, rf, rfinit):
        return None
    # §3.6 data races.
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
    expr = re.sub(r'(\d+:r\d+|\b[a-z_]\w*(?:\[\d+\])?)', lambda m: m.group(1) if m.group(1) in ('and', 'or', 'not') else f"V['{m.group(1)}']", expr)
    holds = eval(expr, {'V': final})
    return holds, racy

def seed_order_exists(SC, R, W, F, A, sb, hb, co, fr, hbloc, sloc, incl, rf, rfinit):
    """§3.6.1: is there a total order S of the seq_cst events, consistent with co and hb,
    such that each seq_cst load reads the last seq_cst write to its location before it in
    S (or a write that is not seq_cst and does not happen before that last one; the
    initial value, which happens before everything, only if there is none), and the four
    fence rules hold? Each condition on a pair of seq_cst events is asked only of pairs S
    orders (incl)."""
    sc = sorted(SC)
    if not sc: return True
    src = {r: w for (w, r) in rf}
    fences = [x for x in sc if x in F]
    for perm in itertools.permutations(sc):
        pos = {e: i for i, e in enumerate(perm)}
        before = lambda a, b: pos[a] < pos[b]
        ok = True
        for a in sc:
            for b in sc:
                if (a, b) in incl and ((a, b) in co or (a, b) in hb or (a, b) in sb) and not before(a, b):
                    ok = False; break
            if not ok: break
        if not ok: continue
        for b in sc:
            if b not in R: continue
            cands = [a for a in sc if a != b and a in W and (b, a) in sloc and (b, a) in incl and before(a, b)]
            last = max(cands, key=lambda a: pos[a]) if cands else None
            if b in rfinit:
                good = last is None
            else:
                x = src[b]
                if x in SC and (x, b) in incl:
                    good = last == x
                else:
                    good = last is None or (x, last) not in hbloc
            if not good: ok = False; break
        if not ok: continue
        for x in fences:
            for b in R & A:
                if (x, b) not in sb: continue
                # C11 7.17.3 paragraph 9
                for a in sc:
                    if a in W and (x, a) in incl and before(a, x) and (b, a) in fr:
                        ok = False
            for a in W & A:
                if (a, x) not in sb: continue
                # paragraph 10
                for b in sc:
                    if b in R and (b, x) in incl and before(x, b) and (b, a) in fr:
                        ok = False
                # paragraph 11 and the modification-order rule
                for y in fences:
                    if y == x or (y, x) not in incl or not before(x, y): continue
                    for b in A:
                        if (y, b) not in sb: continue
                        if (b in R and (b, a) in fr) or (b in W and (b, a) in co):
                            ok = False
            if not ok: break
        if ok: return True
    return False

KEYS = {'rc11-sc': 'RC11-SC: ', 'unscoped-sc': 'UNSCOPED-SC: ', 'no-svm-atomics': 'NO-SVM-ATOMICS: '}
mismatches = 0
for t in parse_dump(sys.argv[1]):
    if ONLY and ONLY not in t['name']: continue
    if re.search(r'\d+:(?!r\d)[a-z_]', t['cond']):
        print(f"{t['name'].split('litmus-tests/')[1]:55} skipped (a named variable in the condition)")
        continue
    res = check_test(t)
    q = t['quant']
    if q == 'Exists': ok = any(h for h, _ in res)
    elif q == 'NotExists': ok = not any(h for h, _ in res)
    else: ok = all(h for h, _ in res)
    racy = any(r for _, r in res)
    src = open(t['name']).read()
    m = None
    for v in sorted(VARIANTS):
        m = m or re.search(re.escape(KEYS[v]) + r'(\w+) .*data race: (\w+)', src)
    m = m or re.search(r'Expected: (\w+) .*data race: (\w+)', src)
    exp = (m.group(1), m.group(2) == 'yes')
    got = ('Ok' if ok else 'No', racy)
    flag = '' if exp == got else '   <<<< MISMATCH'
    mismatches += exp != got
    print(f"{t['name'].split('litmus-tests/')[1]:55} expected {exp} got {got} ({len(res)} consistent){flag}", flush=True)
print(f"{mismatches} mismatch(es)")
