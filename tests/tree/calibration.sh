#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# calibration.sh: the one calibration per machine (issue 19). Across configs/experiments, a
# machine's core factor is fitted to ONE figure of the thread: no two files (and no file twice)
# give `calibrate` for the same machine; each calibrate names a figure of its own [thread]
# (scanbench refuses one that does not: exit 2, one line); a run with counters=sim carries the
# `predicted` block labelled "predicted", and with a calibration it says so (a factor, or why
# none could be found).
. "$top_srcdir/tests/lib.sh"
S=$SCANBENCH
command -v jq >/dev/null || { echo "jq is missing (Debian: jq)" >&2; exit 99; }

# machine of each calibrating file, one per line
for f in "$top_srcdir"/configs/experiments/*.ini; do
    n=$(grep -c '^calibrate *=' "$f")
    [ "$n" -le 1 ] && pass || fail "$f: $n calibrate lines (one figure per machine)"
    [ "$n" -eq 1 ] || continue
    m=$(sed -n 's/^machine *= *//p' "$f" | head -n 1)
    [ -n "$m" ] && pass || fail "$f: calibrate without a machine"
    echo "$m $(basename "$f")" >>"$SCRATCH/calibrations"
done
dups=$(cut -d' ' -f1 "$SCRATCH/calibrations" | sort | uniq -d)
[ -z "$dups" ] && pass || fail "machines calibrated more than once: $dups ($(cat "$SCRATCH/calibrations"))"
grep -q '^x4500 x4500-memtable.ini$' "$SCRATCH/calibrations" && pass ||
    fail "x4500 is calibrated in x4500-memtable.ini (count clock 16MB)"

# a calibrate naming no figure of its file, or given with no machine: refused
cat >"$SCRATCH/bad.ini" <<'INI'
[experiment]
name = bad
table_size = 2M
[thread]
who = a test
table = a test's
machine = x4500
figure = count clock 16MB: 1000 MB/s
calibrate = count clock 680KB
INI
SMALL="--set pool_size=1M --set repetitions=1 --set warmup=0"
expect_status 2 "calibrate naming no figure" $S run "$SCRATCH/bad.ini" $SMALL
err_is_one_line_containing 'calibrate: "count clock 680KB" is not a figure of the section'
sed -i 's/^machine = x4500$//' "$SCRATCH/bad.ini"
sed -i 's/680KB$/16MB/' "$SCRATCH/bad.ini"
expect_status 2 "calibrate without a machine" $S run "$SCRATCH/bad.ini" $SMALL
err_is_one_line_containing 'calibrate: no machine to calibrate'

# scanners (the scans the thread's figures ran at once): a whole number from 1 to 64, with its
# source and a machine; refused otherwise (exit 2, one line)
cat >"$SCRATCH/scan.ini" <<'INI'
[experiment]
name = scan
table_size = 2M
[thread]
who = a test
table = a test's
machine = x4500
figure = count clock 16MB: 1000 MB/s
scanners = 4
INI
expect_status 2 "scanners without a source" $S run "$SCRATCH/scan.ini" $SMALL
err_is_one_line_containing 'scanners = 4: no scanners_source'
echo "scanners_source = the thread says so" >>"$SCRATCH/scan.ini"
sed -i 's/^machine = x4500$//' "$SCRATCH/scan.ini"
expect_status 2 "scanners without a machine" $S run "$SCRATCH/scan.ini" $SMALL
err_is_one_line_containing 'scanners = 4: no machine they ran on'
sed -i 's/^scanners = 4$/scanners = 0/' "$SCRATCH/scan.ini"
expect_status 2 "scanners = 0" $S run "$SCRATCH/scan.ini" $SMALL
err_is_one_line_containing '"0" is not a whole number from 1 to 64'
# the thread's GPDB figures: four scanners on the X4500's two memories, in every file of them
for f in x4500-memtable x4500-bigtable x4500-bigtable-select-vacuum luke-experiment1; do
    grep -q '^scanners = 4$' "$top_srcdir/configs/experiments/$f.ini" && pass ||
        fail "$f.ini: scanners = 4 (GPDB's segments, one per core)"
done

# a calibrating run: predicted, labelled; the calibration's run says its factor or why not
cat >"$SCRATCH/cal.ini" <<'INI'
[experiment]
name = cal
table_size = 4M
pool_size = 2M, 128K
op = count
policy = clock
repetitions = 2
warmup = 0
[thread]
who = a test
table = a test's
machine = x4500
figure = count clock 2MB: 1 MB/s
figure = count clock 128KB: 2 MB/s
calibrate = count clock 2MB
INI
expect_status 0 "a calibrating run" $S run "$SCRATCH/cal.ini" --set counters=sim \
    --set machine=x4500 -o "$SCRATCH/cal.json"
check "every run predicted, labelled" jq -e '.runs | all(.predicted.label == "predicted" and
    .predicted.machine == "x4500" and (.predicted.seconds_per_scan.copy_in > 0) and
    (.predicted.op_host_ns_per_page > 0))' "$SCRATCH/cal.json"
check "calibrated at 1 MB/s: a factor, the calibration run at the figure" jq -e '
    .runs | all(.predicted.calibration.figure == "count clock 2MB" and
        .predicted.calibration.factor > 0 and .predicted.calibration.experiment == "cal") and
    (map(select(.predicted.calibration.this_run)) | length == 1 and
        (.[0].predicted.mbps - 1 | fabs) < 1e-6)' "$SCRATCH/cal.json"
out_contains "predicted"
check "one scanner where the thread says nothing" jq -e '.runs | all(.predicted.scanners == 1
    and .predicted.sharing == 1)' "$SCRATCH/cal.json"
# a figure the memory alone cannot reach: no factor, and why
sed -i 's/count clock 2MB: 1 MB\/s/count clock 2MB: 1000000 MB\/s/' "$SCRATCH/cal.ini"
expect_status 0 "an unreachable calibration" $S run "$SCRATCH/cal.ini" --set counters=sim \
    --set machine=x4500 -o "$SCRATCH/cal2.json"
check "no factor, the reason said" jq -e '.runs | all(.predicted.mbps == null and
    .predicted.calibration == null and (.predicted.reason | test("no core factor can")))' \
    "$SCRATCH/cal2.json"
finish
