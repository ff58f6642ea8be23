#!/usr/bin/env python3
"""Growth curves of the benchmark families: runs `vkherd bench --json` on every size of
every family (at 1 and 2 worker threads, and with --naive where it finishes), prints a
Markdown table and writes an SVG plot (time against size, log scale).

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


def bench(vkherd, text, threads, naive, runs):
    with tempfile.NamedTemporaryFile("w", suffix=".litmus", delete=False) as f:
        f.write(text)
        path = f.name
    try:
        cmd = [vkherd, "bench", "--json", "--runs", str(runs), "-j", str(threads), path]
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
    w, h, m = 720, 420, 60
    pts = [p for s in series.values() for p in s if p[1] > 0]
    xmax = max(p[0] for p in pts)
    ymin = min(p[1] for p in pts)
    ymax = max(p[1] for p in pts)
    lo, hi = math.floor(math.log10(ymin)), math.ceil(math.log10(ymax))
    hi = max(hi, lo + 1)
    X = lambda x: m + (w - 2 * m) * (x - 1) / max(1, xmax - 1)
    Y = lambda y: h - m - (h - 2 * m) * (math.log10(y) - lo) / (hi - lo)
    colors = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b"]
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="12">',
           f'<rect width="{w}" height="{h}" fill="white"/>',
           f'<line x1="{m}" y1="{h-m}" x2="{w-m}" y2="{h-m}" stroke="black"/>',
           f'<line x1="{m}" y1="{m}" x2="{m}" y2="{h-m}" stroke="black"/>',
           f'<text x="{w/2}" y="{h-15}" text-anchor="middle">size parameter n</text>',
           f'<text x="15" y="{h/2}" transform="rotate(-90 15 {h/2})" text-anchor="middle">median seconds (log)</text>']
    for e in range(lo, hi + 1):
        y = Y(10 ** e)
        out.append(f'<line x1="{m}" y1="{y}" x2="{w-m}" y2="{y}" stroke="#ddd"/>')
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
        out.append(f'<text x="{w-m+5}" y="{m+15*i}" fill="{c}">{label}</text>')
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
    svg_plot(series, args.out)
    print(f"\nplot written to {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
