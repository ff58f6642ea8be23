#!/usr/bin/env python3
"""Random straight-line PTX tests: compare the cat files (single events, minimal co)
with the two-event Alloy reference (every co) on full outcome sets.

  python3 tools/ptxref/random_check.py [N] [SEED]
"""
import os
import random
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import litmus  # noqa: E402
import single  # noqa: E402
import alloy  # noqa: E402
from cat import Model  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def gen(rng, k):
    nth = rng.choice([2, 2, 3])
    locs = ["x", "y"]
    aliases = []
    if rng.random() < 0.3:
        aliases.append(("s", "surface", "x"))
    if rng.random() < 0.2:
        aliases.append(("z", "generic", "x"))
    names = locs + [a[0] for a in aliases]
    place = [(rng.choice([0, 0, 1]), 0) for _ in range(nth)]
    code = [[] for _ in range(nth)]
    regs = [0] * nth
    val = [1]

    def scope():
        return rng.choice(["cta", "gpu", "sys"])

    for t in range(nth):
        for _ in range(rng.choice([1, 2, 2, 3])):
            kind = rng.choices(["ld", "st", "atom", "fence", "bar", "pf"],
                               [5, 5, 2, 2, 1, 1])[0]
            loc = rng.choice(names)
            prox = {"s": "su", "x": "", "y": "", "z": ""}[loc]
            if kind == "ld":
                mo = rng.choice(["weak", "relaxed", "acquire"])
                op = (prox + "ld") if prox else rng.choice(["ld", "ld", "tld"] if loc == "x" else ["ld"])
                sc = "" if mo == "weak" else "." + scope()
                code[t].append("%s.%s%s r%d, %s" % (op, mo, sc, regs[t], loc))
                regs[t] += 1
            elif kind == "st":
                mo = rng.choice(["weak", "relaxed", "release"])
                sc = "" if mo == "weak" else "." + scope()
                op = "sust" if prox else "st"
                v = val[0]
                val[0] += 1
                if regs[t] and rng.random() < 0.3:
                    code[t].append("%s.%s%s %s, r%d" % (op, mo, sc, loc, regs[t] - 1))
                else:
                    code[t].append("%s.%s%s %s, %d" % (op, mo, sc, loc, v))
            elif kind == "atom":
                mo = rng.choice(["relaxed", "acquire", "release", "acq_rel"])
                op = rng.choice(["add", "exch"])
                v = val[0]
                val[0] += 1
                pre = "suatom" if prox else "atom"
                code[t].append("%s.%s.%s.%s r%d, %s, %d" % (pre, mo, scope(), op, regs[t], loc, v))
                regs[t] += 1
            elif kind == "fence":
                code[t].append("fence.%s.%s" % (rng.choice(["sc", "acq_rel"]), scope()))
            elif kind == "bar":
                code[t].append("bar.cta.%s %d" % (rng.choice(["sync", "sync", "arrive"]), rng.choice([0, 1])))
            else:
                code[t].append("fence.proxy.%s" % rng.choice(["surface", "texture", "alias"]))
    rows = max(len(c) for c in code)
    lines = ["PTX rand%d" % k, "{"]
    lines += ["%s = 0;" % l for l in locs]
    lines += ["%s @ %s aliases %s;" % a for a in aliases]
    lines.append("}")
    lines.append(" | ".join("P%d@cta %d,gpu %d" % (t, c, g) for t, (c, g) in enumerate(place)) + " ;")
    for r in range(rows):
        lines.append(" | ".join(code[t][r] if r < len(code[t]) else "" for t in range(nth)) + " ;")
    lines.append("exists (x == 0)")
    return "\n".join(lines) + "\n"


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    rng = random.Random(seed)
    cats = {"v75": Model(os.environ.get("PTX_CAT", os.path.join(ROOT, "crates/dialects/src/ptx/models/ptx.cat"))),
            "v6": Model(os.environ.get("PTXV6_CAT", os.path.join(ROOT, "crates/dialects/src/ptx/models/ptx-v6.0.cat")))}
    only = os.environ.get("ONLY")
    bad = 0
    ran = 0
    for k in range(n):
        src = gen(rng, k)
        with tempfile.NamedTemporaryFile("w", suffix=".litmus", delete=False) as f:
            f.write(src)
            path = f.name
        test = litmus.parse(path)
        os.unlink(path)
        for m in ((only,) if only else ("v75", "v6")):
            a = single.run(test, cats[m])
            b = alloy.run(test, alloy.Flags(model=m))
            if a != b:
                bad += 1
                print("MISMATCH %s on:\n%s" % (m, src))
                print("  cat only:", sorted(a - b)[:5])
                print("  ref only:", sorted(b - a)[:5])
        ran += 1
    print("ran %d random tests, %d mismatches" % (ran, bad))


if __name__ == "__main__":
    main()
