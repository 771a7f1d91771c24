#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# stress.sh: nothing lost under stress, rerunnable after any change (issue 25's driver). From
# the top of a built tree, as root (it mounts a 64KB tmpfs):
#
#     bench/dev/stress.sh [SECONDS]      # SECONDS: the longest a case may take (default 120)
#
# 1. A full disk at each command's write: run, reproduce, pg (when PostgreSQL is built), plot,
#    probe and compare (its stdout into a file on the full disk). Each must end with exit 1, its
#    last stderr line saying where the result was kept (a file that exists and parses) or what
#    was lost, print its tables on stdout where it prints any, and leave no temporary file.
# 2. Each stop signal (INT, TERM, HUP, QUIT) in each phase of run, reproduce and pg: the table
#    build, the rounds, the report's write (the test pauses of lib/core/stop.h, and the first
#    round's progress line). Each must end with 128 + the signal (at the report's write, where
#    the work is done: 0, as the man page says), keep a report that parses, and leave no
#    temporary file, no scanbench process and no server behind.
# Prints one line per case (ok or FAIL and why) and the counts. Exit 1 when a case failed.
set -u
set -m # background jobs keep SIGINT and SIGQUIT (a script's ignore them, and so would scanbench)
S=${SCANBENCH:-bench/scanbench}
LIMIT=${1:-120}
TOP=$(pwd)
W=$(mktemp -d "${TMPDIR:-/tmp}/scanbench-stress.XXXXXX") || exit 99
FULL="$W/full"
KEEP="$W/keep"
cases=0 failed=0
SMALL=(--set table_size=2M --set pool_size=256K --set ring_size=64K --set repetitions=40
       --set warmup=0 --set min_scan_ms=20)
REPRO=(tom-lane-xeon --quick --set table_size=4M --set counters=none --set repetitions=20)

cleanup() { umount "$FULL" 2>/dev/null; rm -rf "$W"; }
trap cleanup EXIT
[ -x "$S" ] || { echo "stress.sh: $S is not built" >&2; exit 99; }
command -v jq >/dev/null || { echo "stress.sh: needs jq" >&2; exit 99; }
mkdir -p "$FULL" "$KEEP"
chmod 755 "$W"; chmod 1777 "$KEEP" # pg's server runs as its own user (SCANBENCH_PG_USER)
[ "$(id -u)" -eq 0 ] && mount -t tmpfs -o size=64k tmpfs "$FULL" ||
    { echo "stress.sh: needs root to mount a tmpfs" >&2; exit 77; }

verdict() { # verdict NAME WHY...: WHY empty: ok
    cases=$((cases + 1))
    if [ -z "$2" ]; then echo "ok    $1"; else failed=$((failed + 1)); echo "FAIL  $1: $2"; fi
}

fill() { rm -rf "${FULL:?}"/*; dd if=/dev/zero of="$FULL/fill" bs=4k count=64 2>/dev/null; }

# PostgreSQL built for scanbench pg (tools/build-postgres): one short server run says
pg_ok=false
"$S" pg --set table_size=1M --set repetitions=1 --set warmup=0 -q >/dev/null 2>&1 && pg_ok=true
pg_built() { $pg_ok; }

# bounded CMD...: runs CMD in the background (its pid in $pid), killed after $LIMIT seconds
bounded() {
    "$@" &
    pid=$!
    ( sleep "$LIMIT"; kill -9 $pid 2>/dev/null ) &
    guard=$!
}

# --- 1. a full disk at each write -----------------------------------------------------------
# full_case NAME PRINTS COMMAND...: COMMAND writes onto $FULL (TMPDIR $KEEP)
full_case() {
    local name=$1 prints=$2 why="" status last kept; shift 2
    fill; rm -rf "${KEEP:?}"/*
    TMPDIR="$KEEP" bounded "$@" >"$W/out" 2>"$W/err"
    wait $pid
    status=$?
    kill $guard 2>/dev/null
    last=$(tail -1 "$W/err")
    [ "$status" -eq 1 ] || why="exit $status, want 1 ($last)"
    [ "$prints" = no ] || [ -s "$W/out" ] || why="$why; stdout empty"
    kept=$(printf '%s\n' "$last" | sed -n 's/.*kept \(as\|in\) \([^ ;]*\).*/\2/p' | head -1)
    if [ -n "$kept" ]; then
        [ -e "$kept" ] || why="$why; $kept named but absent"
        for f in $(find "$kept" -name '*.json' 2>/dev/null); do
            jq -e . "$f" >/dev/null 2>&1 || why="$why; $f does not parse"
        done
    elif ! printf '%s' "$last" | grep -qE 'lost|No space|cannot write|incomplete image'; then
        why="$why; the last line says neither where nor what was lost: $last"
    fi
    [ -z "$(find "$FULL" "$KEEP" -name '*.tmp.*' 2>/dev/null)" ] || why="$why; temporary files left"
    verdict "full disk: $name" "${why#; }"
}

full_case "run -o" yes "$S" run "${SMALL[@]}" --set repetitions=2 -o "$FULL/r.json"
full_case "reproduce -o" yes "$S" reproduce "${REPRO[@]}" --set repetitions=2 -o "$FULL/rep"
command -v gnuplot >/dev/null &&
    full_case "plot -o" no "$S" plot "$TOP/tests/data/report-a.json" -o "$FULL/p.png"
full_case "probe -o" no "$S" probe --quick -o "$FULL/m.ini"
full_case "compare > full" no sh -c "exec '$S' compare '$TOP/tests/data/report-a.json' \
    '$TOP/tests/data/report-b.json' >'$FULL/c.txt'"
pg_built && full_case "pg -o" yes "$S" pg "${SMALL[@]}" --set repetitions=2 -o "$FULL/pg.json"
umount "$FULL"

# --- 2. each stop signal in each phase --------------------------------------------------------
# signal_case CMD PHASE SIG COMMAND...: COMMAND writes $W/s/...; PHASE is a test pause's moment
# or "rounds" (the first round's line); SIG is sent there
signal_case() {
    local cmd=$1 phase=$2 sig=$3 why="" status want f i; shift 3
    rm -rf "$W/s"; mkdir "$W/s"; chmod 1777 "$W/s"
    : >"$W/err"
    if [ "$phase" = rounds ]; then
        TMPDIR="$W/s" bounded "$@" >"$W/out" 2>"$W/err"
    else
        SCANBENCH_TEST_PAUSE="$phase:60" TMPDIR="$W/s" bounded "$@" >"$W/out" 2>"$W/err"
    fi
    for i in $(seq 1 1200); do
        if [ "$phase" = rounds ]; then
            # run's progress line; reproduce runs quietly: a second into its first experiment
            grep -q 'round 1/\|round 1 done' "$W/err" && break
            grep -q 'experiment 1/' "$W/err" && sleep 1 && break
        else grep -q "test pause: $phase" "$W/err" && break; fi
        kill -0 $pid 2>/dev/null || break
        sleep 0.05
    done
    kill -"$sig" $pid 2>/dev/null
    wait $pid
    status=$?
    kill $guard 2>/dev/null
    want=$((128 + $(kill -l "$sig")))
    if ! grep -q "test pause: $phase\|round 1\|experiment 1/" "$W/err"; then
        why="the phase never came (exit $status)"
    elif [ "$phase" = write ]; then
        # the work is done before its report is written: the signal changes nothing (exit 0,
        # the report complete), or, where it came first, stops it as anywhere else
        [ "$status" -eq 0 ] || [ "$status" -eq "$want" ] ||
            why="exit $status, want 0 or $want ($(tail -1 "$W/err"))"
    else
        [ "$status" -eq "$want" ] || why="exit $status, want $want ($(tail -1 "$W/err"))"
    fi
    for f in $(find "$W/s" -name '*.json' 2>/dev/null); do
        jq -e . "$f" >/dev/null 2>&1 || why="$why; $f does not parse"
    done
    [ -z "$(find "$W/s" -name '*.tmp.*')" ] || why="$why; temporary files left"
    pgrep -f "$W/s" >/dev/null && why="$why; a process left behind" && pkill -9 -f "$W/s"
    verdict "$sig during $cmd's $phase" "${why#; }"
}

for sig in INT TERM HUP QUIT; do
    for phase in build rounds write; do
        signal_case run "$phase" "$sig" "$S" run "${SMALL[@]}" -o "$W/s/r.json"
        signal_case reproduce "$phase" "$sig" "$S" reproduce "${REPRO[@]}" \
            --set repetitions=200 -o "$W/s/rep"
    done
    if pg_built; then
        for phase in load write; do
            signal_case pg "$phase" "$sig" "$S" pg "${SMALL[@]}" -o "$W/s/pg.json"
        done
    fi
done

echo "stress.sh: $cases cases, $((cases - failed)) ok, $failed failed"
[ "$failed" -eq 0 ]
