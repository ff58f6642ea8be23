"""Parser of the PTX litmus subset the reference runs (Dat3M's LitmusPTX.g4): init with
values and aliases, placed threads, ld/st/atom/red (all proxies), moves and arithmetic,
fences, proxy and alias fences, barriers with constant instance and id, forward
branches, exists/~exists/forall conditions."""
import re


def strip_comments(src):
    out, i, depth = [], 0, 0
    while i < len(src):
        if src.startswith("(*", i):
            depth += 1
            i += 2
        elif depth and src.startswith("*)", i):
            depth -= 1
            i += 2
        elif depth:
            i += 1
        else:
            out.append(src[i])
            i += 1
    return "".join(out)


class Test:
    pass


def parse_value(tok):
    tok = tok.strip()
    if re.fullmatch(r"-?\d+", tok):
        return ("imm", int(tok))
    if re.fullmatch(r"r\d+", tok):
        return ("reg", tok)
    raise ValueError("bad value %r" % tok)


def parse_instr(text):
    t = text.strip()
    if not t:
        return None
    m = re.fullmatch(r"(LC\d+)\s*:", t)
    if m:
        return {"k": "label", "name": m.group(1)}
    m = re.fullmatch(r"goto\s+(LC\d+)", t)
    if m:
        return {"k": "goto", "target": m.group(1)}
    m = re.fullmatch(r"(beq|bne|blt|bgt|ble|bge)\s+(\S+)\s*,\s*(\S+)\s*,\s*(LC\d+)", t)
    if m:
        return {"k": "branch", "op": m.group(1), "a": parse_value(m.group(2)),
                "b": parse_value(m.group(3)), "target": m.group(4)}
    m = re.fullmatch(r"(add|sub|mul|div)\s+(r\d+)\s*,\s*(\S+)\s*,\s*(\S+)", t)
    if m:
        return {"k": "arith", "op": m.group(1), "dst": m.group(2),
                "a": parse_value(m.group(3)), "b": parse_value(m.group(4))}
    m = re.fullmatch(r"(ld|tld|suld|cold)\s+(r\d+)\s*,\s*(\S+)", t)
    if m:
        return {"k": "move", "dst": m.group(2), "v": parse_value(m.group(3))}
    proxy_of = {"ld": "GEN", "tld": "TEX", "suld": "SUR", "cold": "CON", "st": "GEN",
                "sust": "SUR", "atom": "GEN", "suatom": "SUR", "red": "GEN", "sured": "SUR"}
    m = re.fullmatch(r"(ld|tld|suld|cold)\.(weak|relaxed|acquire)(?:\.(cta|gpu|sys))?\s+(r\d+)\s*,\s*(\w+)", t)
    if m:
        return {"k": "ld", "proxy": proxy_of[m.group(1)], "mo": m.group(2),
                "scope": m.group(3), "dst": m.group(4), "loc": m.group(5)}
    m = re.fullmatch(r"(st|sust)\.(weak|relaxed|release)(?:\.(cta|gpu|sys))?\s+(\w+)\s*,\s*(\S+)", t)
    if m:
        return {"k": "st", "proxy": proxy_of[m.group(1)], "mo": m.group(2),
                "scope": m.group(3), "loc": m.group(4), "v": parse_value(m.group(5))}
    m = re.fullmatch(r"(atom|suatom)\.(relaxed|acquire|release|acq_rel)\.(cta|gpu|sys)\.(add|sub|mul|div|and|or|xor|exch|cas)\s+(r\d+)\s*,\s*(\w+)\s*,\s*(\S+?)(?:\s*,\s*(\S+))?", t)
    if m:
        d = {"k": "atom", "proxy": proxy_of[m.group(1)], "mo": m.group(2),
             "scope": m.group(3), "op": m.group(4), "dst": m.group(5), "loc": m.group(6)}
        if m.group(4) == "cas":
            d["expected"] = parse_value(m.group(7))
            d["v"] = parse_value(m.group(8))
        else:
            d["v"] = parse_value(m.group(7))
        return d
    m = re.fullmatch(r"(red|sured)\.(relaxed|acquire|release|acq_rel)\.(cta|gpu|sys)\.(add|sub|mul|div|and|or|xor)\s+(\w+)\s*,\s*(\S+)", t)
    if m:
        return {"k": "atom", "proxy": proxy_of[m.group(1)], "mo": m.group(2),
                "scope": m.group(3), "op": m.group(4), "dst": None, "loc": m.group(5),
                "v": parse_value(m.group(6))}
    m = re.fullmatch(r"fence\.(sc|acq_rel)\.(cta|gpu|sys)", t)
    if m:
        return {"k": "fence", "mo": m.group(1), "scope": m.group(2)}
    m = re.fullmatch(r"fence\.proxy\.(generic|surface|texture|constant|alias)", t)
    if m:
        return {"k": "pfence", "proxy": {"generic": "GEN", "surface": "SUR",
                                         "texture": "TEX", "constant": "CON",
                                         "alias": "ALIAS"}[m.group(1)]}
    m = re.fullmatch(r"bar\.cta\.(sync|arrive)\s+(\w+)(?:\s*,\s*(\S+?))?(?:\s*,\s*(\S+))?", t)
    if m:
        if m.group(4):
            raise NotImplementedError("quorum")
        return {"k": "bar", "mode": m.group(1), "inst": m.group(2),
                "id": parse_value(m.group(3)) if m.group(3) else None}
    raise ValueError("cannot parse instruction %r" % t)


def parse(path):
    with open(path) as f:
        src = strip_comments(f.read())
    t = Test()
    lines = src.strip().split("\n")
    t.name = lines[0].split()[1]
    lb = src.index("{")
    rb = src.index("}", lb)
    init = src[lb + 1:rb]
    rest = src[rb + 1:]
    t.loc_init = {}
    t.reg_init = {}
    t.alias = {}  # name -> (proxy, target)
    for decl in init.split(";"):
        d = decl.strip()
        if not d:
            continue
        m = re.fullmatch(r"(\w+)\s*@\s*(\w+)\s+aliases\s+(\w+)", d)
        if m:
            t.alias[m.group(1)] = (m.group(2), m.group(3))
            continue
        m = re.fullmatch(r"P?(\d+)\s*:\s*(r\d+)\s*=\s*(-?\d+)", d)
        if m:
            t.reg_init[(int(m.group(1)), m.group(2))] = int(m.group(3))
            continue
        m = re.fullmatch(r"(\w+)\s*=\s*(-?\d+)", d)
        if m:
            t.loc_init[m.group(1)] = int(m.group(2))
            continue
        raise ValueError("bad init %r" % d)
    m = re.search(r"(~exists|exists|forall)", rest)
    prog, cond = rest[:m.start()], rest[m.start():]
    t.quant = m.group(1)
    t.cond = cond[len(m.group(1)):].strip()
    rows = [r for r in prog.split(";") if r.strip()]
    heads = [h.strip() for h in rows[0].split("|")]
    t.threads = []
    for h in heads:
        m = re.fullmatch(r"P(\d+)\s*@\s*cta\s+(\d+)\s*,\s*gpu\s+(\d+)", h)
        t.threads.append((int(m.group(3)), int(m.group(2))))  # (gpu, cta)
    t.code = [[] for _ in heads]
    for r in rows[1:]:
        cells = r.split("|")
        for i, c in enumerate(cells):
            ins = parse_instr(c)
            if ins is not None:
                t.code[i].append(ins)
    # locations: physical location and virtual address of each name
    t.phys = {}
    t.vaddr = {}

    def resolve(name):
        if name in t.phys:
            return
        if name in t.alias:
            proxy, target = t.alias[name]
            resolve(target)
            t.phys[name] = t.phys[target]
            # a generic alias is a new virtual address; a proxy alias is the target's
            # address used through that proxy (Dat3M's initVirLocEqLocAliasGen/Proxy)
            t.vaddr[name] = name if proxy == "generic" else t.vaddr[target]
        else:
            t.phys[name] = name
            t.vaddr[name] = name

    for name in list(t.loc_init) + list(t.alias):
        resolve(name)
    for code in t.code:
        for ins in code:
            if "loc" in ins:
                resolve(ins["loc"])
    words = set(re.findall(r"\b[A-Za-z_]\w*\b", re.sub(r"P?\d+\s*:\s*r\d+", "", t.cond)))
    t.cond_locs = {t.phys[w] for w in words if w in t.phys}
    t.init_of = {}
    for name, p in t.phys.items():
        if name in t.loc_init and name == p:
            t.init_of[p] = t.loc_init[name]
    for name, p in t.phys.items():
        t.init_of.setdefault(p, t.loc_init.get(name, 0))
    return t


def cond_eval(cond, regs, locs, phys):
    """Evaluate a condition. regs: (thread, reg) -> value; locs: phys -> value."""
    s = cond
    s = s.replace("/\\", " and ").replace("\\/", " or ")
    s = re.sub(r"~(?!=)", " not ", s)
    s = re.sub(r"(?<![=!<>])=(?!=)", "==", s)

    def reg(m):
        return str(regs.get((int(m.group(1)), m.group(2)), 0))

    s = re.sub(r"P?(\d+)\s*:\s*(r\d+)", reg, s)

    def loc(m):
        w = m.group(0)
        if w in ("and", "or", "not", "true", "false"):
            return {"true": "True", "false": "False"}.get(w, w)
        return str(locs[phys[w]])

    s = re.sub(r"\b[A-Za-z_]\w*\b", loc, s)
    return eval(s)
