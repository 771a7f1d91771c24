#!/bin/sh
# callgrind.sh: the live 8.1.21 backend and the pg81 executor under callgrind with this host's
# caches (L1i 32KB 8-way, L1d 48KB 12-way, 1MB 16-way L2 as the last level) and its branch
# simulation: per 8KB page, Ir, data reads and writes, I1/D1 and last-level misses, conditional
# and indirect branches with their mispredictions. Drift-free: counts, not times.
#   live: callgrind-live-setup.sh's cluster (the 145MB table of scanbench pg, 18172 pages),
#   single-user backend with 16MB of shared_buffers (2048), 1 and 3 statements on stdin;
#   per page = (3 - 1) / (2 x 18172).
#   emulated: callgrind-emulated.c, each of 16384 pages (55 rows, 10% dead, hinted) pread()
#   into the next buffer of a 16MB pool and the pass run with 8.1's buffer structures at 2048
#   buffers, the pass alone collected; per page = (3 passes - 1) / (2 x 16384).
# The kernel's copy (read, pread) is not simulated on either side.
# usage: callgrind.sh SCANBENCH_BUILD_DIR (after callgrind-live-setup.sh and pg_ctl stop)
set -eu
W=${1:?the scanbench build directory}
D=${D:-/tmp/pg81-callgrind}
T=${T:-/tmp/pg81-callgrind-em}
CG="valgrind --tool=callgrind --cache-sim=yes --branch-sim=yes --I1=32768,8,64 --D1=49152,12,64 --LL=1048576,16,64"
mkdir -p "$T"
gcc -O2 -I"$W" -I"$W/lib" "$(dirname "$0")/callgrind-emulated.c" "$W/lib/vocab/libvocab.a" \
    "$W/lib/core/libcore.a" -o "$T/em" -lm
"$T/em" "$T/em.tbl" count 0
for op in count vacuum; do
    if [ $op = count ]; then q="SELECT count(*) FROM lineitem;"; else q="VACUUM lineitem;"; fi
    for n in 1 3; do
        yes "$q" | head -n $n > "$T/$op-$n.in"
        chmod 644 "$T/$op-$n.in"
        su postgres -c "$CG --callgrind-out-file=$T/live-$op-$n.out /opt/pg81/bin/postgres \
            -D $D/data -c shared_buffers=2048 template1 < $T/$op-$n.in" > "$T/live-$op-$n.log" 2>&1
        $CG --collect-atstart=no --toggle-collect=measured --callgrind-out-file="$T/em-$op-$n.out" \
            "$T/em" "$T/em.tbl" $op $n > "$T/em-$op-$n.log" 2>&1
    done
done
python3 - "$T" <<'PY'
import sys
t = sys.argv[1]
ev = "Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw Bc Bcm Bi Bim".split()
def summary(f):
    for line in open(f):
        if line.startswith("summary:"):
            return [int(x) for x in line.split()[1:]]
for op in ("count", "vacuum"):
    print(op, "per page")
    print("%-6s" % "", " ".join("%9s" % e for e in ev))
    for side, pages in (("live", 18172), ("em", 16384)):
        a, b = summary(f"{t}/{side}-{op}-1.out"), summary(f"{t}/{side}-{op}-3.out")
        print("%-6s" % ("pg81" if side == "em" else side),
              " ".join("%9.1f" % ((y - x) / (2 * pages)) for x, y in zip(a, b)))
PY
