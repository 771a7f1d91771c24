#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# speed-check.sh: the speed goals as ratios measured in one session, alternating the engine and
# the baseline round by round so that drift in the machine's speed hits both alike; each ratio
# is the median over the rounds of that round's ratio, with its distribution-free 95% interval
# (order statistics of the rounds' ratios), so that two sessions' figures can be compared.
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

# The median and its distribution-free 95% interval [x(k), x(n + 1 - k)]: k the largest with
# P(Binomial(n, 1/2) < k) <= 0.025 (at least 1: with fewer than 6 rounds it is the range).
median_interval() {
    sort -g | awk '{ v[NR] = $1 }
    END {
        n = NR; m = (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
        k = 1; cdf = 0; p = 0.5 ^ n; c = 1
        for (j = 0; j < n; j++) {          # cdf = P(X <= j)
            cdf += c * p; c = c * (n - j) / (j + 1)
            if (cdf <= 0.025) k = j + 1; else break
        }
        if (k > (n + 1) / 2) k = 1
        printf "%.3f %.3f %.3f\n", m, v[k], v[n + 1 - k]
    }'
}

for r in $(seq "$rounds"); do
    bare_mbps=$("$bare" "$table" "$ring" 5 | awk '/median/ { print $(NF - 1) }')
    # shellcheck disable=SC2086
    "$scanbench" run -q $common --set kernel=all -o "$tmp/k$r.json" >/dev/null
    jq -r --argjson bare "$bare_mbps" '.runs[] | "\(.kernel) \(.mbps.median / $bare)"' \
        "$tmp/k$r.json" >>"$tmp/ratios"
    echo "round $r: bare-copy $bare_mbps MB/s; $(jq -r '[.runs[] | "\(.kernel) \(.mbps.median | floor)"] | join(", ")' "$tmp/k$r.json") MB/s" >&2
done
echo "table $table, ring $ring, op none; $rounds rounds, each 5 timed scans after a warm-up"
echo "kernel   median of (engine MB/s / bare-copy MB/s) over the rounds [its 95% interval]   engine time / bare time"
for k in $(awk '{ print $1 }' "$tmp/ratios" | sort -u); do
    awk -v k="$k" '$1 == k { print $2 }' "$tmp/ratios" | median_interval |
        awk -v k="$k" '{ printf "%-8s %.3f [%.3f, %.3f]   %.3f\n", k, $1, $2, $3, 1 / $1 }'
done
