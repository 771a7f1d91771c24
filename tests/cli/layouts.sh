#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# layouts.sh: key layout end to end (doc/statistics.md, Layouts). The reference is an instance
# of its own, timed once per round like every run; layouts are drawn every layout_rounds rounds,
# every scan names its layout and every run (and the reference) records each one; the order of
# the preparations and draws is shuffled by the schedule's seed, the same under the same seed;
# layout fixed keeps one allocation per run; the analysis, the table's lines and the CSV carry
# the layouts (a report from before layouts: tests/report/test_analysis_layouts.c).
. "$top_srcdir/tests/lib.sh"
S=$SCANBENCH
command -v jq >/dev/null || { echo "jq is missing (Debian: jq)" >&2; exit 99; }
SMALL="--set table_size=4M --set pool_size=1M --set ring_size=256K --set op=count
    --set policy=clock,ring --set min_scan_ms=0 --set warmup=0 --set repetitions=12"

expect_status 0 "layout random, a draw every 4 rounds" $S run $SMALL --set layout_rounds=4 \
    --set schedule_seed=7 -o "$SCRATCH/a.json"
R="$SCRATCH/a.json"
check "three layouts in the schedule" jq -e '.schedule.layout.kind == "random" and
    .schedule.layout.layouts == 3 and .schedule.layout.rounds_per_layout == 4' "$R"
check "every scan names its layout: round / 4" jq -e '[.runs[].scans[], .schedule.reference.scans[]]
    | length == 36 and all(.layout == (.round / 4 | floor))' "$R"
check "each run and the reference record three layouts, first rounds 0, 4, 8" jq -e '
    [.runs[].layouts, .schedule.reference.layouts] | length == 3 and
    all(map(.first_round) == [0, 4, 8] and map(.index) == [0, 1, 2])' "$R"
check "a draw's time is recorded, the prepared layout's is 0" jq -e '
    [.runs[].layouts[]] | all(if .index == 0 then .seconds == 0 else .seconds > 0 end)' "$R"
check "frames read, or why not" jq -e '[.runs[].layouts[].frames] |
    all(if .available then .pages > 0 and .resolved <= .pages and .contiguous >= 0 and
        .contiguous <= 1 and .colour_min <= .colour_max else (.why | length > 0) end)' "$R"
check "the reference is an instance of its own: each round times every run and it once" \
    jq -e '[range(0; 12) as $r | [.runs[].scans[], .schedule.reference.scans[]] |
        map(select(.round == $r) | .position) | sort == [0, 1, 2]] | all' "$R"
check "the reference's validation held (its own pool checked)" jq -e '.complete != false' "$R"
check "the analysis resampled three layouts" jq -e '.analysis.layouts == 3 and
    (.analysis.method | test("two-stage")) and all(.analysis.runs[]; .layouts == 3 and
    (.layout_medians | length == 3))' "$R"
out_contains "layouts: 3 (random, drawn anew every 4 rounds"
out_contains "the first run against a second instance of it, allocated apart"
check "the CSV has the layout column" sh -c "head -1 '$SCRATCH/a.csv' | grep -q ',layout\$' &&
    awk -F, 'NR > 1 && \$NF != int((\$2) / 4) { bad = 1 } END { exit bad }' '$SCRATCH/a.csv'"

# the same seed draws in the same shuffled order (the layouts' `at` ranks), another seed not
order() {
    jq -r '[.runs[].layouts[1], .schedule.reference.layouts[1]] | to_entries |
        sort_by(.value.at) | map(.key) | @csv' "$1"
}
expect_status 0 "the same seed again" $S run $SMALL --set layout_rounds=4 --set schedule_seed=7 \
    -q -o "$SCRATCH/b.json"
[ "$(order "$SCRATCH/a.json")" = "$(order "$SCRATCH/b.json")" ] && pass ||
    fail "seed 7 drew in two orders: $(order "$SCRATCH/a.json") and $(order "$SCRATCH/b.json")"
differs=0
for seed in 8 9 10 11; do
    $S run $SMALL --set layout_rounds=4 --set schedule_seed=$seed -q -o "$SCRATCH/s$seed.json" \
        >/dev/null 2>&1 || fail "seed $seed: the run failed"
    [ "$(order "$SCRATCH/s$seed.json")" != "$(order "$SCRATCH/a.json")" ] && differs=1
done
[ "$differs" -eq 1 ] && pass || fail "four other seeds all drew in seed 7's order"

# a first run that writes back into its table: the reference gets a table of its own (its
# write-backs would change the first run's pages under it)
expect_status 0 "the reference of a run that writes back" $S run --set table_size=4M \
    --set pool_size=1M --set op=vacuum --set policy=clock --set writeback=evict \
    --set hint_bits=unset --set min_scan_ms=0 --set warmup=0 --set repetitions=8 \
    --set layout_rounds=2 -o "$SCRATCH/w.json"
out_contains "noise floor"
check "every check held, the reference's too" jq -e '.complete != false and
    (.runs | all(.validation.ok))' "$SCRATCH/w.json"

# a pool larger than the table keeps copies of one page in several buffers: a victim's
# write-back may be of the page about to be copied, whose state must then be read after it (the
# reference, which halved the first run's scans, found this: 8 scans or fewer failed the pool
# check, blocked or interleaved, before it was fixed)
expect_status 0 "one scan of statements and write-backs in a pool larger than the table" \
    $S run "$top_srcdir/configs/experiments/x4500-bigtable-select-vacuum.ini" \
    --set table_size=4M --set min_scan_ms=0 --set repetitions=1 --set schedule=blocked -q

expect_status 0 "layout fixed" $S run $SMALL --set layout=fixed -o "$SCRATCH/f.json"
check "fixed: one layout, no draws" jq -e '.schedule.layout.kind == "fixed" and
    .schedule.layout.layouts == 1 and .schedule.layout.rounds_per_layout == null and
    ([.runs[].scans[].layout] | all(. == 0)) and (.runs | all(.layouts | length == 1)) and
    .analysis.layouts == 1' "$SCRATCH/f.json"
out_contains "layouts: fixed, one allocation per run"

expect_status 2 "an unknown layout" $S run $SMALL --set layout=colour
err_is_one_line_containing '"colour" is not a known layout (known: random, fixed, hugepages)'
expect_status 2 "layout_rounds below 2" $S run $SMALL --set layout_rounds=1
err_is_one_line_containing 'layout_rounds: "1" is out of range'
finish
