#!/bin/sh
# speed-check.sh: the speed goals as ratios measured in one session, alternating the engine and
# the baseline so that drift in the machine's speed hits both alike.
#   1. engine overhead: `scanbench run` with op=none, kernel=memcpy, policy=ring against
#      bare-copy (a hand-written memcpy loop into the same ring): time ratio engine / bare.
#   2. the best kernel: every kernel this CPU runs, ring placement, op none, against bare-copy.
# usage: bench/dev/speed-check.sh [ROUNDS] [TABLE_SIZE] [RING_SIZE]   (needs jq; prints figures)
set -eu
rounds=${1:-9}
table=${2:-512M}
ring=${3:-256K}
here=$(dirname "$0")
scanbench="$here/../scanbench"
bare="$here/bare-copy"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
common="--set table_size=$table --set pool_size=16M --set ring_size=$ring --set policy=ring
        --set op=none --set repetitions=5 --set warmup=1 --set min_scan_ms=0"

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

for r in $(seq "$rounds"); do
    bare_mbps=$("$bare" "$table" "$ring" 5 | awk '/median/ { print $(NF - 1) }')
    # shellcheck disable=SC2086
    "$scanbench" run -q $common --set kernel=all -o "$tmp/k$r.json" >/dev/null
    jq -r --argjson bare "$bare_mbps" '.runs[] | "\(.kernel) \(.mbps.median / $bare)"' \
        "$tmp/k$r.json" >>"$tmp/ratios"
    echo "round $r: bare-copy $bare_mbps MB/s; $(jq -r '[.runs[] | "\(.kernel) \(.mbps.median | floor)"] | join(", ")' "$tmp/k$r.json") MB/s" >&2
done
echo "table $table, ring $ring, op none; $rounds rounds, each 5 timed scans after a warm-up"
echo "kernel   median of (engine MB/s / bare-copy MB/s)   [engine time / bare time]"
for k in $(awk '{ print $1 }' "$tmp/ratios" | sort -u); do
    m=$(awk -v k="$k" '$1 == k { print $2 }' "$tmp/ratios" | median)
    printf '%-8s %.3f   [%.3f]\n' "$k" "$m" "$(echo "$m" | awk '{ print 1 / $1 }')"
done
