#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# counters_papi.sh: `--set counters=papi` end to end. On a host where no event can be counted
# (this project's VM: no PMU) the run still runs and times everything, the report says
# "unavailable" with PAPI's error or the host's obstacle, values are empty (never 0), and
# require_counters=yes makes it exit 3 with one line, before any table is built. Where the
# host counts, the values are positive integers instead. With PAPI built in, a map of
# software events (perf::TASK-CLOCK...) drives the counting path on any host: values per
# repetition, an impossible rate rejected with a reason, the accuracy check. Built without
# PAPI, the reason is "built without PAPI".
. "$top_srcdir/tests/lib.sh"
S=$SCANBENCH
SMALL="--set table_size=4M --set pool_size=1M --set ring_size=256K --set repetitions=2"

command -v jq >/dev/null || { echo "jq is missing (Debian: jq)" >&2; exit 99; }

$S events >"$SCRATCH/events" 2>&1 || fail "scanbench events exited non-zero"
if grep -q "not built in" "$SCRATCH/events"; then papi=no; else papi=yes; fi
countable=$(sed -n 's/^verdict: *\([0-9]*\) role.*/\1/p' "$SCRATCH/events")
countable=${countable:-0}
echo "PAPI built in: $papi; roles countable here: $countable"

R="$SCRATCH/papi.json"
expect_status 0 "counters=papi runs" $S run $SMALL --set counters=papi -o "$R"
out_contains "SELECT COUNT(*)"
check "every run timed and validated" jq -e '.runs | length == 4 and all(.validation.ok and
    (.repetitions | length == 2 and all(. > 0)))' "$R"
check "backend papi, events map chosen" jq -e '.runs | all(.counters.backend == "papi")' "$R"
check "values hold numbers only (an unread role is absent, not null or 0)" jq -e '[.runs[].counters.values[][]] |
    all(type == "number")' "$R"
check "every role absent from values has a reason" jq -e '.runs | all(.counters as $c |
    ["cycles","instructions","l2_miss","l2_writeback","mem_read_bytes","mem_write_bytes"] |
    all(. as $r | ($c.values | has($r)) or ($c.reasons[$r] | type == "string")))' "$R"
check "derived figures null where roles are absent" jq -e '.runs | all(.counters as $c |
    ($c.values | has("l2_miss") | not) as $no | ($no | not) or $c.derived.l2_miss_per_page == null)' "$R"

if [ "$papi" = no ]; then
    check "unavailable: built without PAPI" jq -e '.runs | all(.counters.status == "unavailable"
        and .counters.values == {} and (.counters.reason | test("built without PAPI")))' "$R"
    out_contains "counters: papi, unavailable: built without PAPI"
elif [ "$countable" -eq 0 ]; then
    check "unavailable, values empty" jq -e '.runs | all(.counters.status == "unavailable" and
        .counters.values == {})' "$R"
    check "the reason names PAPI's error or the host's obstacle" jq -e '.runs | all(.counters.reason |
        test("PAPI_E[A-Z]+|no hardware PMU|0 hardware counters|perf_event_paranoid|no events map"))' "$R"
    check "accuracy not checked" jq -e '.runs | all(.counters.accuracy.checked == false)' "$R"
    # one line for every run, or one per run where PAPI's error differs between the runs
    out_contains "papi, unavailable: "
    # require_counters=yes: exit 3, one line, before any run (nothing on stdout)
    expect_status 3 "require_counters=yes" $S run $SMALL --set counters=papi --set require_counters=yes -o "$SCRATCH/req.json"
    err_is_one_line_containing "counters papi unavailable and require_counters=yes: "
    check "no report written" [ ! -e "$SCRATCH/req.json" ]
    check "nothing on stdout" [ ! -s "$SCRATCH/out" ]
else
    check "counted: ok or estimated, positive values" jq -e '.runs | all((.counters.status == "ok"
        or .counters.status == "estimated") and ([.counters.values[][]] | all(. >= 0)) and
        (.counters.values | length > 0))' "$R"
    expect_status 0 "require_counters=yes where counters work" $S run $SMALL --set counters=papi --set require_counters=yes -q
fi

if [ "$papi" = yes ] && ! grep -Eq '^ +perf_event +active' "$SCRATCH/events"; then
    # PAPI counts software events through its perf_event component; where PAPI disabled it
    # (no PMU libpfm4 knows: "no default PMU found"), nothing can be counted at all.
    echo "SKIP the software-event map: PAPI's perf_event component is disabled here: $(grep -E '^ +perf_event ' "$SCRATCH/events")"
elif [ "$papi" = yes ]; then
    # The counting path with software events, which count on any Linux host.
    cat >"$SCRATCH/sw.ini" <<'MAP'
[map]
description = software events: the papi backend's counting path on any host
pmus = perf
[cycles]
events = perf::TASK-CLOCK
counts = nanoseconds the task ran (stands in for cycles)
[l2_miss]
events = perf::TASK-CLOCK
scale = 1000000
counts = task-clock times 10^6: an impossible rate of L2 misses, on purpose
[mem_read_bytes]
events = perf::TASK-CLOCK
scale = 5000
counts = task-clock times 5000 as bytes: 5 TB/s, below the impossible rate (10 TB/s), far above any copy
[mem_write_bytes]
events = perf::PAGE-FAULTS, perf::CONTEXT-SWITCHES
counts = two events summed
[l2_writeback]
events = none
reason = not in this test map
MAP
    R2="$SCRATCH/sw.json"
    expect_status 0 "software-event map" $S run $SMALL --set op=count --set policy=clock --set counters=papi --set events="$SCRATCH/sw.ini" -o "$R2"
    check "status ok, events resolved" jq -e '.runs[0].counters | .status == "ok" and
        .events.cycles == "perf::TASK-CLOCK"' "$R2"
    check "cycles: one positive integer per repetition" jq -e '.runs[0].counters.values.cycles |
        length == 2 and all(type == "number" and . > 0 and floor == .)' "$R2"
    check "scale applied (5000 x task-clock)" jq -e '.runs[0].counters.values as $v |
        ($v.mem_read_bytes[0] / $v.cycles[0]) > 4990 and ($v.mem_read_bytes[0] / $v.cycles[0]) < 5010' "$R2"
    check "impossible rate rejected, not clamped" jq -e '.runs[0].counters | (.values | has("l2_miss") | not)
        and (.reasons.l2_miss | test("impossible, role rejected"))' "$R2"
    check "a role with none says so" jq -e '.runs[0].counters.reasons.l2_writeback ==
        "no event on this architecture: not in this test map"' "$R2"
    check "a role missing from the map says so" jq -e '.runs[0].counters.reasons.instructions |
        test("no event in this map")' "$R2"
    check "accuracy checked with its rule" jq -e '.runs[0].counters.accuracy | .checked and
        (.ratio | type == "number") and .tolerance == [0.45, 1.65] and (.rule | test("table bytes read"))' "$R2"
    # Certain to disagree on any host: 5000 bytes per nanosecond of the scan against the 8MB a
    # scan of the 4MB table moves is above 1.65 x 8MB unless the scan lasts under 2.7 us
    # (a copy at 1.5 TB/s).
    check "accuracy: DISAGREE" jq -e '.runs[0].counters.accuracy | .ok == false and .ratio > 1.65' "$R2"
    out_contains "memory bytes measured/expected"
fi
finish
