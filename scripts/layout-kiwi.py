#!/usr/bin/env python3
"""The `layout` benchmark system on kiwisolver (PyPI kiwisolver 1.5.1, the C++ Cassowary
used by matplotlib), for `dynamics-bench layout --kiwi`.

    python3 scripts/layout-kiwi.py --views 100 [--edits 1000]

Builds the grid of LayoutGrid (Sources/DynamicsScenes/Scenes/LayoutGridScene.swift): N views
in floor(sqrt(N)) columns, W and H strong edit variables (1000, 800), widths and heights weak
40 and 30, equal widths in a row, the row's last view inside W. Times, with perf_counter
around the solver calls only: building and solving (every addConstraint / addEditVariable /
suggestValue and one updateVariables), then each of the edits (suggestValue(W = 1000 + k mod
200) + updateVariables; reading the values back in Python is not timed, only checked once).
Prints one JSON line: views, build_ms, edit_us (mean per edit), checksum (sum of all frame
values after the last edit). Needs `pip install kiwisolver==1.5.1`.
"""
import argparse
import json
import math
import sys
import time

try:
    import kiwisolver as kiwi
except ImportError:
    sys.stderr.write("layout-kiwi.py: kiwisolver is not installed (pip install kiwisolver==1.5.1)\n")
    sys.exit(3)


def run(n, edits):
    cols = max(1, int(math.isqrt(n)))
    W, H = kiwi.Variable("W"), kiwi.Variable("H")
    frames = [(kiwi.Variable(), kiwi.Variable(), kiwi.Variable(), kiwi.Variable()) for _ in range(n)]
    # Constraint objects are made before timing: kiwi builds them in Python, not in the solver.
    cons = []
    for i in range(n):
        r, c = divmod(i, cols)
        l, t, w, h = frames[i]
        cons += [w >= 0, h >= 0, (w == 40) | "weak", (h == 30) | "weak"]
        if c == 0:
            cons.append(l == 8)
        else:
            pl, pt, pw, ph = frames[i - 1]
            cons += [l == pl + pw + 8, w == pw]
        if c == cols - 1 or i == n - 1:
            cons.append(l + w + 8 <= W)
        if r == 0:
            cons.append(t == 8)
        else:
            al, at, aw, ah = frames[i - cols]
            cons.append(t == at + ah + 8)
    s = kiwi.Solver()
    t0 = time.perf_counter()
    s.addEditVariable(W, "strong")
    s.addEditVariable(H, "strong")
    s.suggestValue(W, 1000)
    s.suggestValue(H, 800)
    for k in cons:
        s.addConstraint(k)
    s.updateVariables()
    build = time.perf_counter() - t0
    total = 0.0
    for k in range(edits):
        t0 = time.perf_counter()
        s.suggestValue(W, 1000 + k % 200)
        s.updateVariables()
        total += time.perf_counter() - t0
    checksum = sum(v.value() for f in frames for v in f)
    return {"views": n, "build_ms": build * 1e3, "edit_us": total / max(1, edits) * 1e6, "checksum": checksum,
            "kiwisolver": getattr(kiwi, "__version__", "?")}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--views", type=int, required=True)
    ap.add_argument("--edits", type=int, default=1000)
    a = ap.parse_args()
    print(json.dumps(run(a.views, a.edits)))


if __name__ == "__main__":
    main()
