#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# interrupt.sh: SIGINT and SIGTERM during a sweep or a reproduction stop it cleanly: the runs
# finished so far are written as a valid report marked incomplete (naming the run that was
# interrupted), nothing is left in the scratch directory, and the exit status is 130 or 143;
# the watchdog (run_timeout) stops a run that takes too long: exit 1, naming it, report marked
# incomplete; a reproduction stopped while its thread machine is emulated keeps a report with no
# runs, marked incomplete, and says so. Deterministic: each signal is sent once a progress line
# on stderr shows that a later run has started, or at a test pause.
. "$top_srcdir/tests/lib.sh"
set -m # background jobs keep SIGINT and SIGQUIT (a script's ignore them, and so does scanbench)
command -v jq >/dev/null || { echo "jq is missing (Debian: jq)"; exit 77; }

# the progress lines waited for (stderr)
ROUND_1_DONE='round 1/'
EXPERIMENT_2_STARTED='experiment 2/2'

# A sweep of 40 short runs interleaved (a 4MB table, one pass per timed scan, 200 rounds: each
# round well under a second).
SWEEP=(--set table_size=4M --set pool_size=256K,512K,1M,2M,4M --set policy=clock,ring
       --set ring_size=128K --set op=count,vacuum --set dead_pct=0,5 --set repetitions=200 --set warmup=0
       --set min_scan_ms=0)

# check_interrupted SIGNAL STATUS: the sweep, the signal once round 1 is done
check_interrupted() {
    local sig=$1 want=$2 pid status report="$SCRATCH/$1.json"
    mkdir -p "$SCRATCH/data-$sig"
    "$SCANBENCH" run "${SWEEP[@]}" --set source=file --set data_dir="$SCRATCH/data-$sig" \
        -o "$report" >"$SCRATCH/$sig.out" 2>"$SCRATCH/$sig.err" &
    pid=$!
    if ! wait_for_stderr "$SCRATCH/$sig.err" "$ROUND_1_DONE" $pid; then
        fail "$sig: round 2 never started: $(tail -3 "$SCRATCH/$sig.err")"; wait $pid; return
    fi
    kill -"$sig" $pid
    wait $pid
    status=$?
    [ "$status" -eq "$want" ] && pass || fail "$sig: exit status $status, want $want"
    [ -f "$report" ] && pass || { fail "$sig: no report written"; return; }
    jq -e '.schema == "scanbench-report" and .incomplete == true' "$report" >/dev/null &&
        pass || fail "$sig: the report is not marked incomplete"
    jq -e --arg s "SIG$sig" '.interrupted.by == $s and .interrupted.runs_planned == 40 and
        .interrupted.runs_done == 40 and .interrupted.rounds_done >= 1 and
        (.interrupted.run | type) == "string"' "$report" >/dev/null &&
        pass || fail "$sig: interrupted block: $(jq -c .interrupted "$report")"
    # every run keeps the rounds done (and the round in progress, where it was timed)
    jq -e '(.runs | length) == 40 and all(.runs[]; .validation.ok == true and
        (.scans | length) >= $done)' --argjson done "$(jq .interrupted.rounds_done "$report")"         "$report" >/dev/null && pass || fail "$sig: the rounds done are not all in the report"
    # the report reads back (compare's reader checks every run)
    "$SCANBENCH" compare "$report" "$report" >/dev/null 2>&1 && pass ||
        fail "$sig: compare cannot read the incomplete report"
    grep -q 'interrupted' "$SCRATCH/$sig.err" && pass || fail "$sig: stderr does not say so"
    grep -q 'MB/s' "$SCRATCH/$sig.out" && pass || fail "$sig: no table of the finished runs"
    [ -z "$(ls -A "$SCRATCH/data-$sig")" ] && pass ||
        fail "$sig: scratch files left: $(ls -A "$SCRATCH/data-$sig")"
}
for sig in $STOP_SIGNALS; do
    case $sig in INT) check_interrupted INT 130 ;; TERM) check_interrupted TERM 143 ;; esac
done

# A reproduction: interrupted in its second experiment; the first one's report is whole (by
# SIGINT, or SIGTERM where SIGINT was ignored as the test started): its 6 runs, the thread's two
# pools and the scaled scattered one (reproduction.md) for each op.
RSIG=INT RSTATUS=130
ignored_at_entry INT && RSIG=TERM RSTATUS=143
# (a budget of 4 s: automatic rounds, at least 10 an experiment, where a fixed 100 rounds of the
# first experiment's 6 runs took a minute on a loaded host before the signal could be sent)
"$SCANBENCH" reproduce x4500-memtable luke-experiment1 --quick --set table_size=4M \
    --set time_budget=4 --set min_scan_ms=0 -o "$SCRATCH/repro" >"$SCRATCH/repro.out" \
    2>"$SCRATCH/repro.err" &
pid=$!
if wait_for_stderr "$SCRATCH/repro.err" "$EXPERIMENT_2_STARTED" $pid; then
    sleep 0.2
    kill -$RSIG $pid
    wait $pid
    status=$?
    [ "$status" -eq $RSTATUS ] && pass || fail "reproduce: exit status $status, want $RSTATUS"
    # two ops at each pool: the thread's two and the scaled ones this host's caches give
    jq -e '.incomplete == false and (.runs | length) == 2 * ([16777216, 696320,
        .thread.scaled.slow.bytes, .thread.scaled.fast.bytes] | unique | length)' \
        "$SCRATCH/repro/x4500-memtable.json" \
        >/dev/null && pass || fail "reproduce: the first experiment's report is not whole"
    jq -e '.incomplete == true and .interrupted.by == "SIG'$RSIG'"' \
        "$SCRATCH/repro/luke-experiment1.json" >/dev/null && pass ||
        fail "reproduce: the second experiment's report is not marked incomplete"
    grep -q 'interrupted' "$SCRATCH/repro/reproduction.txt" && pass ||
        fail "reproduce: reproduction.txt does not say it was interrupted"
else
    fail "reproduce: experiment 2 never started: $(tail -3 "$SCRATCH/repro.err")"
    wait $pid
fi

# A reproduction stopped while its thread machine is emulated, before any run (issue 49): the
# test pause before the first table's build is the emulation's. What stderr says is what D
# holds: the experiment's report with no runs, marked incomplete, and reproduction.txt as stdout
# had it, saying so.
SCANBENCH_TEST_PAUSE=build:60 "$SCANBENCH" reproduce x4500-memtable --quick --set table_size=4M \
    --set time_budget=2 --set min_scan_ms=0 -o "$SCRATCH/emu" >"$SCRATCH/emu.out" \
    2>"$SCRATCH/emu.err" &
pid=$!
if wait_for_stderr "$SCRATCH/emu.err" 'test pause: build' $pid; then
    kill -$RSIG $pid
    wait $pid
    status=$?
    [ "$status" -eq $RSTATUS ] && pass || fail "emulation: exit status $status, want $RSTATUS"
    grep -q 'emulating x4500 for x4500-memtable' "$SCRATCH/emu.err" && pass ||
        fail "emulation: the pause was not the emulation's: $(cat "$SCRATCH/emu.err")"
    [ "$(tail -1 "$SCRATCH/emu.err")" = "scanbench: interrupted (SIG$RSIG) while emulating x4500 for x4500-memtable, before any run: 1 report with no runs, marked incomplete, in $SCRATCH/emu" ] &&
        pass || fail "emulation: stderr: $(tail -1 "$SCRATCH/emu.err")"
    jq -e '.incomplete == true and .interrupted.by == "SIG'$RSIG'" and (.runs | length) == 0 and
        .interrupted.runs_done == 0 and .emulation.available == false' \
        "$SCRATCH/emu/x4500-memtable.json" >/dev/null && pass ||
        fail "emulation: no report with no runs, marked incomplete: $(ls "$SCRATCH/emu")"
    [ "$(ls "$SCRATCH/emu")" = "reproduction.txt
x4500-memtable.json" ] && pass || fail "emulation: D holds $(ls "$SCRATCH/emu")"
    grep -q "^== x4500-memtable: interrupted (SIG$RSIG) while emulating x4500" "$SCRATCH/emu.out" &&
        cmp -s "$SCRATCH/emu.out" "$SCRATCH/emu/reproduction.txt" && pass ||
        fail "emulation: stdout and reproduction.txt do not say it: $(head -2 "$SCRATCH/emu.out")"
else
    fail "emulation: the build pause never came: $(tail -3 "$SCRATCH/emu.err")"
    wait $pid
fi

# The watchdog: a run that takes longer than run_timeout is stopped, named, and marked; the
# scans it finished stay in the report.
expect_status 1 "run_timeout" "$SCANBENCH" run --set table_size=16M --set op=count --set policy=clock \
    --set repetitions=1000 --set min_scan_ms=0 \
    --set run_timeout=1 -o "$SCRATCH/timeout.json"
grep -q 'run_timeout' "$SCRATCH/err" && grep -q 'run 1/1' "$SCRATCH/err" && pass ||
    fail "run_timeout: stderr does not name the run: $(cat "$SCRATCH/err")"
jq -e '.incomplete == true and
    .interrupted.by == "run_timeout: run 1/1 default ran longer than its run_timeout of 1 s" and
    (.runs | length) == 1 and (.runs[0].scans | length) > 0' "$SCRATCH/timeout.json" >/dev/null &&
    pass || fail "run_timeout: report: $(jq -c '{incomplete, interrupted}' "$SCRATCH/timeout.json")"
# A failure (an allocation, a validation mismatch) stops the schedule: exit 1, one line naming
# the run; the other runs' scans are kept, marked incomplete, the failed run's left out
# (SCANBENCH_TEST_FAIL injects it: lib/runner/runner.c). Blocked: run 3's preparation fails after
# runs 1 and 2 finished; interleaved: the first scan of round 3 (whichever run the shuffle put
# first) fails.
FAILING=(--set table_size=2M --set pool_size=256K,512K,1M --set policy=clock --set op=count
         --set min_scan_ms=0 -q)
expect_status 1 "a failure, blocked" env SCANBENCH_TEST_FAIL=prepare:3 "$SCANBENCH" run \
    "${FAILING[@]}" --set repetitions=3 --set schedule=blocked -o "$SCRATCH/fail1.json"
grep -q 'pool_size=1M: cannot allocate' "$SCRATCH/err" && pass ||
    fail "a failure, blocked: stderr: $(cat "$SCRATCH/err")"
jq -e '.incomplete == true and (.interrupted.by | startswith("error: ")) and
    .interrupted.run_index == 3 and [.runs[] | .scans | length] == [3, 3]' \
    "$SCRATCH/fail1.json" >/dev/null && pass ||
    fail "a failure, blocked: report: $(jq -c '{interrupted, runs: (.runs | length)}' "$SCRATCH/fail1.json")"
expect_status 1 "a failure, interleaved" env SCANBENCH_TEST_FAIL=round:3 "$SCANBENCH" run \
    "${FAILING[@]}" --set repetitions=5 -o "$SCRATCH/fail2.json"
jq -e '.incomplete == true and .interrupted.rounds_done == 2 and (.runs | length) == 2 and
    (.interrupted.run as $failed | all(.runs[]; .name != $failed)) and
    all(.runs[]; (.scans | length) == 2 and .validation.ok)' "$SCRATCH/fail2.json" >/dev/null &&
    pass || fail "a failure, interleaved: report: $(jq -c '{interrupted, runs: [.runs[].name]}' \
    "$SCRATCH/fail2.json")"
finish
