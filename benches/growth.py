#!/usr/bin/env python3
"""Growth curves of the benchmark families: runs `vkherd bench --json` on every size of
every family (at 1 and 2 worker threads, and with --naive where it finishes), prints a
Markdown table and writes an SVG plot (time against size, log scale). Then the cost of
each question on the spin lock family (`vkherd gen spinlock N`): its safety question under
each bundled model of its dialect (vulkan, vulkan-2024, hand:vulkan), under a user's cat
model (benches/rmw-loops/rc11-coherence.cat), the same lock written in OpenCL under
opencl, and its liveness question (`--liveness`, fair) at the default bound; each is a
curve of the plot and a row of the second table.

    python3 benches/growth.py [--vkherd target/release/vkherd] [--out docs/growth.svg]

Uses only the standard library, so it runs wherever the project builds."""

import argparse, json, math, os, subprocess, sys, tempfile

SIZES = {
    "iriw": [1, 2, 3, 4, 5, 6],
    "sb-ring": [2, 4, 6, 8, 10],
    "mp-chain": [1, 2, 4, 6, 8],
    "writes-readers": [1, 2, 3, 4, 5],
    "xf-barrier": [1, 2, 3, 4],
    "spinlock": [1, 2, 3],
    "ticket": [1, 2, 3],
    "rmw-chain": [2, 3, 4, 5, 6],
}
NAIVE_LIMIT_S = 20.0
LOCK_SIZES = [1, 2, 3, 4]
HERE = os.path.dirname(os.path.abspath(__file__))


def opencl_spinlock(n):
    """`vkherd gen spinlock N` written in OpenCL: an exchange loop takes the lock, a plain
    increment of x, a release store frees it (benches/rmw-loops/spinlock-opencl-3.litmus
    is N = 3)."""
    thread = """P{i}@sg {i}, wg 0, dev 0 (global atomic_int* m, global int* x) {{
  while (atomic_exchange_explicit(m, 1, memory_order_acquire, memory_scope_work_group) != 0);
  int r1 = *x;
  *x = r1 + 1;
  atomic_store_explicit(m, 0, memory_order_release, memory_scope_work_group);
}}
"""
    head = f'OPENCL spinlock-opencl-{n}\n{{ [m] = 0; [x] = 0; }}\n'
    return head + "".join(thread.format(i=i) for i in range(n)) + f"forall (x = {n})\n"


def questions(vkherd):
    """The spin lock's questions: (label, extra flags, source of member N)."""
    gen = lambda n: subprocess.run([vkherd, "gen", "spinlock", str(n)], capture_output=True, text=True, check=True).stdout
    user = os.path.join(HERE, "rmw-loops", "rc11-coherence.cat")
    return [
        ("lock: vulkan", [], gen),
        ("lock: vulkan-2024", ["--model", "vulkan-2024"], gen),
        ("lock: hand:vulkan", ["--model", "hand:vulkan"], gen),
        ("lock: user .cat", ["--model", user], gen),
        ("lock: opencl", [], opencl_spinlock),
        ("lock: liveness", ["--liveness"], gen),
    ]


def bench(vkherd, text, threads, naive, runs, extra=()):
    with tempfile.NamedTemporaryFile("w", suffix=".litmus", delete=False) as f:
        f.write(text)
        path = f.name
    try:
        cmd = [vkherd, "bench", "--json", "--runs", str(runs), "-j", str(threads), *extra, path]
        if naive:
            cmd += ["--naive", "--timeout", str(NAIVE_LIMIT_S)]
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=NAIVE_LIMIT_S * runs + 60)
        row = json.loads(out.stdout.splitlines()[0])
        return row
    except (subprocess.TimeoutExpired, IndexError, json.JSONDecodeError):
        return None
    finally:
        os.unlink(path)


def svg_plot(series, path):
    """series: {label: [(size, seconds)]} -> a log-scale line chart."""
    w, h, m = 860, 480, 60
    right = 170  # room for the labels
    pts = [p for s in series.values() for p in s if p[1] > 0]
    xmax = max(p[0] for p in pts)
    ymin = min(p[1] for p in pts)
    ymax = max(p[1] for p in pts)
    lo, hi = math.floor(math.log10(ymin)), math.ceil(math.log10(ymax))
    hi = max(hi, lo + 1)
    X = lambda x: m + (w - m - right) * (x - 1) / max(1, xmax - 1)
    Y = lambda y: h - m - (h - 2 * m) * (math.log10(y) - lo) / (hi - lo)
    colors = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
              "#e377c2", "#7f7f7f", "#bcbd22", "#17becf", "#393b79", "#637939",
              "#8c6d31", "#843c39"]
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="12">',
           f'<rect width="{w}" height="{h}" fill="white"/>',
           f'<line x1="{m}" y1="{h-m}" x2="{w-right}" y2="{h-m}" stroke="black"/>',
           f'<line x1="{m}" y1="{m}" x2="{m}" y2="{h-m}" stroke="black"/>',
           f'<text x="{w/2}" y="{h-15}" text-anchor="middle">size parameter n</text>',
           f'<text x="15" y="{h/2}" transform="rotate(-90 15 {h/2})" text-anchor="middle">median seconds (log)</text>']
    for e in range(lo, hi + 1):
        y = Y(10 ** e)
        out.append(f'<line x1="{m}" y1="{y}" x2="{w-right}" y2="{y}" stroke="#ddd"/>')
        out.append(f'<text x="{m-5}" y="{y+4}" text-anchor="end">1e{e}</text>')
    for x in range(1, xmax + 1):
        out.append(f'<text x="{X(x)}" y="{h-m+15}" text-anchor="middle">{x}</text>')
    for i, (label, s) in enumerate(series.items()):
        c = colors[i % len(colors)]
        s = [p for p in s if p[1] > 0]
        d = " ".join(f"{X(x):.1f},{Y(y):.1f}" for x, y in s)
        out.append(f'<polyline points="{d}" fill="none" stroke="{c}" stroke-width="2"/>')
        for x, y in s:
            out.append(f'<circle cx="{X(x):.1f}" cy="{Y(y):.1f}" r="3" fill="{c}"/>')
        dash = ' stroke-dasharray="6,3"' if label.startswith("lock:") else ""
        out[-1 - len(s)] = out[-1 - len(s)].replace("/>", f"{dash}/>")
        out.append(f'<text x="{w-right+10}" y="{m+15*i}" fill="{c}">{label}</text>')
    out.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(out))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--vkherd", default="target/release/vkherd")
    ap.add_argument("--out", default="docs/growth.svg")
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    series = {}
    print("| family | n | median s (1 thread) | median s (2 threads) | speed-up | candidates | pruned | consistent | explored/consistent | candidates/s (1 thread) | naive s | naive/search |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for fam, sizes in SIZES.items():
        series[fam] = []
        naive_ok = True
        for n in sizes:
            text = subprocess.run([args.vkherd, "gen", fam, str(n)], capture_output=True, text=True, check=True).stdout
            one = bench(args.vkherd, text, 1, False, args.runs)
            two = bench(args.vkherd, text, 2, False, args.runs)
            naive = bench(args.vkherd, text, 1, True, 1) if naive_ok else None
            if naive is None or naive["median_seconds"] >= NAIVE_LIMIT_S * 0.99:
                naive_ok, naive = False, None
            t1, t2 = one["median_seconds"], two["median_seconds"]
            series[fam].append((n, t1))
            ratio = one["candidates"] / max(1, one["consistent"])
            ns = f'{naive["median_seconds"]:.4f}' if naive else "-"
            nr = f'{naive["median_seconds"] / t1:.1f}x' if naive and t1 > 0 else "-"
            print(f'| {fam} | {n} | {t1:.4f} | {t2:.4f} | {t1 / t2 if t2 else 0:.2f}x | {one["candidates"]} | {one["pruned"]} | {one["consistent"]} | {ratio:.2f} | {one["candidates_per_second"]:.0f} | {ns} | {nr} |', flush=True)
    print()
    print("| question | n | median s (2 threads) | candidates | consistent |")
    print("|---|---|---|---|---|")
    for label, extra, source in questions(args.vkherd):
        series[label] = []
        for n in LOCK_SIZES:
            row = bench(args.vkherd, source(n), 2, False, args.runs, extra)
            if row is None:
                print(f"| {label} | {n} | - | - | - |", flush=True)
                break
            series[label].append((n, row["median_seconds"]))
            print(f'| {label} | {n} | {row["median_seconds"]:.4f} | {row["candidates"]} | {row["consistent"]} |', flush=True)
    svg_plot(series, args.out)
    print(f"\nplot written to {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
