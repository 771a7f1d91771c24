#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# reproduce.sh: `scanbench reproduce all --quick` end to end: every experiment of the thread
# runs, prints its table and verdict, and writes one report per experiment (with its thread
# figures and verdict) into a new directory that is never reused; with the cache model built,
# the counters are simulated and labelled so; what it needs is said before it starts. Bad
# names and an existing directory: exit 2.
. "$top_srcdir/tests/lib.sh"
S=$SCANBENCH
D="$SCRATCH/repro"
command -v jq >/dev/null || { echo "jq is missing (Debian: jq)" >&2; exit 99; }

# three rounds of one pass each over 16MB tables (--quick's are 64MB): what is tested is every
# experiment's path, not its figures
expect_status 0 "reproduce all --quick" $S reproduce all --quick --set min_scan_ms=0 --set table_size=16M \
    --set repetitions=3 -o "$D"
for name in x4500-memtable x4500-bigtable x4500-bigtable-select-vacuum luke-experiment1 kirkwood-piii tom-lane-xeon gavin-fine gavin-wide pg83-ring; do
    check "$name report written" test -f "$D/$name.json"
    check "$name has thread and verdict" jq -e '.thread.who != "" and (.verdict | has("comparisons"))' "$D/$name.json"
    out_contains "== $name:"
done
# before anything runs, one line with what the reproduction needs, of what, and whether that is
# within --quick's budget or exceeds it; each experiment's line the estimate made again
ESTIMATE="^scanbench: needs about [0-9]+ s: the 3-round minimum of 9 experiments \([0-9]+ timed scans\) about [0-9]+ s, outside the rounds \(tables, validation, the cache model's replays\) about [0-9]+ s for [0-9]+ runs.*; (within --quick's 60 s \(the rounds take what is left\)|exceeds --quick's 60 s: the rounds' minimum is kept, not lowered to fit)$"
said=$(grep -n -m 1 -E -- "$ESTIMATE" "$SCRATCH/err" | cut -d: -f1)
first=$(grep -n -m 1 -E "^scanbench: (emulating|experiment 1/)" "$SCRATCH/err" | cut -d: -f1)
check "the estimate said before anything runs" test "${said:-0}" -ge 1 -a "${said:-0}" -lt "${first:-0}"
check "the estimate said once" test "$(grep -c "needs about" "$SCRATCH/err")" -eq 1
check "each experiment's line with the estimate made again" test "$(grep -cE "^scanbench: experiment [0-9]/9: .*; about [0-9]+ s in all\)$" "$SCRATCH/err")" -eq 9
check "text kept" test -s "$D/reproduction.txt"
out_contains "== overall: of "
out_contains "SELECT COUNT(*)"
check "thread figures beside: 1221 and 3033 MB/s" jq -e '[.thread.figures[].value] == [1221, 1709, 1320, 3033]' "$D/x4500-memtable.json"
check "bigtable figures: 973, 1206, 1059, 1597 and VACUUM after a SELECT, 1608 MB/s" jq -e '[.thread.figures[].value] == [973, 1206, 1059, 1597, 1608]' "$D/x4500-bigtable.json"
check "VACUUM after a SELECT: pg82, one buffer" jq -e '.runs[0].policy == "pg82" and .runs[0].statements[1].footprint_buffers == 1' "$D/x4500-bigtable-select-vacuum.json"
check "bigtable runs are DMA-filled bigtables with a device rate" jq -e '[.runs[] | .bigtable and .io.device_mbps > 0] | all' "$D/x4500-bigtable.json"
check "memtable compares count and vacuum" jq -e '[.verdict.comparisons[].op] == ["count", "vacuum"]' "$D/x4500-memtable.json"
check "elapsed seconds become MB/s (11GB / 101 s)" jq -e '.thread.figures[0].mbps | . > 116 and . < 117' "$D/kirkwood-piii.json"
check "every comparison has a verdict text" jq -e '[.verdict.comparisons[] | .text | length > 0] | all' "$D/pg83-ring.json"
check "sweeps report their knee" jq -e '.verdict.knees | length == 2' "$D/gavin-fine.json"
# issue 19: four columns; the thread's pair scaled to this host (how said, timed in the same
# rounds); the emulated machine's prediction or why not; the attribution; the buffer search
out_contains "thread predicted      here    scaled"
out_contains "scaled = this host measured at the thread's sizes scaled to this host"
check "memtable's pair scaled: the slow one scattered beyond the last level, how said" jq -e '.thread.scaled.available and .thread.scaled.slow.scattered and (.thread.scaled.slow.how | length > 0) and .thread.scaled.fast.thread == "clock 680KB"' "$D/x4500-memtable.json"
check "the scaled slow pool is run in the same rounds" jq -e '.thread.scaled.slow.here as $p | [.runs[] | select(.footprint == .pool_size) | "clock \(.pool_size)"] | length >= 3' "$D/x4500-memtable.json"
check "a sweep with no slow/fast says why nothing is scaled" jq -e '.thread.scaled.available == false and (.thread.scaled.why | length > 0)' "$D/gavin-fine.json"
check "the emulation: predicted, or why not" jq -e '.emulation.machine == "x4500" and (.emulation.available or (.emulation.why | length > 0))' "$D/x4500-memtable.json"
check "predictions labelled, errors and attribution when predicted" jq -e 'if .emulation.available then .emulation.label == "predicted" and (.emulation.errors | length == 4) and ([.emulation.pairs[].attribution | length > 0] | all) else true end' "$D/x4500-memtable.json"
check "the buffer search's share measured for the thread's placements" jq -e '[.buffer_search.runs[] | .search_ns_per_page > 0 and .share > 0] | (length == 4 and all)' "$D/x4500-memtable.json"
out_contains "buffer search (this host, measured"
if jq -e '.emulation.available' "$D/x4500-memtable.json" >/dev/null; then
    out_contains "attribution (emulated x4500, PREDICTED)"
else
    out_contains "predicted = not predicted: "
fi

if $S list | grep -q '^  sim '; then
    # (with --quick the runs only the scaled column needs are timed without the model)
    # the thread's own pools (16MB, 680KB) are modelled; the scaled ones follow this host's L2
    # and L3, and those that are not the thread's own are timed alone (two ops each)
    OWN='[16777216, 696320]'
    check "counters simulated and labelled" jq -e --argjson own "$OWN" '[.runs[] | select(.pool_size as $p | $own | index($p)) | .counters.simulated] | (length == 4 and all)' "$D/x4500-memtable.json"
    check "--quick: the scaled-only runs without the model's replay" jq -e --argjson own "$OWN" '([.thread.scaled.slow.bytes, .thread.scaled.fast.bytes] - $own | unique) as $extra | [.runs[] | select(.pool_size as $p | $extra | index($p)) | .counters.backend == "none"] | (length == 2 * ($extra | length) and all)' "$D/x4500-memtable.json"
    out_contains "SIMULATED"
fi

expect_status 2 "existing directory" $S reproduce tom-lane-xeon --quick -o "$D"
err_is_one_line_containing "$D: File exists"
expect_status 2 "unknown experiment" $S reproduce thumper
err_is_one_line_containing "thumper: unknown experiment (known: gavin-fine, gavin-wide, kirkwood-piii"

f="$SCRATCH/badthread.ini"
printf '%s\n' "[experiment]" "name = x" "[thread]" "figure = count clock 16MB 1221" >"$f"
expect_status 2 "malformed thread figure" $S run "$f"
err_is_one_line_containing "$f:4: figure: \"count clock 16MB 1221\" is not"
# a [thread] section with who only: refused before any run, naming the file and what it lacks
mkdir -p "$SCRATCH/cfg/experiments"
printf '%s\n' "[experiment]" "name = w" "[thread]" "who = x" >"$SCRATCH/cfg/experiments/w.ini"
expect_status 2 "a [thread] with who only" env SCANBENCH_CONFIGS="$SCRATCH/cfg" $S reproduce w --quick
err_is_one_line_containing "$SCRATCH/cfg/experiments/w.ini: [thread]: no table (what the thread's table was)"
printf '%s\n' "[thread]" "colour = blue" >"$f"
expect_status 2 "unknown thread key" $S run "$f"
err_is_one_line_containing "$f:2: colour: unknown key in [thread]"
finish
