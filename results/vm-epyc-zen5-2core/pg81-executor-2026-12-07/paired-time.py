#!/usr/bin/env python3
"""paired-time.py: the per-page CPU cost of 8.1's work, live and emulated, pair by pair from
paired-time.sh's reports. A page's CPU cost is its time less the minimal executor's in the same
pair (the same pread() copy of the page, nothing done on it): live ns a page (its real 8.1
pages) less minimal's, against pg81's less minimal's; the ratio emulated / live per pair, its
median and range over the pairs."""
import glob, gzip, json, os, statistics, sys

d = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "paired-time")

def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path) as f:
        return json.load(f)

def ns_per_page(run):
    return 8192 * 1000.0 / run["mbps"]["median"]

rows = {"count": [], "vacuum": []}
pairs = sorted(int(p.split("-")[-1].split(".")[0]) for p in glob.glob(os.path.join(d, "live-*.json")))
for i in pairs:
    emu_path = [p for p in glob.glob(os.path.join(d, f"emulated-{i}.json*"))]
    if not emu_path:
        continue
    live, emu = load(os.path.join(d, f"live-{i}.json")), load(emu_path[0])
    for op in rows:
        lv = ns_per_page(next(r for r in live["runs"] if r["op"] == op))
        pg = ns_per_page(next(r for r in emu["runs"] if r["op"] == op and r["executor"] == "pg81"))
        mn = ns_per_page(next(r for r in emu["runs"] if r["op"] == op and r["executor"] == "minimal"))
        rows[op].append((i, lv, pg, mn, lv - mn, pg - mn, (pg - mn) / (lv - mn)))

print("ns a page (8KB), median of each report's timed scans; CPU = the run's less minimal's")
print("pair op      live   pg81 minimal live CPU pg81 CPU  pg81/live")
for op, rs in rows.items():
    for i, lv, pg, mn, lc, pc, ratio in rs:
        print(f"{i:4d} {op:6s} {lv:6.0f} {pg:6.0f} {mn:7.0f} {lc:8.0f} {pc:8.0f} {ratio:9.2f}")
for op, rs in rows.items():
    if rs:
        ratios = [r[-1] for r in rs]
        print(f"{op}: pg81's CPU a page / live's: median {statistics.median(ratios):.2f}, "
              f"range {min(ratios):.2f} to {max(ratios):.2f} over {len(rs)} pairs")
