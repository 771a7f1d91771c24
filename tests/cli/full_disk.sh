#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# full_disk.sh: finished results survive a disk that fills, or a directory that goes, under the
# write (issue 25, items 1 and 2). On a 64KB tmpfs, filled:
# - run -o: exit 1, the table on stdout, the report and its CSV kept whole in a new
#   $TMPDIR/scanbench-kept-XXXXXX, stderr's last line naming it; with $TMPDIR full too, exit 1
#   and the line says the report is lost, the table still on stdout; -o r.json.gz the same, the
#   kept report gzip data and its CSV plain;
# - reproduce -o DIR: exit 1, every table on stdout, the reports and reproduction.txt kept in
#   $TMPDIR/scanbench-kept-XXXXXX, one line saying so and one saying DIR does not hold them;
#   with $TMPDIR full too, the line says what is lost, the tables still on stdout;
# - probe -o: exit 1, the machine file kept the same way, one line naming it (issue 49);
# - run -o DIR/r.json with DIR removed at the write (a test pause): kept the same way.
# Needs root to mount the tmpfs (skipped otherwise).
. "$top_srcdir/tests/lib.sh"
set -m # the background job keeps its signals
command -v jq >/dev/null || { echo "jq is missing (Debian: jq)"; exit 77; }
S=$SCANBENCH
SMALL=(--set table_size=1M --set pool_size=256K --set repetitions=2 --set warmup=0
       --set min_scan_ms=0)
REPRO=(tom-lane-xeon --quick --set table_size=4M --set min_scan_ms=0 --set counters=none
       --set repetitions=2)
FULL="$SCRATCH/full"
KEEP="$SCRATCH/keep"

mkdir "$FULL" "$KEEP"
if [ "$(id -u)" -ne 0 ] || ! mount -t tmpfs -o size=64k tmpfs "$FULL" 2>/dev/null; then
    echo "a full disk: skipped (needs root and a tmpfs mount)" >&2
    exit 77
fi
trap 'umount "$FULL" 2>/dev/null' EXIT
dd if=/dev/zero of="$FULL/fill" bs=4k count=64 2>/dev/null # until it is full
[ "$(df -k --output=avail "$FULL" | tail -1 | tr -d ' ')" -eq 0 ] && pass ||
    fail "the tmpfs is not full: $(df -k "$FULL" | tail -1)"

# kept_dir: the one keeping directory under $KEEP (empty when there is none or several)
kept_dir() {
    local d
    d=$(ls -d "$KEEP"/scanbench-kept-* 2>/dev/null)
    [ "$(echo "$d" | grep -c .)" -eq 1 ] && echo "$d"
}

# --- run -o on the full disk ---
TMPDIR="$KEEP" expect_status 1 "run -o on a full disk" $S run -q "${SMALL[@]}" -o "$FULL/r.json"
out_contains "SELECT COUNT(*)"
K=$(kept_dir)
[ -n "$K" ] && pass || fail "run: no keeping directory in $KEEP: $(ls "$KEEP")"
jq -e '.incomplete == false and (.runs | length) > 0' "$K/r.json" >/dev/null && pass ||
    fail "run: the kept report is not whole"
[ "$(wc -l <"$K/r.csv")" -ge 3 ] && pass || fail "run: no CSV beside the kept report"
tail -1 "$SCRATCH/err" | grep -qF "cannot write $FULL/r.json: No space left on device; the report is kept as $K/r.json" &&
    pass || fail "run: stderr does not name the report and where it is kept: $(cat "$SCRATCH/err")"
[ "$(ls -A "$FULL")" = fill ] && pass || fail "run: left on the full disk: $(ls -A "$FULL")"
rm -rf "$KEEP"/*

# --- run -o r.json.gz on the full disk: the same, the kept report compressed ---
TMPDIR="$KEEP" expect_status 1 "run -o .gz on a full disk" $S run -q "${SMALL[@]}" -o "$FULL/r.json.gz"
K=$(kept_dir)
gzip -t "$K/r.json.gz" 2>/dev/null && [ "$(gzip -dc "$K/r.json.gz" | jq .incomplete)" = false ] && pass ||
    fail "run .gz: the kept report is not whole gzip: $(ls "$K")"
[ "$(wc -l <"$K/r.csv")" -ge 3 ] && pass || fail "run .gz: no plain CSV beside the kept report"
tail -1 "$SCRATCH/err" | grep -qF "cannot write $FULL/r.json.gz: No space left on device; the report is kept as $K/r.json.gz" &&
    pass || fail "run .gz: stderr does not name the report and where it is kept: $(cat "$SCRATCH/err")"
[ "$(ls -A "$FULL")" = fill ] && pass || fail "run .gz: left on the full disk: $(ls -A "$FULL")"
rm -rf "$KEEP"/*

# --- run -o with nowhere to keep it ---
TMPDIR="$FULL" expect_status 1 "run -o, TMPDIR full too" $S run -q "${SMALL[@]}" -o "$FULL/r.json"
out_contains "SELECT COUNT(*)"
err_is_one_line_containing "the report is lost: "
[ "$(ls -A "$FULL")" = fill ] && pass || fail "run, lost: left on the full disk: $(ls -A "$FULL")"

# --- probe -o on the full disk: the machine file kept, one line saying where ---
TMPDIR="$KEEP" expect_status 1 "probe -o on a full disk" $S probe --quick -o "$FULL/m.ini"
K=$(kept_dir)
[ -n "$K" ] && grep -q '^\[costs\]' "$K/m.ini" && pass ||
    fail "probe: the machine file is not kept: $(ls -R "$KEEP")"
[ "$(grep -c '^scanbench:' "$SCRATCH/err")" -eq 1 ] && tail -1 "$SCRATCH/err" |
    grep -qF "cannot write $FULL/m.ini: No space left on device; the machine file is kept as $K/m.ini" &&
    pass || fail "probe: stderr does not say where, in one line: $(grep scanbench: "$SCRATCH/err")"
[ "$(ls -A "$FULL")" = fill ] && pass || fail "probe: left on the full disk: $(ls -A "$FULL")"
rm -rf "$KEEP"/*

# --- reproduce -o DIR on the full disk ---
TMPDIR="$KEEP" expect_status 1 "reproduce on a full disk" $S reproduce "${REPRO[@]}" -o "$FULL/rep"
out_contains "== tom-lane-xeon"
K=$(kept_dir)
[ -n "$K" ] && pass || fail "reproduce: no keeping directory in $KEEP: $(ls "$KEEP")"
jq -e '.incomplete == false' "$K/tom-lane-xeon.json" >/dev/null && pass ||
    fail "reproduce: the kept report is not whole"
cmp -s "$SCRATCH/out" "$K/reproduction.txt" && pass ||
    fail "reproduce: reproduction.txt is not kept as stdout had it"
grep -qF "the results from here on are kept in $K" "$SCRATCH/err" && pass ||
    fail "reproduce: stderr does not say where: $(grep -v round "$SCRATCH/err")"
tail -1 "$SCRATCH/err" | grep -qF "$FULL/rep does not hold every result" && pass ||
    fail "reproduce: the last line does not say DIR is short: $(tail -1 "$SCRATCH/err")"
rm -rf "$KEEP"/* "$FULL/rep"

# --- reproduce with nowhere to keep anything ---
TMPDIR="$FULL" expect_status 1 "reproduce, TMPDIR full too" $S reproduce "${REPRO[@]}" -o "$FULL/rep"
out_contains "== tom-lane-xeon"
tail -1 "$SCRATCH/err" | grep -qF "tom-lane-xeon.json is lost: " && pass ||
    fail "reproduce, lost: the last line does not say what: $(tail -1 "$SCRATCH/err")"
[ -z "$(ls -A "$FULL/rep")" ] && [ "$(ls -A "$FULL")" = "fill
rep" ] && pass || fail "reproduce, lost: left behind: $(ls -AR "$FULL")"
umount "$FULL"

# --- run -o DIR/r.json, DIR removed at the write ---
mkdir "$SCRATCH/D"
: >"$SCRATCH/err"
SCANBENCH_TEST_PAUSE=write:60 TMPDIR="$KEEP" $S run -q "${SMALL[@]}" -o "$SCRATCH/D/r.json" \
    >"$SCRATCH/out" 2>"$SCRATCH/err" &
pid=$!
if wait_for_stderr "$SCRATCH/err" 'test pause: write' $pid; then
    rm -rf "$SCRATCH/D"
    kill -ALRM $pid
else fail "the write pause never came: $(cat "$SCRATCH/err")"; fi
wait $pid
[ $? -eq 1 ] && pass || fail "DIR removed: exit status, want 1: $(cat "$SCRATCH/err")"
K=$(kept_dir)
[ -n "$K" ] && jq -e '.incomplete == false' "$K/r.json" >/dev/null && pass ||
    fail "DIR removed: the report is not kept: $(cat "$SCRATCH/err")"
grep -qF "the report is kept as $K/r.json" "$SCRATCH/err" && pass ||
    fail "DIR removed: stderr does not say where: $(cat "$SCRATCH/err")"
finish
