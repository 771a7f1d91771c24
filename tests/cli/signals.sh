#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# signals.sh: each way a long-running command can be ended by a signal, and what it keeps.
# SIGINT, SIGTERM, SIGHUP and SIGQUIT sent to `run` and `reproduce` at three moments (and the
# other catchable signals whose default ends a process, SIGUSR1 to SIGPWR, during the scans):
# while the table is built (a test pause before the build), during the scans (once a later run or
# experiment has started) and during the final write (a test pause before it). Before the last
# run has finished: exit status 128 + the signal, the report valid JSON marked incomplete with
# the interrupted block (by, run_index, runs_done), the runs finished kept. During the final
# write: the report complete, exit 0, a line saying the signal came too late to change anything.
# SIGHUP ignored when scanbench started (nohup) stays ignored: the sweep ends, exit 0.
# SIGPIPE: sent (ignored: exit 0, the report complete), and as a reader that went away before
# stdout, stderr or both were written (stdout: exit 1 with one line, stderr only: exit 0; the
# report complete either way). After each: the scratch directories (data_dir, TMPDIR) are empty
# and nothing but the results is left beside them. `scanbench plot` stopped while gnuplot draws
# (a fake one): gnuplot and its child killed, no temporary file left, 128 + the signal; killed by
# SIGKILL, its gnuplot dies with it. `scanbench pg`: tests/cli/signals_pg.sh. The
# test pauses are SCANBENCH_TEST_PAUSE=MOMENT:SECONDS (lib/core/stop.h), which end at a signal.
. "$top_srcdir/tests/lib.sh"
set -m # background jobs keep SIGINT and SIGQUIT (a script's ignore them, and so does scanbench)
command -v jq >/dev/null || { echo "jq is missing (Debian: jq)"; exit 77; }
S=$SCANBENCH

# the progress lines waited for (stderr): one place to change them
BUILD_PAUSED='test pause: build'
WRITE_PAUSED='test pause: write'
RUN_SCANNING='round 1/'              # run: round 1 done, the rounds under way
EXPERIMENT_SCANNING='experiment 2/2' # reproduce: the first experiment written, the second under way

# a sweep that a signal stops long before its end (40 runs, 200 rounds of one pass over a 2MB
# table in a scratch file), and a short one that ends (8 runs, 20 rounds)
LONG=(--set table_size=2M --set pool_size=256K,512K,1M,2M,4M --set policy=clock,ring
      --set ring_size=128K --set op=count,vacuum --set dead_pct=0,5 --set repetitions=200 --set warmup=0
      --set source=file --set min_scan_ms=0)
SHORT=(--set table_size=2M --set pool_size=256K,512K --set policy=clock,ring --set ring_size=128K
       --set repetitions=20 --set warmup=0 --set source=file --set min_scan_ms=0)
# reproduce: two experiments, signalled once the second has started (its 14 runs' tables, 10
# rounds at least and validation take seconds); one for the final write. No cache model (the
# signals do not depend on it), and a budget of a few seconds: the automatic rounds of 4MB
# tables scanned once never settle, so they would run to the --quick budget of 60 s
REPRO_LONG=(x4500-memtable luke-experiment1 --quick --set table_size=4M --set time_budget=4
            --set counters=none --set min_scan_ms=0)
REPRO_SHORT=(x4500-memtable --quick --set table_size=4M --set time_budget=2 --set counters=none
             --set min_scan_ms=0)

# the other catchable signals whose default ends a process (SIGXCPU: `ulimit -t`): each stops a
# run as SIGTERM does
OTHER_SIGNALS="USR1 USR2 XCPU VTALRM PROF STKFLT PWR"
declare -A SIGNAL_STATUS
for _sig in INT TERM HUP QUIT $OTHER_SIGNALS; do
    SIGNAL_STATUS[$_sig]=$((128 + $(kill -l $_sig)))
done

# fresh CASE: a new directory for one case, with empty data and tmp directories in it
fresh() {
    CASE="$SCRATCH/$1"
    mkdir -p "$CASE/data" "$CASE/tmp"
}

# start COMMAND MOMENT: starts `scanbench COMMAND` in the background in a fresh case for the
# moment (build, scans, write, end), its results at $CASE/r.json (run) or $CASE/r (reproduce)
start() {
    local command=$1 moment=$2 pause=""
    case $moment in build) pause=build:60 ;; write) pause=write:60 ;; esac
    if [ "$command" = run ]; then
        local sweep=("${LONG[@]}")
        [ "$moment" = write ] || [ "$moment" = end ] && sweep=("${SHORT[@]}")
        env SCANBENCH_TEST_PAUSE="$pause" TMPDIR="$CASE/tmp" "$S" run "${sweep[@]}" \
            --set data_dir="$CASE/data" -o "$CASE/r.json" >"$CASE/out" 2>"$CASE/err" &
    else
        local experiments=("${REPRO_LONG[@]}")
        [ "$moment" = write ] || [ "$moment" = end ] && experiments=("${REPRO_SHORT[@]}")
        env SCANBENCH_TEST_PAUSE="$pause" TMPDIR="$CASE/tmp" "$S" reproduce \
            "${experiments[@]}" -o "$CASE/r" >"$CASE/out" 2>"$CASE/err" &
    fi
    pid=$!
}

# the line each moment waits for
moment_line() {
    case $1/$2 in
        */build) echo "$BUILD_PAUSED" ;;
        */write) echo "$WRITE_PAUSED" ;;
        run/*) echo "$RUN_SCANNING" ;;
        reproduce/*) echo "$EXPERIMENT_SCANNING" ;;
    esac
}

# left_clean WHAT: the scratch directories are empty, and the case holds only its results
left_clean() {
    [ -z "$(find "$CASE/data" "$CASE/tmp" -mindepth 1)" ] && pass ||
        fail "$1: scratch left: $(find "$CASE/data" "$CASE/tmp" -mindepth 1)"
    [ -z "$(find "$CASE" -name '*.tmp.*')" ] && pass ||
        fail "$1: temporary files left: $(find "$CASE" -name '*.tmp.*')"
}

# report_is FILE WHAT complete|incomplete SIG: valid JSON, marked as said, runs consistent
report_is() {
    local file=$1 what=$2 want=$3 sig=${4:-}
    if ! jq -e '.schema == "scanbench-report"' "$file" >/dev/null 2>&1; then
        fail "$what: no valid report at $file"; return; fi
    if [ "$want" = complete ]; then
        jq -e '.incomplete == false and (.interrupted == null) and (.runs | length) > 0' \
            "$file" >/dev/null && pass || fail "$what: not a complete report: $(jq -c \
            '{incomplete, interrupted, runs: (.runs | length)}' "$file")"
    else
        # interleaved: every run with timed scans is kept with its rounds; the run named is the
        # one whose step the signal stopped
        jq -e --arg s "SIG$sig" '.incomplete == true and .interrupted.by == $s and
            .interrupted.runs_done == (.runs | length) and .interrupted.run_index >= 1 and
            .interrupted.rounds_done >= 0 and all(.runs[]; .validation.ok)' \
            "$file" >/dev/null && pass || fail "$what: not marked incomplete by SIG$sig: \
$(jq -c '{incomplete, interrupted, runs: (.runs | length)}' "$file")"
    fi
}

# interrupt COMMAND SIG MOMENT: the signal at the moment; what must follow
interrupt() {
    local command=$1 sig=$2 moment=$3 what="$1 SIG$2 at $3" status want
    fresh "$command-$sig-$moment"
    start "$command" "$moment"
    if ! wait_for_stderr "$CASE/err" "$(moment_line "$command" "$moment")" $pid; then
        fail "$what: never reached: $(tail -3 "$CASE/err")"; kill -KILL $pid; wait $pid; return
    fi
    kill -"$sig" $pid
    wait $pid
    status=$?
    want=${SIGNAL_STATUS[$sig]}
    [ "$moment" = write ] && want=0
    [ "$status" -eq "$want" ] && pass || fail "$what: exit status $status, want $want: \
$(tail -2 "$CASE/err")"
    if [ "$moment" = write ]; then
        grep -q "SIG$sig came after the last run had finished" "$CASE/err" && pass ||
            fail "$what: stderr does not say the signal came too late: $(cat "$CASE/err")"
        if [ "$command" = run ]; then report_is "$CASE/r.json" "$what" complete
        else
            report_is "$CASE/r/x4500-memtable.json" "$what" complete
            [ -s "$CASE/r/reproduction.txt" ] && pass || fail "$what: no reproduction.txt"
        fi
    elif [ "$command" = run ]; then
        report_is "$CASE/r.json" "$what" incomplete "$sig"
        grep -q "interrupted (SIG$sig)" "$CASE/err" && pass || fail "$what: stderr: $(cat "$CASE/err")"
        if [ "$moment" = build ]; then
            jq -e '(.runs | length) == 0' "$CASE/r.json" >/dev/null && pass ||
                fail "$what: runs kept although none had finished"
        else
            jq -e '(.runs | length) == 40 and all(.runs[]; (.scans | length) >= 1)' \
                "$CASE/r.json" >/dev/null && pass ||
                fail "$what: round 1 was done but its scans are not all in the report"
            grep -q 'MB/s' "$CASE/out" && pass || fail "$what: no table of the finished runs"
        fi
    else
        if [ "$moment" = build ]; then
            report_is "$CASE/r/x4500-memtable.json" "$what" incomplete "$sig"
        else
            report_is "$CASE/r/x4500-memtable.json" "$what" complete
            report_is "$CASE/r/luke-experiment1.json" "$what" incomplete "$sig"
        fi
        grep -q 'interrupted' "$CASE/r/reproduction.txt" 2>/dev/null && pass ||
            fail "$what: reproduction.txt does not say it was interrupted"
    fi
    left_clean "$what"
}

# the cases are independent (each in its own directory, waiting for its own progress lines):
# two at a time
for command in run reproduce; do
    for sig in $STOP_SIGNALS; do
        for moment in build scans write; do
            in_parallel interrupt $command $sig $moment
        done
    done
done

# the others, during the scans (run) and in the second experiment (reproduce, one of them)
for sig in $OTHER_SIGNALS; do in_parallel interrupt run $sig scans; done
in_parallel interrupt reproduce USR1 scans

# SIGPIPE sent: ignored, the command ends as if nothing came
pipe_sent() {
    local command=$1 status
    fresh "$command-PIPE-sent"
    start $command end
    wait_for_stderr "$CASE/err" "$(moment_line $command scans)" $pid
    kill -PIPE $pid 2>/dev/null
    wait $pid
    status=$?
    [ "$status" -eq 0 ] && pass || fail "$command SIGPIPE sent: exit status $status, want 0"
    if [ $command = run ]; then report_is "$CASE/r.json" "$command SIGPIPE sent" complete
    else report_is "$CASE/r/x4500-memtable.json" "$command SIGPIPE sent" complete; fi
    left_clean "$command SIGPIPE sent"
}
for command in run reproduce; do in_parallel pipe_sent $command; done

# SIGHUP under nohup (ignored when scanbench started): it stays ignored, the sweep goes on
hup_under_nohup() {
    local status
    fresh run-HUP-nohup
    (trap '' HUP; exec "$S" run "${SHORT[@]}" --set data_dir="$CASE/data" -o "$CASE/r.json" \
        >"$CASE/out" 2>"$CASE/err") &
    pid=$!
    wait_for_stderr "$CASE/err" "$RUN_SCANNING" $pid
    kill -HUP $pid 2>/dev/null
    wait $pid
    status=$?
    [ "$status" -eq 0 ] && pass || fail "run SIGHUP under nohup: exit status $status, want 0"
    report_is "$CASE/r.json" "run SIGHUP under nohup" complete
    left_clean "run SIGHUP under nohup"
}
in_parallel hup_under_nohup

# closed_reader COMMAND WHICH: stdout (1), stderr (2) or both (12) into a pipe whose reader
# goes away as soon as the command holds it (the FIFO's only other end is this shell's);
# nothing it writes there from then on can be read, and every write fails with EPIPE
closed_reader() {
    local command=$1 which=$2 fifo i
    fresh "$command-PIPE-$which"
    fifo="$CASE/fifo"
    mkfifo "$fifo"
    exec 7<>"$fifo"
    if [ "$command" = run ]; then set -- run "${SHORT[@]}" --set data_dir="$CASE/data" -o "$CASE/r.json"
    else set -- reproduce "${REPRO_SHORT[@]}" -o "$CASE/r"; fi
    case $which in
        1) TMPDIR="$CASE/tmp" "$S" "$@" >"$fifo" 2>"$CASE/err" 7<&- & ;;
        2) TMPDIR="$CASE/tmp" "$S" "$@" 2>"$fifo" >"$CASE/out" 7<&- & ;;
        12) TMPDIR="$CASE/tmp" "$S" "$@" >"$fifo" 2>&1 7<&- & ;;
    esac
    pid=$!
    for i in $(seq 1 400); do
        [ "/proc/$pid/fd/${which:0:1}" -ef "$fifo" ] && break
        sleep 0.01
    done
    exec 7<&-
    wait $pid
    status=$?
    rm -f "$fifo"
}
closed_reader_case() {
    local command=$1 which=$2 what want
    closed_reader $command $which
    what="$command with a closed pipe on fd $which"
    want=1
    [ $which = 2 ] && want=0
    [ "$status" -eq "$want" ] && pass || fail "$what: exit status $status, want $want"
    if [ $which = 1 ]; then
        if [ "$(grep -c '^scanbench: cannot write the output (stdout): ' "$CASE/err")" -eq 1 ]
        then pass; else fail "$what: stderr: $(cat "$CASE/err")"; fi
    fi
    if [ $command = run ]; then report_is "$CASE/r.json" "$what" complete
    else report_is "$CASE/r/x4500-memtable.json" "$what" complete
         [ -s "$CASE/r/reproduction.txt" ] && pass || fail "$what: no reproduction.txt"; fi
    left_clean "$what"
}
for command in run reproduce; do
    for which in 1 2 12; do
        in_parallel closed_reader_case $command $which
    done
done
# plot: a stop signal while gnuplot draws (issue 49) kills gnuplot and what it started (its
# process group), waits for it and removes the temporary files: exit 128 + the signal, nothing
# left but what the case made, no process of gnuplot's alive. Killed itself (SIGKILL), scanbench
# takes gnuplot with it (Linux: PR_SET_PDEATHSIG). The gnuplot on PATH is a fake that never
# finishes: it starts a child and writes both their pids.
FAKE="$SCRATCH/fakebin"
mkdir "$FAKE"
cat >"$FAKE/gnuplot" <<'EOF'
#!/bin/sh
# a gnuplot that never finishes: a child of its own; both pids into $FAKE_PIDS
sleep 120 &
echo "$$ $!" >"$FAKE_PIDS.new" && mv "$FAKE_PIDS.new" "$FAKE_PIDS"
wait
EOF
chmod +x "$FAKE/gnuplot"

# gone PID: the process ended (or is a zombie) within 10 s: a SIGKILL is not instant
gone() {
    local i st
    for i in $(seq 1 100); do
        st=$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null)
        [ -z "$st" ] || [ "$st" = Z ] && return 0
        sleep 0.1
    done
    return 1
}

# start_plot: `scanbench plot` with the fake gnuplot, in a fresh case, until gnuplot has started
start_plot() {
    local i
    fresh "plot-$1"
    FAKE_PIDS="$CASE/pids" PATH="$FAKE:$PATH" "$S" plot "$top_srcdir/tests/data/report-a.json" \
        -o "$CASE/p.png" >"$CASE/out" 2>"$CASE/err" &
    pid=$!
    for i in $(seq 1 1200); do
        [ -s "$CASE/pids" ] && return 0
        kill -0 $pid 2>/dev/null || break
        sleep 0.1
    done
    fail "plot: gnuplot never started: $(cat "$CASE/err")"; kill -KILL $pid; wait $pid
    return 1
}

plot_interrupted() {
    local sig=$1 what="plot SIG$1 while gnuplot draws" status p
    start_plot "$sig" || return
    kill -"$sig" $pid
    wait $pid
    status=$?
    [ "$status" -eq "${SIGNAL_STATUS[$sig]}" ] && pass ||
        fail "$what: exit status $status, want ${SIGNAL_STATUS[$sig]}: $(cat "$CASE/err")"
    grep -qF "interrupted (SIG$sig): gnuplot stopped, no plot written" "$CASE/err" && pass ||
        fail "$what: stderr: $(cat "$CASE/err")"
    for p in $(cat "$CASE/pids"); do
        if gone $p; then pass; else fail "$what: gnuplot's process $p outlived it"; kill -KILL $p; fi
    done
    [ "$(ls "$CASE" | tr '\n' ' ')" = "data err out pids tmp " ] && pass ||
        fail "$what: left: $(ls "$CASE")"
}
for sig in $STOP_SIGNALS $OTHER_SIGNALS; do in_parallel plot_interrupted $sig; done

plot_killed() {
    local what="plot SIGKILL while gnuplot draws" gnuplot child
    start_plot KILL || return
    kill -KILL $pid
    wait $pid
    read -r gnuplot child <"$CASE/pids"
    if gone $gnuplot; then pass; else fail "$what: gnuplot outlived scanbench"; kill -KILL $gnuplot; fi
    kill -KILL $child # gnuplot's own child: nothing kills it once gnuplot is gone
}
[ -d /proc/self ] && in_parallel plot_killed

# a gnuplot that hangs is stopped at its time limit (SCANBENCH_PLOT_TIMEOUT, 1 s here): exit 1,
# one line naming the plot asked for and the limit, gnuplot and its child gone, nothing left
plot_timed_out() {
    local what="plot past gnuplot's time limit" status p
    fresh plot-limit
    FAKE_PIDS="$CASE/pids" PATH="$FAKE:$PATH" SCANBENCH_PLOT_TIMEOUT=1 timeout -s KILL 60 \
        "$S" plot "$top_srcdir/tests/data/report-a.json" -o "$CASE/p.png" >"$CASE/out" \
        2>"$CASE/err"
    status=$?
    [ "$status" -eq 1 ] && pass || fail "$what: exit status $status, want 1: $(cat "$CASE/err")"
    [ "$(cat "$CASE/err")" = "scanbench: $CASE/p.png: gnuplot: still running after 1 s, its time \
limit (SCANBENCH_PLOT_TIMEOUT): stopped" ] && pass || fail "$what: stderr: $(cat "$CASE/err")"
    for p in $(cat "$CASE/pids" 2>/dev/null); do
        if gone $p; then pass; else fail "$what: gnuplot's process $p outlived it"; kill -KILL $p; fi
    done
    [ "$(ls "$CASE" | tr '\n' ' ')" = "data err out pids tmp " ] && pass ||
        fail "$what: left: $(ls "$CASE")"
    fresh plot-limit-bad
    PATH="$FAKE:$PATH" SCANBENCH_PLOT_TIMEOUT=abc timeout -s KILL 60 "$S" plot \
        "$top_srcdir/tests/data/report-a.json" -o "$CASE/p.png" >"$CASE/out" 2>"$CASE/err"
    status=$?
    [ "$status" -eq 2 ] && [ "$(wc -l <"$CASE/err")" -eq 1 ] &&
        grep -qF "SCANBENCH_PLOT_TIMEOUT=abc: not a number of seconds above 0" "$CASE/err" &&
        pass || fail "plot with SCANBENCH_PLOT_TIMEOUT=abc: exit $status: $(cat "$CASE/err")"
}
in_parallel plot_timed_out
gather
finish
