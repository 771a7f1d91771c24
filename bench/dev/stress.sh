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
#    temporary file, no scanbench process and no server behind. The other stop signals (USR1,
#    USR2, XCPU, VTALRM, PROF, PWR) in the rounds of run and reproduce, the same way.
# 3. Links planted at random moments in the output: every name run, reproduce and power write
#    (the report, its CSV, reproduction.txt, trials.jsonl, power.json, power.txt), each a link to
#    a victim file, planted 0 to 3 s into the command inside the directory it made (umask 000).
#    The victim must be untouched; the command ends 0, or 1 with one line naming a file.
# 4. Server and plot programs that hang: a postgres whose --version sleeps, one that prints a
#    version and leaves a child holding its stdout (read at once, the child ended), an initdb
#    and a pg_ctl that hang, a gnuplot that hangs (SCANBENCH_PG_TIMEOUT and
#    SCANBENCH_PLOT_TIMEOUT at 3 s); then the same interrupted by TERM. Each must end at its
#    limit (exit 1, "still running after 3 s") or at the signal (128 + it, "interrupted"), and
#    leave no program, no scanbench-pg.* directory and no temporary file behind.
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

for sig in USR1 USR2 XCPU VTALRM PROF PWR; do
    signal_case run rounds "$sig" "$S" run "${SMALL[@]}" -o "$W/s/r.json"
    signal_case reproduce rounds "$sig" "$S" reproduce "${REPRO[@]}" --set repetitions=200 \
        -o "$W/s/rep"
done

# --- 3. links planted at random moments in the output -----------------------------------------
# link_case NAME DIR NAMES COMMAND...: COMMAND writes DIR (a directory it makes, or "-" for the
# files NAMES in $W/l itself); links to $W/victim are planted as each of NAMES, at a random moment
link_case() {
    local name=$1 dir=$2 names=$3 why="" status n t before; shift 3
    rm -rf "$W/l"; mkdir "$W/l"; chmod 1777 "$W/l"
    printf 'victim\n' >"$W/victim"; before=$(cksum <"$W/victim")
    t=$(awk -v r="$RANDOM" 'BEGIN { printf "%.2f", r % 300 / 100 }')
    (umask 000; exec "$@") >"$W/out" 2>"$W/err" &
    pid=$!
    ( sleep "$LIMIT"; kill -9 $pid 2>/dev/null ) &
    guard=$!
    sleep "$t"
    [ "$dir" = - ] && dir="$W/l"
    for n in $names; do ln -s "$W/victim" "$dir/$n" 2>/dev/null; done
    wait $pid
    status=$?
    kill $guard 2>/dev/null
    [ "$(cksum <"$W/victim")" = "$before" ] || why="the victim was written through a link"
    case $status in
    0) ;;
    1) [ "$(wc -l <"$W/err" | tr -d ' ')" -ge 1 ] && tail -1 "$W/err" | grep -q '/' ||
           why="$why; exit 1 without a line naming a file" ;;
    *) why="$why; exit $status ($(tail -1 "$W/err"))" ;;
    esac
    [ -z "$(find "$W/l" -name '*.tmp.*' 2>/dev/null)" ] || why="$why; temporary files left"
    verdict "link planted at ${t}s: $name" "${why#; }"
}

for i in 1 2 3 4; do
    link_case "run -o" - "r.json r.csv" "$S" run "${SMALL[@]}" -o "$W/l/r.json"
    link_case "reproduce -o" "$W/l/rep" "reproduction.txt tom-lane-xeon.json tom-lane-xeon.csv" \
        "$S" reproduce "${REPRO[@]}" --set repetitions=10 -o "$W/l/rep"
    link_case "power -o" "$W/l/pw" "trials.jsonl power.json power.txt" \
        "$S" power --quick --trials 1 --set table_size=2M --set time_budget=2 -o "$W/l/pw"
done

# --- 4. child programs that hang --------------------------------------------------------------
# hang_case NAME SIG COMMAND...: COMMAND runs programs of $W/h (a fake server's bindir or a fake
# gnuplot on PATH) that hang; SIG "-": it must end by its own limit; else SIG is sent after 2 s
# (SIG "quick": nothing hangs that scanbench waits for; it must end within 10 s, exit 1)
hang_case() {
    local name=$1 sig=$2 why="" status t0 t1; shift 2
    rm -rf "$W/t"; mkdir "$W/t"; chmod 1777 "$W/t"
    t0=$(date +%s)
    TMPDIR="$W/t" PATH="$W/h:$PATH" SCANBENCH_PG_BINDIR="$W/h" SCANBENCH_PG_TIMEOUT=3 \
        SCANBENCH_PLOT_TIMEOUT=3 bounded "$@" >"$W/out" 2>"$W/err"
    [ "$sig" = - ] || [ "$sig" = quick ] || { sleep 2; kill -"$sig" $pid 2>/dev/null; }
    wait $pid
    status=$?
    kill $guard 2>/dev/null
    t1=$(date +%s)
    [ $((t1 - t0)) -lt "$LIMIT" ] || why="still running at $LIMIT s"
    if [ "$sig" = quick ]; then
        [ "$status" -eq 1 ] && [ $((t1 - t0)) -lt 10 ] ||
            why="$why; exit $status after $((t1 - t0)) s ($(tail -1 "$W/err"))"
    elif [ "$sig" = - ]; then
        [ "$status" -eq 1 ] && grep -q 'still running after 3 s, its time limit' "$W/err" ||
            why="$why; exit $status, not its limit's ($(tail -1 "$W/err"))"
    else
        [ "$status" -eq $((128 + $(kill -l "$sig"))) ] && grep -q 'interrupted' "$W/err" ||
            why="$why; exit $status after $sig ($(tail -1 "$W/err"))"
    fi
    [ "$(wc -l <"$W/err" | tr -d ' ')" -ge 1 ] || why="$why; no line on stderr"
    sleep 0.5
    pgrep -f "$W/h/" >/dev/null && why="$why; a program left behind" && pkill -9 -f "$W/h/"
    [ -z "$(find "$W/t" -maxdepth 1 -name 'scanbench-pg.*')" ] || why="$why; a cluster left"
    [ -z "$(find "$W/t" -name '*.tmp.*')" ] || why="$why; temporary files left"
    verdict "$name ($(echo "$sig" | sed 's/^-$/its own limit/; s/^quick$/at once/'))" "${why#; }"
}

# fake PROGRAM BODY: $W/h/PROGRAM, a bash script (its sleeps keep its path as their name)
fake() { printf '#!/bin/bash\n%s\n' "$2" >"$W/h/$1"; chmod 755 "$W/h/$1"; }
real=$(dirname "$(command -v pg_ctl 2>/dev/null || echo /usr/lib/postgresql/15/bin/pg_ctl)")
[ -x "$real/postgres" ] || real=/usr/lib/postgresql/15/bin
PGSMALL=(pg --set table_size=1M --set repetitions=1 --set warmup=0 --set run_timeout=5 -q)
for sig in - TERM; do
    rm -rf "$W/h"; mkdir "$W/h"
    for p in initdb pg_ctl; do fake $p 'exit 1'; done # the server's programs are all there
    rm -f "$W/h/postgres"; fake postgres 'exec -a "$0" sleep 3600'
    hang_case "postgres --version sleeps" "$sig" "$S" "${PGSMALL[@]}"
    rm -f "$W/h/postgres"
    fake postgres 'echo "postgres (PostgreSQL) 15.4"; (exec -a "$0" sleep 3600) &'
    [ "$sig" = - ] && hang_case "postgres --version leaves a child on stdout" quick "$S" \
        "${PGSMALL[@]}"
    if [ -x "$real/postgres" ]; then
        rm -f "$W/h"/*
        for p in "$real"/*; do ln -sf "$p" "$W/h/"; done
        rm -f "$W/h/initdb"; fake initdb 'exec -a "$0" sleep 3600'
        hang_case "initdb hangs" "$sig" "$S" "${PGSMALL[@]}"
        ln -sf "$real/initdb" "$W/h/initdb"; rm -f "$W/h/pg_ctl"
        fake pg_ctl 'exec -a "$0" sleep 3600'
        hang_case "pg_ctl hangs" "$sig" "$S" "${PGSMALL[@]}"
    fi
    rm -rf "$W/h"; mkdir "$W/h"
    fake gnuplot 'exec -a "$0" sleep 3600'
    hang_case "gnuplot hangs" "$sig" "$S" plot "$TOP/tests/data/report-a.json" -o "$W/t/p.png"
done

echo "stress.sh: $cases cases, $((cases - failed)) ok, $failed failed"
[ "$failed" -eq 0 ]
