#!/usr/bin/env python3
"""Compare vkherd's PTX answers with the reference (not part of the test suite).

  python3 tools/ptxref/compare_vkherd.py VKHERD FILE_OR_DIR...

For each test, vkherd's verdict and states under `--model ptx` and `--model ptx-v6.0`
beside ptxref's: the independent Alloy references ref:v75 / ref:v6 (two-event RMWs and
barriers, every coherence order), the cat files run by ptxref's interpreter (cat:ptx,
cat:v6) and the reading of Dat3M's cat files (dat3m:v75, dat3m:v6). States are compared
on vkherd's columns (the reference's states projected onto them). Tests the reference
skips (loops, register barrier IDs) are listed as such. One line per test and model
pair; a summary at the end.
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import litmus  # noqa: E402
import single  # noqa: E402
import alloy  # noqa: E402
from cat import Model  # noqa: E402
from ptxref import verdict, ROOT  # noqa: E402

PAIRS = [("ptx", "ref:v75", "cat:ptx", "dat3m:v75"), ("ptx-v6.0", "ref:v6", "cat:v6", "dat3m:v6")]


def vk(binary, path, model):
    out = subprocess.run([binary, "--json", "--model", model, path], capture_output=True,
                         text=True, timeout=600)
    d = json.loads(out.stdout.splitlines()[0])
    states = set()
    for s in d.get("states") or []:
        states.add(tuple(sorted(s["values"].items())))
    return d.get("verdict"), states


def project(test, outcomes, columns):
    got = set()
    for r, l in outcomes:
        rd = {"%d:%s" % (t, reg): v for (t, reg), v in r}
        ld = dict(l)
        row = []
        for c in columns:
            if ":" in c:
                row.append((c, rd.get(c, 0)))
            else:
                row.append((c, ld.get(test.phys.get(c, c), ld.get(c))))
        got.add(tuple(sorted(row)))
    return got


def main():
    binary = sys.argv[1]
    files = []
    for p in sys.argv[2:]:
        if os.path.isdir(p):
            for dp, _, fns in os.walk(p):
                files += [os.path.join(dp, f) for f in fns if f.endswith(".litmus")]
        else:
            files.append(p)
    files.sort()
    cats = {"cat:ptx": Model(os.path.join(ROOT, "crates/dialects/src/ptx/models/ptx.cat")),
            "cat:v6": Model(os.path.join(ROOT, "crates/dialects/src/ptx/models/ptx-v6.0.cat"))}
    tally = {}
    for f in files:
        name = os.path.relpath(f)
        try:
            test = litmus.parse(f)
        except Exception as e:  # noqa: BLE001
            test = None
            skip = str(e)
        for model, ref, catm, dat in PAIRS:
            verd, states = vk(binary, f, model)
            vv = (verd or "?").split()[0]
            if test is None:
                print("%s %s vkherd=%s ref=skipped (%s)" % (name, model, vv, skip))
                tally.setdefault((model, "skipped"), 0)
                tally[(model, "skipped")] += 1
                continue
            try:
                res = {
                    ref: alloy.run(test, alloy.Flags(model="v75" if model == "ptx" else "v6")),
                    catm: single.run(test, cats[catm]),
                    dat: alloy.run(test, alloy.dat3m("v75" if model == "ptx" else "v6")),
                }
            except Exception as e:  # noqa: BLE001
                print("%s %s vkherd=%s ref=skipped (%s: %s)" % (name, model, vv, type(e).__name__, e))
                tally.setdefault((model, "skipped"), 0)
                tally[(model, "skipped")] += 1
                continue
            cols = sorted({c for s in states for c, _ in s})
            marks = []
            for m in (ref, catm, dat):
                v = verdict(test, res[m])
                same_v = v == vv
                same_s = (not states) or project(test, res[m], cols) == states
                if not states and res[m]:
                    same_s = False
                key = (model, m)
                t = tally.setdefault(key, [0, 0, 0])
                t[0] += 1
                t[1] += same_v
                t[2] += same_s
                if not (same_v and same_s):
                    marks.append("%s=%s%s" % (m, v, "" if same_s else " (states differ)"))
            print("%s %s vkherd=%s %s" % (name, model, vv, " ".join(marks) if marks else "agree"))
    print("summary (model, reference: tests, same verdict, same states):")
    for k, v in sorted(tally.items()):
        print("  ", k, v)


if __name__ == "__main__":
    main()
