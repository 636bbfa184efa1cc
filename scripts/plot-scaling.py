#!/usr/bin/env python3
"""Draws a scaling plot (SVG, no dependencies) from a dynamics-bench result file: one row per
scene; left, steps/s against bodies (log-log); right, nanoseconds per body and step against
bodies (log-x); one line per worker count.

usage: scripts/plot-scaling.py RESULTS.json OUT.svg [TITLE]
"""
import json, math, sys

COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e"]


def load(path):
    data = json.load(open(path))
    rows = data["results"] if isinstance(data, dict) else data
    return [(r["scene"], r.get("bodies", r["items"]), r["threads"], r["steps_per_second"]) for r in rows]


def panel(svg, x0, y0, w, h, series, ylabel, logy):
    """series: {threads: [(bodies, value)]}; log-x always."""
    xs = [b for pts in series.values() for b, _ in pts]
    ys = [v for pts in series.values() for _, v in pts if v > 0]
    if not xs or not ys:
        return
    lx0, lx1 = math.log10(min(xs)) - 0.15, math.log10(max(xs)) + 0.15
    if logy:
        ly0, ly1 = math.log10(min(ys) * 0.8), math.log10(max(ys) * 1.25)
        fy = lambda v: y0 + h - (math.log10(v) - ly0) / (ly1 - ly0) * h
        ticks = [10 ** k for k in range(math.floor(ly0), math.ceil(ly1) + 1) if ly0 <= k <= ly1]
    else:
        top = max(ys) * 1.15
        fy = lambda v: y0 + h - v / top * h
        step = 10 ** math.floor(math.log10(top / 4))
        for m in (1, 2, 5, 10):
            if top / (step * m) <= 6:
                step *= m
                break
        ticks = [k * step for k in range(0, int(top / step) + 1)]
    fx = lambda b: x0 + (math.log10(b) - lx0) / (lx1 - lx0) * w
    svg.append(f'<line x1="{x0}" y1="{y0}" x2="{x0}" y2="{y0+h}" stroke="black"/>')
    svg.append(f'<line x1="{x0}" y1="{y0+h}" x2="{x0+w}" y2="{y0+h}" stroke="black"/>')
    for t in ticks:
        y = fy(t)
        label = f"{t:g}" if t < 1e5 else f"{t:.0e}"
        svg.append(f'<line x1="{x0-4}" y1="{y:.1f}" x2="{x0+w}" y2="{y:.1f}" stroke="#ddd"/>')
        svg.append(f'<text x="{x0-7}" y="{y+4:.1f}" text-anchor="end">{label}</text>')
    for k in range(math.ceil(lx0), math.floor(lx1) + 1):
        x = fx(10 ** k)
        svg.append(f'<line x1="{x:.1f}" y1="{y0+h}" x2="{x:.1f}" y2="{y0+h+4}" stroke="black"/>')
        svg.append(f'<text x="{x:.1f}" y="{y0+h+17}" text-anchor="middle">{10**k:,}</text>')
    svg.append(f'<text x="{x0+w/2}" y="{y0+h+33}" text-anchor="middle">bodies</text>')
    svg.append(f'<text x="{x0-45}" y="{y0+h/2}" text-anchor="middle" transform="rotate(-90 {x0-45} {y0+h/2})">{ylabel}</text>')
    for i, (t, pts) in enumerate(sorted(series.items())):
        pts = sorted(pts)
        c = COLORS[i % len(COLORS)]
        path = " ".join(f"{fx(b):.1f},{fy(v):.1f}" for b, v in pts if v > 0)
        svg.append(f'<polyline points="{path}" fill="none" stroke="{c}" stroke-width="2"/>')
        for b, v in pts:
            if v > 0:
                svg.append(f'<circle cx="{fx(b):.1f}" cy="{fy(v):.1f}" r="3" fill="{c}"/>')
        svg.append(f'<text x="{x0+w-70}" y="{y0+14+16*i}" fill="{c}">{t} worker{"s" if t > 1 else ""}</text>')


def main():
    src, out = sys.argv[1], sys.argv[2]
    title = sys.argv[3] if len(sys.argv) > 3 else src
    rows = load(src)
    scenes = []
    for r in rows:
        if r[0] not in scenes:
            scenes.append(r[0])
    W, rowH, pad, top = 900, 300, 80, 40
    pw = (W - 3 * pad) / 2
    ph = rowH - 90
    H = top + rowH * len(scenes)
    svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" font-size="12">',
           f'<rect width="{W}" height="{H}" fill="white"/>',
           f'<text x="{W/2}" y="24" text-anchor="middle" font-size="15">{title}</text>']
    for si, scene in enumerate(scenes):
        y0 = top + si * rowH + 30
        rate, per_body = {}, {}
        for s, bodies, threads, sps in rows:
            if s != scene:
                continue
            rate.setdefault(threads, []).append((bodies, sps))
            per_body.setdefault(threads, []).append((bodies, 1e9 / (sps * bodies) if sps > 0 else 0))
        svg.append(f'<text x="{pad}" y="{y0-12}" font-size="14" font-weight="bold">{scene}</text>')
        panel(svg, pad, y0, pw, ph, rate, "steps/s", True)
        panel(svg, 2 * pad + pw, y0, pw, ph, per_body, "ns per body and step", False)
    svg.append("</svg>")
    open(out, "w").write("\n".join(svg))


if __name__ == "__main__":
    main()
