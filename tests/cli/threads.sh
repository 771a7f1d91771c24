#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# threads.sh: concurrent scans end to end: two scanners with their own tables and rings, and two
# dividing one table in the shared pool: a record per scanner (its PU, core and the CPUs it ran
# on: its own PU when pinned), the aggregate MB/s, the shared pool's accounting, every page read
# once by the validation scan; and bad input: more threads than cores, or than the CPUs taskset
# leaves the process, without oversubscribe (with it, the run is made), counters with
# concurrent scans, a shared pool with a ring or too few buffers: exit 2, one line naming the
# input.
. "$top_srcdir/tests/lib.sh"
S=$SCANBENCH
SMALL="--set table_size=4M --set pool_size=1M --set ring_size=256K --set repetitions=2 --set op=count --set min_scan_ms=0"

command -v jq >/dev/null || { echo "jq is missing (Debian: jq)" >&2; exit 99; }
cores=$($S topo | awk '$1 == "cores" { print $2 }')

if [ "${cores:-1}" -ge 2 ] && [ "$(nproc)" -ge 2 ]; then # cores, and CPUs this test may use
    R="$SCRATCH/own.json"
    expect_status 0 "two scanners, own tables and rings" $S run $SMALL --set threads=2 --set policy=ring -o "$R"
    check "two records, own tables" jq -e '.runs[0].scanners.records | length == 2 and
        (map(.table) == [0, 1]) and all(.pages == [512, 512])' "$R"
    check "aggregate: both tables' bytes" jq -e '.runs[0].bytes_per_scan == 2 * 4194304 and
        .runs[0].validation.pages_read_once == 1024' "$R"
    check "pinned scanners: distinct PUs and cores, ran only there" jq -e '.runs[0].scanners.records |
        if all(.pinned) then (map(.pu) | unique | length == 2) and (map(.core) | unique | length == 2)
            and all(.cpus_seen == [.pu]) else all(.pinned | not) end' "$R"
    out_contains "2 scanners (own tables, own pools; MB/s of all together)"

    R="$SCRATCH/shared.json"
    expect_status 0 "two scanners, one table, shared pool" $S run $SMALL --set threads=2 \
        --set policy=clock --set shared_table=yes --set shared_pool=yes -o "$R"
    check "no page lost or read twice" jq -e '.runs[0] | .validation.pages_read_once == 512 and
        ([.scanners.records[].pages] | transpose | map(add) | all(. == 512))' "$R"
    check "one pin per page, none left" jq -e '.runs[0].scanners.shared_pool_accounting |
        .pins_in_timed_scans == .pages_in_timed_scans and .pages_in_timed_scans == 1024 and
        .buffers_left_pinned == 0' "$R"
    check "shared flags" jq -e '.runs[0] | .shared_table and .shared_pool and .threads == 2' "$R"
fi

over=$((${cores:-1} + 1))
expect_status 2 "more threads than cores" $S run $SMALL --set threads=$over
err_is_one_line_containing "--set threads=$over: threads: $over scanners but this host has ${cores:-1} cores"
# the CPUs this process may use (taskset -c N): each scanner needs one of its own, as the
# aggressor does (contention.sh); oversubscribe=yes runs them anyway, unpinned
if command -v taskset >/dev/null 2>&1; then
    cpu=$(taskset -pc $$ | sed 's/.*: *//; s/[^0-9].*//')
    expect_status 2 "more threads than the CPUs taskset gives" taskset -c "$cpu" $S run $SMALL \
        --set threads=2 -o "$SCRATCH/one.json"
    err_is_one_line_containing "--set threads=2: threads: 2 scanners but this process may use only CPU $cpu (sched_getaffinity: taskset or a cpuset); --set oversubscribe=yes runs them anyway"
    if [ -e "$SCRATCH/one.json" ]; then fail "a refused run left a report"; else pass; fi
fi
expect_status 0 "oversubscribed on request" $S run $SMALL --set threads=$over --set policy=ring \
    --set oversubscribe=yes -o "$SCRATCH/over.json"
check "a record per scanner" jq -e --argjson n "$over" '.runs[0].scanners.records | length == $n' "$SCRATCH/over.json"
# the pinning sentence says what the records say: no "bound" where a scanner was not
check "pinning as the records say" jq -e '.runs[0].scanners | (.records | all(.pinned)) ==
    (.pinning | startswith("each scanner bound"))' "$SCRATCH/over.json"

# issue 25 item 9: under a `ulimit -v` the memory check counts the scanners' stacks (and no
# thread makes a malloc arena of its own): from a limit too small to start at all up to one
# that runs, every run is refused up front (exit 2, one line) or made; none fails at a
# scanner's start (exit 1, "cannot start scanner")
if (ulimit -v 300000 && $S --version) >/dev/null 2>&1; then
    made=0
    for kb in $(seq 30000 5000 120000); do
        sh -c "ulimit -v $kb; exec $S run $SMALL --set threads=$over --set oversubscribe=yes \
            --set policy=ring --set warmup=0 -q" >"$SCRATCH/out" 2>"$SCRATCH/err"
        got=$?
        case $got in
        0) made=$((made + 1)) ;;
        126 | 127) ;; # too small for the program to load at all
        2) [ "$(wc -l <"$SCRATCH/err")" -eq 1 ] || fail "ulimit -v $kb: refused in more than one line: $(cat "$SCRATCH/err")" ;;
        *) fail "ulimit -v $kb: exit status $got: $(cat "$SCRATCH/err")" ;;
        esac
    done
    [ "$made" -gt 0 ] && pass || fail "no ulimit -v up to 120000KB let $over scanners run"
fi

expect_status 2 "counters with threads" $S run $SMALL --set threads=$over --set oversubscribe=yes --set counters=sim
err_is_one_line_containing "threads: counters=sim counts one scanner's own scan"
expect_status 2 "shared pool with a ring" $S run $SMALL --set shared_pool=yes --set policy=ring
err_is_one_line_containing "--set shared_pool=yes: shared_pool: the shared pool is clock-swept: policy ring"
expect_status 2 "shared pool too small" $S run $SMALL --set shared_pool=yes --set policy=clock \
    --set threads=$over --set oversubscribe=yes --set pool_size=16K
err_is_one_line_containing "--set pool_size=16K: pool_size: 2 buffers are too few to share among $over scanners"
expect_status 2 "threads out of range" $S run --set threads=0
err_is_one_line_containing 'threads: "0" is out of range (1 to 256)'
finish
