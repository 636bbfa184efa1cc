#!/usr/bin/env python3
"""Draws a scaling plot (SVG, no dependencies) from a dynamics-bench result file:
left, steps/s against item count (one line per worker count, log-log); right, steps/s
against workers (one line per item count).

usage: scripts/plot-scaling.py RESULTS.json OUT.svg [TITLE]
"""
import json, math, sys

def load(path):
    data = json.load(open(path))
    rows = data["results"] if isinstance(data, dict) else data
    return [(r["scene"], r["items"], r["threads"], r["steps_per_second"]) for r in rows]

def main():
    src, out = sys.argv[1], sys.argv[2]
    title = sys.argv[3] if len(sys.argv) > 3 else src
    rows = load(src)
    items = sorted({r[1] for r in rows}); threads = sorted({r[2] for r in rows})
    rate = {(r[1], r[2]): r[3] for r in rows}
    W, H, pad = 900, 380, 60
    pw = (W - 3 * pad) / 2; ph = H - 2 * pad
    colors = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e"]
    lo = min(rate.values()); hi = max(rate.values())
    ly = lambda v: pad + ph - (math.log10(v) - math.log10(lo * 0.8)) / (math.log10(hi * 1.25) - math.log10(lo * 0.8)) * ph
    svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" font-size="12">',
           f'<rect width="{W}" height="{H}" fill="white"/>',
           f'<text x="{W/2}" y="22" text-anchor="middle" font-size="15">{title}</text>']
    def axes(x0, label):
        svg.append(f'<line x1="{x0}" y1="{pad}" x2="{x0}" y2="{pad+ph}" stroke="black"/>')
        svg.append(f'<line x1="{x0}" y1="{pad+ph}" x2="{x0+pw}" y2="{pad+ph}" stroke="black"/>')
        svg.append(f'<text x="{x0+pw/2}" y="{H-15}" text-anchor="middle">{label}</text>')
        for k in range(int(math.floor(math.log10(lo * 0.8))), int(math.ceil(math.log10(hi * 1.25))) + 1):
            for m in (1, 2, 5):
                v = m * 10 ** k
                if lo * 0.8 <= v <= hi * 1.25:
                    y = ly(v)
                    svg.append(f'<line x1="{x0-4}" y1="{y:.1f}" x2="{x0+pw}" y2="{y:.1f}" stroke="#ddd"/>')
                    svg.append(f'<text x="{x0-6}" y="{y+4:.1f}" text-anchor="end">{v:g}</text>')
        svg.append(f'<text x="{x0-45}" y="{pad+ph/2}" transform="rotate(-90 {x0-45} {pad+ph/2})" text-anchor="middle">steps/s</text>')
    # Left: against items (log x).
    x0 = pad
    axes(x0, "items (log scale)")
    lx = lambda n: x0 + (math.log10(n) - math.log10(items[0] * 0.8)) / (math.log10(items[-1] * 1.25) - math.log10(items[0] * 0.8)) * pw
    for n in items:
        svg.append(f'<text x="{lx(n):.1f}" y="{pad+ph+16}" text-anchor="middle">{n}</text>')
    for i, t in enumerate(threads):
        pts = [(lx(n), ly(rate[(n, t)])) for n in items if (n, t) in rate]
        c = colors[i % len(colors)]
        svg.append('<polyline fill="none" stroke="%s" stroke-width="2" points="%s"/>' % (c, " ".join(f"{x:.1f},{y:.1f}" for x, y in pts)))
        for x, y in pts: svg.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3.5" fill="{c}"/>')
        svg.append(f'<text x="{x0+pw-90}" y="{pad+15+16*i}" fill="{c}">{t} worker{"s" if t > 1 else ""}</text>')
    # Right: against workers.
    x0 = 2 * pad + pw
    axes(x0, "workers")
    tx = lambda t: x0 + (t - threads[0] + 0.5) / (threads[-1] - threads[0] + 1) * pw
    for t in threads: svg.append(f'<text x="{tx(t):.1f}" y="{pad+ph+16}" text-anchor="middle">{t}</text>')
    for i, n in enumerate(items):
        pts = [(tx(t), ly(rate[(n, t)])) for t in threads if (n, t) in rate]
        c = colors[i % len(colors)]
        svg.append('<polyline fill="none" stroke="%s" stroke-width="2" points="%s"/>' % (c, " ".join(f"{x:.1f},{y:.1f}" for x, y in pts)))
        for x, y in pts: svg.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3.5" fill="{c}"/>')
        svg.append(f'<text x="{x0+12}" y="{pad+12+16*i}" fill="{c}">{n} items</text>')
    svg.append("</svg>")
    open(out, "w").write("\n".join(svg) + "\n")

if __name__ == "__main__":
    main()
