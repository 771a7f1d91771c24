#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# power.sh: `scanbench power` end to end, on structure only (never on detection rates): with a
# tiny table and short trials (--set), --quick --trials 2 prints its header, one line per kind
# (A-A, extra_copy 0.05 and 0.10), the closing sentence and a progress line per trial; -o DIR
# keeps power.json (it parses: 6 trials, each with its seed, arm, size, call, ratio, interval,
# rounds and seconds; the kinds' summaries) and power.txt (the text printed). Bad input exits 2
# with one line before anything runs: --trials 0, garbage or missing, an -o DIR that exists, a
# --set of a key the trials set themselves. SIGINT during the trials: exit 130, the trials done
# printed and written, power.json marked incomplete.
. "$top_srcdir/tests/lib.sh"
set -m # background jobs keep SIGINT (a script's ignore it, and so does scanbench)
command -v jq >/dev/null || { echo "jq is missing (Debian: jq)"; exit 77; }
S=$SCANBENCH

# trials of a fraction of a second: a 4MB table, timed scans of 5 ms, the least budget
TINY=(--set table_size=4M --set min_scan_ms=5 --set warmup=0 --set time_budget=1)
TRIAL_1_DONE='trial 1/'

expect_status 0 "power --quick --trials 2" $S power --quick --trials 2 "${TINY[@]}" -o "$SCRATCH/p"
for line in "scanbench power: 6 trials, 2 of each kind" "share [95% Wilson]" "A-A " \
    "extra_copy 0.05 " "extra_copy 0.10 " "on this host a difference of " \
    "identical configurations were called different in "; do
    out_contains "$line"
done
[ "$(grep -c '^extra_copy 0.02 ' "$SCRATCH/out")" -eq 0 ] && pass ||
    fail "--quick printed extra_copy 0.02"
[ "$(grep -c 'scanbench: trial [1-6]/6 ' "$SCRATCH/err")" -eq 6 ] && pass ||
    fail "want 6 progress lines: $(cat "$SCRATCH/err")"
J="$SCRATCH/p/power.json"
jq -e '.schema == "scanbench-power" and .incomplete == false and (.trials | length) == 6 and
    (.kinds | length) == 3 and (.sentence | startswith("on this host"))' "$J" >/dev/null &&
    pass || fail "power.json: $(head -c 400 "$J")"
jq -e 'all(.trials[]; has("seed") and has("arm") and has("size") and has("call") and
    has("ratio") and has("lo") and has("hi") and has("rounds") and has("seconds") and
    (.call | IN("faster", "slower", "same", "inconclusive")) and (.rounds >= 1) and
    (.seconds > 0) and (.seed | type) == "number")' "$J" >/dev/null &&
    pass || fail "power.json: a trial lacks a field: $(jq -c '.trials[0]' "$J")"
jq -e 'all(.trials[]; if .kind == "A-A" then .arm == null and .size == 0
    else (.arm | IN("first", "second")) and (.size | IN(0.05, 0.1)) end) and
    ([.trials[] | select(.kind == "A-A")] | length) == 2' "$J" >/dev/null &&
    pass || fail "power.json: arms and sizes: $(jq -c '[.trials[] | [.kind, .size, .arm]]' "$J")"
cmp -s "$SCRATCH/out" "$SCRATCH/p/power.txt" && pass || fail "power.txt is not the text printed"
# each trial appended as it ended: trials.jsonl holds power.json's trials, one line each
[ "$(jq -s -c '.' "$SCRATCH/p/trials.jsonl")" = "$(jq -c '.trials' "$J")" ] && pass ||
    fail "trials.jsonl is not power.json's trials: $(head -c 300 "$SCRATCH/p/trials.jsonl")"

# SIGKILL after the first trial: trials.jsonl keeps the trials done
$S power --trials 50 "${TINY[@]}" -o "$SCRATCH/k" >/dev/null 2>"$SCRATCH/k.err" &
pid=$!
if wait_for_stderr "$SCRATCH/k.err" "$TRIAL_1_DONE" $pid; then
    kill -KILL $pid
    wait $pid 2>/dev/null
    jq -e -s 'length >= 1 and .[0].trial == 1' "$SCRATCH/k/trials.jsonl" >/dev/null && pass ||
        fail "SIGKILL: trials.jsonl: $(head -c 300 "$SCRATCH/k/trials.jsonl" 2>&1)"
else
    fail "SIGKILL: no trial finished: $(tail -3 "$SCRATCH/k.err")"; wait $pid
fi

# A link planted in -o DIR (which anyone may write into under umask 000): nothing is written
# through it, before trials.jsonl is made (the first trial's O_EXCL) or after (a link put in
# its place: O_NOFOLLOW); said once, the run goes on, power.json has every trial.
# planted_link NAME MOMENT [hard]: MOMENT "dir" (as soon as the directory exists) or "trial"
# (once trial 1 is done, trials.jsonl replaced by the link); hard: a hard link to the victim
# (another file in its place) instead of a symbolic one
planted_link() {
    local dir="$SCRATCH/$1" victim="$SCRATCH/$1.victim" pid i status
    local what="${3:-symbolic} link planted at $2"
    echo "the victim's own line" >"$victim"
    (umask 000; exec $S power --trials 2 "${TINY[@]}" -o "$dir") >/dev/null 2>"$dir.err" &
    pid=$!
    if [ "$2" = dir ]; then
        for i in $(seq 1 1000); do [ -d "$dir" ] && break; sleep 0.01; done
    else
        wait_for_stderr "$dir.err" "$TRIAL_1_DONE" $pid
        rm -f "$dir/trials.jsonl"
    fi
    if [ "${3:-}" = hard ]; then ln "$victim" "$dir/trials.jsonl"
    else ln -s "$victim" "$dir/trials.jsonl"; fi
    wait $pid
    status=$?
    [ "$status" -eq 0 ] && pass || fail "$what: exit status $status: $(cat "$dir.err")"
    [ "$(cat "$victim")" = "the victim's own line" ] && pass ||
        fail "$what: written through it: $(head -c 300 "$victim")"
    local said='trials.jsonl (a file or link that scanbench did not make is there)'
    [ "$(grep -c "cannot append to .*$said" "$dir.err")" -eq 1 ] && pass ||
        fail "$what: not said once: $(cat "$dir.err")"
    # every trial (trial N/TOTAL on stderr) in power.json
    jq -e --argjson n "$(sed -n 's|.*trial 1/\([0-9]*\) .*|\1|p' "$dir.err")" \
        '(.trials | length) == $n' "$dir/power.json" >/dev/null && pass ||
        fail "$what: power.json does not hold every trial"
}
planted_link link-dir dir
planted_link link-trial trial
planted_link hardlink-trial trial hard

# bad input: exit 2, one line, nothing run
for bad in "--trials 0" "--trials x" "--trials" "--trials 10001" "--set extra_copy=0.1" \
    "--set seed=3" "--set pool_size=1M,2M" "--bogus"; do
    # shellcheck disable=SC2086
    expect_status 2 "power $bad" $S power $bad "${TINY[@]}"
    err_is_one_line_containing "scanbench: "
done
expect_status 2 "power -o an existing directory" $S power --quick "${TINY[@]}" -o "$SCRATCH/p"
err_is_one_line_containing "-o $SCRATCH/p: File exists (power writes into a new directory"

# SIGINT after the first trial: what was done is printed and written, exit 130
if [[ " $STOP_SIGNALS " == *" INT "* ]]; then
    $S power --trials 50 "${TINY[@]}" -o "$SCRATCH/i" >"$SCRATCH/i.out" 2>"$SCRATCH/i.err" &
    pid=$!
    if wait_for_stderr "$SCRATCH/i.err" "$TRIAL_1_DONE" $pid; then
        kill -INT $pid
        wait $pid
        status=$?
        [ "$status" -eq 130 ] && pass || fail "SIGINT: exit status $status, want 130"
        jq -e '.incomplete == true and (.trials | length) >= 1 and (.trials | length) < 200' \
            "$SCRATCH/i/power.json" >/dev/null && pass ||
            fail "SIGINT: power.json: $(head -c 300 "$SCRATCH/i/power.json")"
        grep -q '^interrupted after ' "$SCRATCH/i.out" && pass || fail "SIGINT: not said"
        grep -q '^on this host' "$SCRATCH/i.out" && pass || fail "SIGINT: no sentence"
    else
        fail "SIGINT: no trial finished: $(tail -3 "$SCRATCH/i.err")"; wait $pid
    fi
fi
finish
