#!/usr/bin/env python3
"""cpu-per-page.py: cpu-per-page.sh's lines summed up: each side's time a page (elapsed, user,
system) per pair, and pg81's over the live server's. Live: its statements after the session's
first COUNT(*) (which also loads the session's catalogs), 18172 pages each; emulated: 5 passes
of 16384 pages."""
import collections, statistics, sys

path = sys.argv[1] if len(sys.argv) > 1 else "cpu-per-page.txt"
live, emu = collections.defaultdict(list), {}
seen = set()
for line in open(path):
    side, op, pair, el, us, sy = line.split()
    pair = int(pair)
    if side == "live":
        if op == "count" and (pair, op) not in seen:
            seen.add((pair, op))
            continue
        live[(op, pair)].append([float(el) / 18172e-6, float(us) / 18172e-6, float(sy) / 18172e-6])
    else:
        emu[(op, pair)] = [float(x) / (5 * 16384e-6) for x in (el, us, sy)]
print("us a page: elapsed, user, system (live: the median of its statements in the pair)")
print("pair op      live el  user   sys |  pg81 el  user   sys | pg81/live el  user+sys")
ratios = collections.defaultdict(list)
for (op, pair) in sorted(emu, key=lambda k: (k[0], k[1])):
    lv = [statistics.median(x[i] for x in live[(op, pair)]) for i in range(3)]
    em = emu[(op, pair)]
    r_el, r_cpu = em[0] / lv[0], (em[1] + em[2]) / (lv[1] + lv[2])
    ratios[op].append((r_el, r_cpu))
    print(f"{pair:4d} {op:6s} {lv[0]:7.2f} {lv[1]:5.2f} {lv[2]:5.2f} | {em[0]:7.2f} {em[1]:5.2f} "
          f"{em[2]:5.2f} | {r_el:11.2f} {r_cpu:9.2f}")
for op, rs in ratios.items():
    el = [r[0] for r in rs]
    cpu = [r[1] for r in rs]
    print(f"{op}: pg81 / live, elapsed: median {statistics.median(el):.2f} "
          f"({min(el):.2f}-{max(el):.2f}); user+system: median {statistics.median(cpu):.2f} "
          f"({min(cpu):.2f}-{max(cpu):.2f}), over {len(rs)} pairs")
