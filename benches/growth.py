#!/usr/bin/env python3
"""Growth curves of the benchmark families: runs `vkherd bench --json` on every size of
every family (at 1 and 2 worker threads, and with --naive where it finishes), prints a
Markdown table and writes an SVG plot (time against size, log scale). Then the cost of
each question on the spin lock family (`vkherd gen spinlock N`): its safety question under
each bundled model of its dialect (vulkan, vulkan-2024, hand:vulkan), under a user's cat
model (benches/rmw-loops/rc11-coherence.cat), the same lock written in OpenCL under
opencl and in PTX under ptx and ptx-v6.0, and its liveness question (`--liveness`, fair)
at the default bound; each is a curve of the plot's second panel and a row of the second
table. The plot is a function of the numbers alone (same numbers, same bytes).

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


def ptx_spinlock(n):
    """`vkherd gen spinlock N` written in PTX: an exchange loop (atom.acquire.cta.exch)
    takes the lock, a weak increment of x, a release store (st.release.cta) frees it, all
    threads in one CTA (benches/rmw-loops/spinlock-ptx-3.litmus is N = 3)."""
    cols = [f"P{i}@cta 0,gpu 0" for i in range(n)]
    rows = [cols] + [[c] * n for c in [
        "LC00:", "atom.acquire.cta.exch r0, m, 1", "bne r0, 0, LC00", "ld.weak r1, x",
        "add r2, r1, 1", "st.weak x, r2", "st.release.cta m, 0"]]
    body = "".join(" " + " | ".join(r) + " ;\n" for r in rows)
    return f"PTX spinlock-ptx-{n}\n{{\nm=0; x=0;\n}}\n{body}forall (x == {n})\n"


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
        ("lock: ptx", [], ptx_spinlock),
        ("lock: ptx-v6.0", ["--model", "ptx-v6.0"], ptx_spinlock),
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


COLORS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
          "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"]


def panel(series, x0, title, xlabel, dashed):
    """One log-scale panel at horizontal offset x0: {label: [(size, seconds)]} -> SVG
    elements, the legend at its right (labels in the series' order)."""
    pw, h, m, top, right = 420, 520, 60, 50, 150
    pts = [p for s in series.values() for p in s if p[1] > 0]
    xmin = min(p[0] for p in pts)
    xmax = max(p[0] for p in pts)
    lo = math.floor(math.log10(min(p[1] for p in pts)))
    hi = max(math.ceil(math.log10(max(p[1] for p in pts))), lo + 1)
    left, bottom, plot_r = x0 + m, h - m, x0 + pw - right
    X = lambda x: left + (plot_r - left) * (x - xmin) / max(1, xmax - xmin)
    Y = lambda y: bottom - (bottom - top) * (math.log10(y) - lo) / (hi - lo)
    out = [f'<text x="{(left + plot_r) / 2:.1f}" y="{top - 20}" text-anchor="middle" font-weight="bold">{title}</text>',
           f'<line x1="{left}" y1="{bottom}" x2="{plot_r}" y2="{bottom}" stroke="black"/>',
           f'<line x1="{left}" y1="{top}" x2="{left}" y2="{bottom}" stroke="black"/>',
           f'<text x="{(left + plot_r) / 2:.1f}" y="{h - 20}" text-anchor="middle">{xlabel}</text>',
           f'<text x="{x0 + 15}" y="{(top + bottom) / 2:.1f}" transform="rotate(-90 {x0 + 15} {(top + bottom) / 2:.1f})" text-anchor="middle">median seconds (log scale)</text>']
    for e in range(lo, hi + 1):
        y = Y(10 ** e)
        out.append(f'<line x1="{left}" y1="{y:.1f}" x2="{plot_r}" y2="{y:.1f}" stroke="#ddd"/>')
        out.append(f'<text x="{left - 5}" y="{y + 4:.1f}" text-anchor="end">1e{e}</text>')
    for x in range(xmin, xmax + 1):
        out.append(f'<text x="{X(x):.1f}" y="{bottom + 15}" text-anchor="middle">{x}</text>')
    for i, (label, s) in enumerate(series.items()):
        c = COLORS[i % len(COLORS)]
        dash = ' stroke-dasharray="6,3"' if dashed(i) else ""
        s = [p for p in s if p[1] > 0]
        d = " ".join(f"{X(x):.1f},{Y(y):.1f}" for x, y in s)
        out.append(f'<polyline points="{d}" fill="none" stroke="{c}" stroke-width="2"{dash}/>')
        for x, y in s:
            out.append(f'<circle cx="{X(x):.1f}" cy="{Y(y):.1f}" r="3" fill="{c}"/>')
        ly = top + 18 * i
        out.append(f'<line x1="{plot_r + 12}" y1="{ly - 4}" x2="{plot_r + 32}" y2="{ly - 4}" stroke="{c}" stroke-width="2"{dash}/>')
        out.append(f'<text x="{plot_r + 36}" y="{ly}" fill="{c}">{label}</text>')
    return out


def svg_plot(series, path):
    """series: {label: [(size, seconds)]} -> two log-scale panels: the families (1
    thread) on the left, the spin lock's questions (labels `lock: ...`, 2 threads) on
    the right, each with its legend. Deterministic: a function of the numbers only."""
    fams = {k: v for k, v in series.items() if not k.startswith("lock:")}
    locks = {k[len("lock: "):]: v for k, v in series.items() if k.startswith("lock:")}
    w, h = 860, 520
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="12">',
           f'<rect width="{w}" height="{h}" fill="white"/>']
    out += panel(fams, 0, "families (gen FAMILY n), 1 thread", "size parameter n",
                 lambda i: i >= len(COLORS))
    out += panel(locks, 430, "spin lock (gen spinlock n), 2 threads", "invocations n",
                 lambda i: i >= len(COLORS))
    out.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


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
