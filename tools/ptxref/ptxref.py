#!/usr/bin/env python3
"""Brute-force reference for PTX litmus tests (not part of the test suite).

  python3 tools/ptxref/ptxref.py [--models LIST] [--states] FILE_OR_DIR...

For each test: the verdict of the condition under
  cat:ptx        crates/dialects/src/ptx/models/ptx.cat, run by a small cat interpreter on vkherd's
                 single-event candidates (asmo = acyclic orientations, minimal co)
  cat:v6         crates/dialects/src/ptx/models/ptx-v6.0.cat, likewise
  ref:v6         NVIDIA's ptxmemorymodel Alloy model (co transitive), two-event RMWs and
                 barriers, every coherence and Fence-SC order
  ref:v75        NVIDIA's mixedproxy Alloy model with ptx.cat's changes C1..C6
  lit:v75        NVIDIA's mixedproxy Alloy model as written (no C1..C5; barriers added)
  dat3m:v6/v75   a reading of Dat3M's ptx-v6.0.cat / ptx-v7.5.cat (single-event barrier
                 with identity, fence.sc not an acq_rel fence, causality without the
                 optional, Dat3M's Fence-SC, no rmw in dep for exch, final value only when
                 the co-maximal writes agree)
and whether cat:ptx = ref:v75 and cat:v6 = ref:v6 on the full outcome sets.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import litmus  # noqa: E402
import single  # noqa: E402
import alloy  # noqa: E402
from cat import Model  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def verdict(test, outcomes):
    sat = [litmus.cond_eval(test.cond, dict(r), dict(l), test.phys) for r, l in outcomes]
    if test.quant == "exists":
        return "Ok" if any(sat) else "No"
    if test.quant == "~exists":
        return "Ok" if not any(sat) else "No"
    return "Ok" if all(sat) else "No"


def fmt_state(o):
    r, l = o
    return " ".join("%d:%s=%d" % (t, reg, v) for (t, reg), v in r) + " | " + \
        " ".join("%s=%d" % kv for kv in l)


def run_models(test, models, cats, res):
    for m in models:
        if m in cats:
            res[m] = single.run(test, cats[m])
        elif m == "ref:v6":
            res[m] = alloy.run(test, alloy.Flags(model="v6"))
        elif m == "ref:v75":
            res[m] = alloy.run(test, alloy.Flags(model="v75"))
        elif m == "ref:v75-obs1":
            res[m] = alloy.run(test, alloy.Flags(model="v75", C3=False))
        elif m == "lit:v75":
            res[m] = alloy.run(test, alloy.nvidia_literal("v75"))
        elif m == "dat3m:v6":
            res[m] = alloy.run(test, alloy.dat3m("v6"))
        elif m == "dat3m:v75":
            res[m] = alloy.run(test, alloy.dat3m("v75"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("paths", nargs="+")
    ap.add_argument("--models", default="cat:ptx,cat:v6,ref:v75,ref:v6,lit:v75,dat3m:v75,dat3m:v6")
    ap.add_argument("--states", action="store_true")
    args = ap.parse_args()
    files = []
    for p in args.paths:
        if os.path.isdir(p):
            for dp, _, fns in os.walk(p):
                files += [os.path.join(dp, f) for f in fns if f.endswith(".litmus")]
        else:
            files.append(p)
    files.sort()
    cats = {"cat:ptx": Model(os.path.join(ROOT, "crates/dialects/src/ptx/models/ptx.cat")),
            "cat:v6": Model(os.path.join(ROOT, "crates/dialects/src/ptx/models/ptx-v6.0.cat"))}
    models = args.models.split(",")
    mismatch = 0
    for f in files:
        try:
            test = litmus.parse(f)
        except (NotImplementedError, ValueError, AssertionError) as e:
            print("%s: skipped (%s)" % (os.path.basename(f), e))
            continue
        res = {}
        try:
            run_models(test, models, cats, res)
        except (NotImplementedError, ValueError, AssertionError, KeyError) as e:
            print("%s: skipped (%s: %s)" % (os.path.basename(f), type(e).__name__, e))
            continue
        line = "%-44s %s %-8s" % (test.name, test.quant, "")
        line += " ".join("%s=%s" % (m, verdict(test, res[m])) for m in models)
        notes = []
        for a, b in (("cat:ptx", "ref:v75"), ("cat:v6", "ref:v6")):
            if a in res and b in res and res[a] != res[b]:
                notes.append("%s!=%s" % (a, b))
                mismatch += 1
        print(line + ("  MISMATCH " + ",".join(notes) if notes else ""))
        if args.states or notes:
            for m in models:
                print("   %s:" % m)
                for o in sorted(res[m]):
                    print("      " + fmt_state(o))
    print("mismatches: %d" % mismatch)


if __name__ == "__main__":
    main()
