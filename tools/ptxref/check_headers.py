#!/usr/bin/env python3
"""Check each corpus header's `Expected ptx:` / `Expected ptx-v6.0:` verdict against the
cat files run by the reference (cat:ptx, cat:v6).

  python3 tools/ptxref/check_headers.py [DIR]   (default litmus-tests/ptx)
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import litmus  # noqa: E402
import single  # noqa: E402
from cat import Model  # noqa: E402
from ptxref import verdict, ROOT  # noqa: E402


def main():
    d = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "litmus-tests/ptx")
    cats = {"ptx": Model(os.environ.get("PTX_CAT", os.path.join(ROOT, "crates/dialects/src/ptx/models/ptx.cat"))),
            "ptx-v6.0": Model(os.environ.get("PTXV6_CAT", os.path.join(ROOT, "crates/dialects/src/ptx/models/ptx-v6.0.cat")))}
    bad = 0
    n = 0
    for dp, _, fns in sorted(os.walk(d)):
        for fn in sorted(fns):
            if not fn.endswith(".litmus"):
                continue
            path = os.path.join(dp, fn)
            src = open(path).read()
            test = litmus.parse(path)
            for m, model in cats.items():
                want = re.search(r"Expected %s: (Ok|No)" % re.escape(m), src).group(1)
                got = verdict(test, single.run(test, model))
                n += 1
                if got != want:
                    bad += 1
                    print("%s: %s expected %s, model gives %s" % (fn, m, want, got))
    print("%d verdicts checked, %d differ" % (n, bad))


if __name__ == "__main__":
    main()
