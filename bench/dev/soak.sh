#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# soak.sh: a sweep repeated in a loop for a fixed time, to catch leaks, crashes and hangs that a
# single run does not show. Each round is one `scanbench run` of a pool-size x policy x op sweep,
# alternating the measured (counters=none) and the cache-model (counters=sim) backends; while it
# runs, its resident set (VmRSS) is sampled from /proc every 2 s. Every round must exit 0 and
# write a report whose runs all validated. Prints one line per round (its highest sampled VmRSS
# and the report's peak_rss_bytes) and a summary: rounds, failures, and the peak RSS of the first
# and last round of each backend (the pool size varies within a round, so rounds are compared
# with rounds; leaks inside one process are valgrind's job: make check-valgrind).
# usage: bench/dev/soak.sh [SECONDS] [TABLE_SIZE] [OUT_DIR]   (default 1800 s, 64M; needs jq)
set -u
duration=${1:-1800}
table=${2:-64M}
here=$(dirname "$0")
scanbench="$here/../scanbench"
out=${3:-$(mktemp -d)}
mkdir -p "$out"
sweep="--set table_size=$table --set pool_size=64K,256K,1M,4M,16M,64M --set ring_size=64K
       --set policy=clock,ring,single --set op=count,vacuum --set kernel=memcpy,nt
       --set repetitions=3 --set warmup=1 --set run_timeout=300"

rss_kb() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status" 2>/dev/null; }

start=$(date +%s)
round=0
failures=0
peak=0
first_none=""
last_none=""
first_sim=""
last_sim=""
while [ $(($(date +%s) - start)) -lt "$duration" ]; do
    round=$((round + 1))
    if [ $((round % 2)) -eq 1 ]; then counters=none; else counters=sim; fi
    report="$out/round-$round.json"
    # shellcheck disable=SC2086
    "$scanbench" run -q $sweep --set counters=$counters -o "$report" >"$out/round-$round.log" 2>&1 &
    pid=$!
    round_peak=0
    while kill -0 "$pid" 2>/dev/null; do
        r=$(rss_kb "$pid")
        if [ -n "$r" ] && [ "$r" -gt "$round_peak" ]; then round_peak=$r; fi
        sleep 2
    done
    [ "$round_peak" -gt "$peak" ] && peak=$round_peak
    wait "$pid"
    rc=$?
    runs=$(jq '.runs | length' "$report" 2>/dev/null || echo 0)
    bad=$(jq '[.runs[] | select(.validation.ok != true)] | length' "$report" 2>/dev/null || echo "?")
    status=ok
    if [ "$rc" -ne 0 ] || [ "$runs" -ne 72 ] || [ "$bad" != 0 ]; then
        status=FAILED
        failures=$((failures + 1))
    fi
    report_peak=$(jq '.peak_rss_bytes / 1024 | floor' "$report" 2>/dev/null || echo "?")
    if [ "$counters" = none ]; then
        [ -z "$first_none" ] && first_none=$report_peak
        last_none=$report_peak
    else
        [ -z "$first_sim" ] && first_sim=$report_peak
        last_sim=$report_peak
    fi
    echo "round $round ($counters, $(($(date +%s) - start)) s): exit $rc, $runs runs, $bad not validated," \
         "VmRSS sampled up to $round_peak kB, peak_rss $report_peak kB: $status"
done
elapsed=$(($(date +%s) - start))
echo "soak: $round rounds in $elapsed s, $failures failed; peak RSS first/last round:" \
     "none $first_none/$last_none kB, sim ${first_sim:-?}/${last_sim:-?} kB; highest VmRSS sampled" \
     "$peak kB; reports in $out"
[ "$failures" -eq 0 ]
