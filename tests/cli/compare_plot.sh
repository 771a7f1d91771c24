#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# compare_plot.sh: `scanbench compare` on the stored fixtures tests/data/report-{a,b}.json (the
# table with "*", "~" and the runs with no partner; --json), every kind of bad report (exit 2,
# one line naming the file), reports gzip-compressed (read by compare and plot, written by run
# -o NAME.gz, a truncated or plain one refused), and the `plot` checks that need no gnuplot: a
# missing gnuplot is named with its Debian package. The drawing itself is tests/cli/plot.sh (skipped without gnuplot).
. "$top_srcdir/tests/lib.sh"
S=$SCANBENCH
A="$top_srcdir/tests/data/report-a.json"
B="$top_srcdir/tests/data/report-b.json"

command -v jq >/dev/null || { echo "jq is missing (Debian: jq)" >&2; exit 99; }

expect_status 0 "compare A B" $S compare "$A" "$B"
check "nothing on stderr" [ ! -s "$SCRATCH/err" ]
out_contains "A = $A (host host-a, AMD EPYC 7B13, 2025-03-01T10:00:00Z)"
out_contains "B = $B (host host-b"
out_contains "count clock 256KB memcpy table 1MB"
out_contains "   1.600 [1.250, 2.500] +   0.0079 *"
out_contains "   1.024 [0.512, 2.048] ?   0.8413 ~"
out_contains "A n/a  X 65.000"
out_contains "runs with no partner:"
out_contains "  A: fixture pool_size=512K policy=clock"
out_contains "  B: fixture pool_size=512K policy=ring"

expect_status 0 "compare --json" $S compare --json "$A" "$B"
J="$SCRATCH/out"
check "--json: the compare schema" jq -e '.schema == "scanbench-compare" and .schema_version == 2' "$J"
check "--json: two pairs, one significant" jq -e '[.pairs[] | .significant] == [true, false]' "$J"
check "--json: exact p of the separated pair" jq -e '.pairs[0].exact and
    (.pairs[0].p - 2 / 252 | fabs) < 1e-9 and (.pairs[0].ratio - 1.6 | fabs) < 1e-9' "$J"
check "--json: unmatched" jq -e '[.unmatched[] | [.report, .name]] ==
    [[1, "fixture pool_size=512K policy=ring"], [0, "fixture pool_size=512K policy=clock"]]' "$J"
check "--json: counters of one side only" jq -e '.pairs[0].counters.l2_writeback_per_page ==
    {"a": null, "b": 65, "difference": null}' "$J"

# the same report rewritten by another JSON tool (integers where scanbench wrote 10000.0)
sed 's/"\(median\|best\|max\)": \([0-9]*\)\.0,/"\1": \2,/' "$A" >"$SCRATCH/rewritten.json"
check "rewritten report has integer medians" grep -q '"median": 10000,' "$SCRATCH/rewritten.json"
expect_status 0 "compare a rewritten report" $S compare --json "$SCRATCH/rewritten.json" "$B"
check "rewritten: the same pairs" jq -e '[.pairs[] | .a.median] == [10000, 25000] and
    (.pairs[0].ratio - 1.6 | fabs) < 1e-9' "$J"

# reports gzip-compressed (a name ending in .gz): compare reads them as the plain files, run
# writes one (its CSV beside it plain, r.csv); a truncated or damaged one is bad input
gzip -c "$A" >"$SCRATCH/a.json.gz"
expect_status 0 "compare a .gz report" $S compare --json "$SCRATCH/a.json.gz" "$B"
check "compare .gz: the same pairs" jq -e '[.pairs[] | .a.median] == [10000, 25000] and
    (.pairs[0].ratio - 1.6 | fabs) < 1e-9' "$J"
expect_status 0 "run -o r.json.gz" $S run --set table_size=1M --set repetitions=2 \
    --set min_scan_ms=0 --set warmup=0 -q -o "$SCRATCH/r.json.gz"
check "run -o r.json.gz: gzip data" gzip -t "$SCRATCH/r.json.gz"
check "run -o r.json.gz: a report inside" [ "$(gzip -dc "$SCRATCH/r.json.gz" | jq -r .schema)" = scanbench-report ]
check "run -o r.json.gz: its CSV as r.csv" [ -s "$SCRATCH/r.csv" ]
expect_status 0 "compare run's .gz report" $S compare "$SCRATCH/r.json.gz" "$SCRATCH/r.json.gz"
out_contains "A = $SCRATCH/r.json.gz"
head -c 100 "$SCRATCH/a.json.gz" >"$SCRATCH/cut.json.gz"
expect_status 2 "a truncated .gz" $S compare "$A" "$SCRATCH/cut.json.gz"
err_is_one_line_containing "$SCRATCH/cut.json.gz: not a whole gzip file (truncated: it ends inside its compressed data)"
cp "$A" "$SCRATCH/plain.json.gz"
expect_status 2 "plain JSON named .gz" $S plot "$SCRATCH/plain.json.gz" -o "$SCRATCH/p.png"
err_is_one_line_containing "$SCRATCH/plain.json.gz: not a whole gzip file (corrupt: incorrect header check)"

# bad input: exit 2, one line naming the file
expect_status 2 "one report" $S compare "$A"
err_is_one_line_containing "compare needs at least two reports"
expect_status 2 "no report" $S compare
err_is_one_line_containing "compare needs at least two reports"
expect_status 2 "unknown option" $S compare "$A" "$B" --csv
err_is_one_line_containing "--csv: unknown option"

echo "[experiment]" >"$SCRATCH/not-a-report.ini"
expect_status 2 "not JSON" $S compare "$A" "$SCRATCH/not-a-report.ini"
err_is_one_line_containing "$SCRATCH/not-a-report.ini:1:"
check "not JSON: says so" grep -q "not a scanbench report" "$SCRATCH/err"

echo '{"schema": "something-else", "runs": []}' >"$SCRATCH/other.json"
expect_status 2 "another schema" $S compare "$SCRATCH/other.json" "$B"
err_is_one_line_containing "$SCRATCH/other.json: not a scanbench report"

head -c 2000 "$A" >"$SCRATCH/truncated.json"
expect_status 2 "truncated" $S compare "$A" "$SCRATCH/truncated.json"
err_is_one_line_containing "$SCRATCH/truncated.json:"
check "truncated: says so" grep -q "truncated" "$SCRATCH/err"

sed 's/"schema_version": 1,/"schema_version": 7,/' "$B" >"$SCRATCH/v7.json"
expect_status 2 "another schema version" $S compare "$A" "$SCRATCH/v7.json"
err_is_one_line_containing "$SCRATCH/v7.json: report schema version 7, this scanbench reads versions 1 to 4"

expect_status 2 "missing file" $S compare "$A" "$SCRATCH/absent.json"
err_is_one_line_containing "$SCRATCH/absent.json"

# issue 15: a directory is not "truncated?"; no repetitions give no p; 1e308 MB/s in %g form
expect_status 2 "a directory" $S compare "$A" "$SCRATCH"
err_is_one_line_containing "$SCRATCH: is a directory, not a report"
# issue 49: what is wrong, said without reading on: a file of NULs (2GB, sparse: "truncated?"
# after reading all of it), a report padded with NULs ("end of file expected near end of
# file"), a /proc file (its size 0: "empty"), an empty file, plain or gzip-compressed
if truncate -s 2G "$SCRATCH/zeros.json" 2>/dev/null; then
    expect_status 2 "2GB of NULs" $S compare "$A" "$SCRATCH/zeros.json"
    err_is_one_line_containing "$SCRATCH/zeros.json: contains a NUL byte at offset 0: not a JSON report"
    rm -f "$SCRATCH/zeros.json"
fi
cp "$A" "$SCRATCH/padded.json"
head -c 4096 /dev/zero >>"$SCRATCH/padded.json"
expect_status 2 "a report padded with NULs" $S compare "$A" "$SCRATCH/padded.json"
err_is_one_line_containing "$SCRATCH/padded.json: contains a NUL byte at offset $(wc -c <"$A" | tr -d ' '): not a JSON report"
gzip -c "$SCRATCH/padded.json" >"$SCRATCH/padded.json.gz"
expect_status 2 "a .gz report padded with NULs" $S compare "$A" "$SCRATCH/padded.json.gz"
err_is_one_line_containing "$SCRATCH/padded.json.gz: contains a NUL byte at offset $(wc -c <"$A" | tr -d ' '): not a JSON report"
if [ -r /proc/self/status ]; then
    expect_status 2 "a /proc file" $S compare "$A" /proc/self/status
    err_is_one_line_containing "/proc/self/status:1:"
    check "a /proc file: not called empty" grep -q "not a scanbench report ('\[' or '{' expected near 'Name')" "$SCRATCH/err"
fi
: >"$SCRATCH/empty.json"
expect_status 2 "an empty file" $S compare "$A" "$SCRATCH/empty.json"
err_is_one_line_containing "$SCRATCH/empty.json: empty (not a scanbench report)"
gzip -c "$SCRATCH/empty.json" >"$SCRATCH/empty.json.gz"
expect_status 2 "an empty .gz" $S compare "$A" "$SCRATCH/empty.json.gz"
err_is_one_line_containing "$SCRATCH/empty.json.gz: empty (not a scanbench report)"
jq '.runs[].repetitions = [] | .runs[2].mbps.median = 1e308' "$B" >"$SCRATCH/norep.json"
expect_status 0 "compare runs without repetitions" $S compare "$A" "$SCRATCH/norep.json"
out_contains "     n/a ~"
out_contains "1e+308"
out_contains "p n/a: a run without repetitions has nothing to test."
check "no p of 1.0000" sh -c "! grep -q '1\.0000' '$SCRATCH/out'"
check "no 300-digit number" sh -c "! grep -Eq '[0-9]{40}' '$SCRATCH/out'"

# issue 25, items 10 and 11: a report whose summaries disagree with its own timed scans, or
# whose sizes are impossible, is refused with the field named (plot drew a footprint of 0
# through six lines of gnuplot's errors)
expect_status 0 "a small run to edit" $S run --set table_size=1M --set repetitions=3 \
    --set min_scan_ms=0 --set warmup=0 -q -o "$SCRATCH/small.json"
# issue 48: each report's own comparisons beside the per-run table, as its run table shows
# them; a report without its analysis has it made as run makes it (the same cells)
jq 'del(.analysis)' "$SCRATCH/small.json" >"$SCRATCH/bare.json"
expect_status 0 "compare --json: the effects" $S compare --json "$SCRATCH/small.json" "$SCRATCH/bare.json"
check "--json: one effect per op, each in both reports" jq -e '[.effects[] | .comparison] ==
    ["count ring 256KB / clock 16MB", "vacuum ring 256KB / clock 16MB"] and
    all(.effects[]; (.reports | length) == 2 and .reports[0].call == .reports[1].call and
        ((.reports[0].ratio / .reports[1].ratio) - 1 | fabs) < 1e-9)' "$J"
expect_status 0 "compare: the effects table" $S compare "$SCRATCH/small.json" "$SCRATCH/bare.json"
out_contains "each report's own comparisons, as its run table shows them:"
check "the effects: a row per op, the same cell in both columns" awk -F' [|] ' '
    /^comparison \(op a \/ b\)/ { on = 1; next }
    on && /^(count|vacuum) ring 256KB \/ clock 16MB / { rows++; if ($2 != $3 || $2 !~ /x \[/) bad = 1 }
    END { exit !(rows == 2 && !bad) }' "$SCRATCH/out"
jq '.runs[0].mbps.median = 1e12' "$SCRATCH/small.json" >"$SCRATCH/median.json"
expect_status 2 "a median beside its scans" $S compare "$SCRATCH/small.json" "$SCRATCH/median.json"
err_is_one_line_containing "run 0: \"mbps\" \"median\" 1e+12 lies outside its own timed scans' MB/s"
jq '.runs[0].footprint = 0' "$SCRATCH/small.json" >"$SCRATCH/fp0.json"
expect_status 2 "plot a footprint of 0" $S plot "$SCRATCH/fp0.json" -o "$SCRATCH/fp0.png"
err_is_one_line_containing "run 0: \"footprint\" is 0: not a positive number"
jq '.runs[0].bytes_per_scan = 0' "$SCRATCH/small.json" >"$SCRATCH/bps.json"
expect_status 2 "bytes_per_scan of 0" $S compare "$SCRATCH/small.json" "$SCRATCH/bps.json"
err_is_one_line_containing "run 0: \"bytes_per_scan\" is 0: not a number of bytes from 1 to 2^50 (1PB)"

# issue 49: figures no machine makes are refused, by every command that reads reports, naming
# the file, the field and the value: a repetition of 5e-324 s or 1e308 s, a scan's seconds,
# 1e308 bytes a scan, an L2 of -5, 1e308 or "x" bytes (plot dropped its marker), a line of 3
edit() { # edit NAME JQ: the small report edited into $SCRATCH/NAME.json
    jq "$2" "$SCRATCH/small.json" >"$SCRATCH/$1.json"
}
edit tiny '.runs[0].repetitions[1] = 5e-324'
expect_status 2 "a repetition of 5e-324 s" $S compare "$SCRATCH/small.json" "$SCRATCH/tiny.json"
err_is_one_line_containing "$SCRATCH/tiny.json: run 0: repetition 1 is 4.94066e-324: not a time from 1 ns to a day"
edit huge '.runs[1].repetitions[0] = 1e308'
expect_status 2 "plot a repetition of 1e308 s" env PATH=/nonexistent $S plot "$SCRATCH/huge.json" -o "$SCRATCH/h.png"
err_is_one_line_containing "$SCRATCH/huge.json: run 1: repetition 0 is 1e+308: not a time from 1 ns to a day"
edit scan '.runs[0].scans[2].seconds = 1e308'
expect_status 2 "a scan of 1e308 s" $S compare "$SCRATCH/small.json" "$SCRATCH/scan.json"
err_is_one_line_containing "$SCRATCH/scan.json: run 0: scan 2: \"seconds\" is 1e+308: not a time from 1 ns to a day"
edit bytes '.runs[0].bytes_per_scan = 1e308'
expect_status 2 "1e308 bytes a scan" $S compare "$SCRATCH/small.json" "$SCRATCH/bytes.json"
err_is_one_line_containing "$SCRATCH/bytes.json: run 0: \"bytes_per_scan\" is 1e+308: not a number of bytes from 1 to 2^50 (1PB)"
for l2 in -5 1e308 '"x"'; do
    edit l2 "(.context.caches[] | select(.level == \"L2\") | .size.value) = $l2"
    expect_status 2 "plot an L2 of $l2" env PATH=/nonexistent $S plot "$SCRATCH/l2.json" -o "$SCRATCH/l2.png"
    err_is_one_line_containing "$SCRATCH/l2.json: context.caches[1].size.value is $(echo "$l2" | sed 's/1e308/1e+308/'): not a cache size from 256B to 64GB (or null)"
done
edit line '.context.caches[0].line.value = 3'
expect_status 2 "a line of 3 bytes" $S compare "$SCRATCH/small.json" "$SCRATCH/line.json"
err_is_one_line_containing "$SCRATCH/line.json: context.caches[0].line.value is 3: not a power of two from 16 to 512 bytes (or null)"
edit threads '.runs[0].threads = 100000'
expect_status 2 "100000 scanners" $S compare "$SCRATCH/small.json" "$SCRATCH/threads.json"
err_is_one_line_containing "$SCRATCH/threads.json: run 0: \"threads\" is 100000: more than scanbench runs (at most 256)"
jq '.runs[1].pool_size = -1' "$SCRATCH/small.json" >"$SCRATCH/pool.json"
expect_status 2 "a pool of -1" $S compare "$SCRATCH/small.json" "$SCRATCH/pool.json"
err_is_one_line_containing "run 1: \"pool_size\" is -1: not a whole number"

# plot: a report with no runs, -o twice, refused before gnuplot is looked for
jq '.runs = []' "$A" >"$SCRATCH/zero.json"
expect_status 2 "plot a report with no runs" env PATH=/nonexistent $S plot "$SCRATCH/zero.json" -o "$SCRATCH/z.png"
err_is_one_line_containing "$SCRATCH/zero.json: the report has no runs: nothing to plot"
expect_status 2 "plot -o twice" $S plot "$A" -o "$SCRATCH/1.png" -o "$SCRATCH/2.png"
err_is_one_line_containing "-o $SCRATCH/2.png: -o given twice (already -o $SCRATCH/1.png)"

# plot reads a .gz report (it gets as far as looking for gnuplot)
expect_status 2 "plot a .gz report without gnuplot" env PATH=/nonexistent $S plot "$SCRATCH/a.json.gz" -o "$SCRATCH/x.png"
err_is_one_line_containing "gnuplot-nox"

# plot without gnuplot on PATH: bad input naming the package; nothing written
expect_status 2 "plot without gnuplot" env PATH=/nonexistent $S plot "$A" -o "$SCRATCH/x.png"
err_is_one_line_containing "gnuplot-nox"
check "no plot written" [ ! -e "$SCRATCH/x.png" ]
expect_status 2 "plot a bad report" $S plot "$SCRATCH/v7.json" -o "$SCRATCH/x.png"
err_is_one_line_containing "$SCRATCH/v7.json: report schema version 7"
expect_status 2 "plot without a report" $S plot
err_is_one_line_containing "plot needs a report"
finish
