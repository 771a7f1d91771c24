#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# sources.sh: the file source and the bigtables end to end: file and memory give the same rows
# and validate every page; the file runs copy with pread (one run per placement and op in a
# sweep over kernels), their scratch directory stays empty (the file never has a name), also
# when a run is ended by SIGTERM or SIGINT; the memory bigtable records its device rate; and bad
# input: an unwritable or missing data_dir, too little disk for the table, pread with memory:
# exit 2, one line naming the input. (Whether DONTNEED evicts is dontneed.sh's.)
. "$top_srcdir/tests/lib.sh"
S=$SCANBENCH
D="$SCRATCH/data"
mkdir "$D" || exit 99
SMALL="--set table_size=4M --set pool_size=1M --set ring_size=256K --set repetitions=2"

command -v jq >/dev/null || { echo "jq is missing (Debian: jq)" >&2; exit 99; }

R="$SCRATCH/same.json"
expect_status 0 "memory and file" $S run $SMALL --set source=memory,file --set data_dir="$D" \
    --set kernel=memcpy,movsb -o "$R"
check "memory runs per kernel, one file run per op and policy" jq -e \
    '([.runs[] | select(.source == "file") | .kernel] == ["pread", "pread", "pread", "pread"]) and
     ([.runs[] | select(.source == "memory") | .kernel] | sort ==
      ["memcpy", "memcpy", "memcpy", "memcpy", "movsb", "movsb", "movsb", "movsb"])' "$R"
check "every run validated every page" jq -e \
    '[.runs[] | .validation.ok and .validation.pages_checked_after_copy == 512 and
      .validation.pages_read_once == 512] | all' "$R"
check "file and memory: the same live rows" jq -e \
    '[.runs[].validation.rows_expected] | unique | length == 1' "$R"
check "file: warm before every timed scan (mincore)" jq -e \
    '[.runs[] | select(.source == "file") | .io.residency.min_resident_before_timed_scan == 1] | all' "$R"
check "file: nameless scratch file in data_dir" jq -e --arg d "$D" \
    '[.runs[] | select(.source == "file") | .io.data_dir == $d and (.io.scratch_file | test("O_TMPFILE|mkstemp"))] | all' "$R"
check "memory: no residency" jq -e '[.runs[] | select(.source == "memory") | .io.residency == null] | all' "$R"
out_contains "source memory"
check "data_dir empty after the run" test -z "$(ls -A "$D")"

R="$SCRATCH/big.json"
expect_status 0 "memory bigtable" $S run $SMALL --set bigtable=yes --set op=count -o "$R"
check "bigtable: device rate and validation" jq -e \
    '[.runs[] | .bigtable and .io.device_mbps > 0 and .validation.ok] | all' "$R"
out_contains "source memory (bigtable)"

# killed mid-run: nothing is left in the data directory (the file never had a name). A
# background job of a script starts with SIGINT ignored: env --default-signal gives it back.
sigs="TERM KILL" envsig=
env --default-signal=INT true 2>/dev/null && sigs="TERM INT KILL" envsig=--default-signal=INT
for sig in $sigs; do
    rm -f "$SCRATCH/kill.err"
    env $envsig $S run --set source=file --set data_dir="$D" --set table_size=64M --set repetitions=1000 \
        --set op=vacuum --set policy=clock >/dev/null 2>"$SCRATCH/kill.err" &
    pid=$!
    n=0
    while ! grep -q "round 1/" "$SCRATCH/kill.err" 2>/dev/null && [ $n -lt 300 ]; do
        sleep 0.1; n=$((n + 1))
    done
    check "SIG$sig: the run had started" grep -q "round 1/" "$SCRATCH/kill.err"
    check "SIG$sig: data_dir empty while it runs" test -z "$(ls -A "$D")"
    kill -"$sig" $pid
    wait $pid
    st=$?
    if [ "$st" -gt 128 ]; then pass; else fail "SIG$sig: exit status $st, want a signal's"; fi
    check "SIG$sig: data_dir empty after" test -z "$(ls -A "$D")"
done

expect_status 2 "missing data_dir" $S run --set source=file --set data_dir="$SCRATCH/nope"
err_is_one_line_containing "--set data_dir=$SCRATCH/nope: data_dir: cannot create a scratch file in $SCRATCH/nope"
: >"$SCRATCH/plain"
expect_status 2 "data_dir is a file" $S run --set source=file --set data_dir="$SCRATCH/plain"
err_is_one_line_containing "data_dir: cannot create a scratch file in $SCRATCH/plain"
if [ "$(id -u)" != 0 ]; then
    mkdir "$SCRATCH/ro" && chmod 555 "$SCRATCH/ro"
    expect_status 2 "unwritable data_dir" $S run --set source=file --set data_dir="$SCRATCH/ro"
    err_is_one_line_containing "data_dir: cannot create a scratch file in $SCRATCH/ro: Permission denied"
fi
f="$SCRATCH/dir.ini"
printf '%s\n' "[experiment]" "source = file" "data_dir = $SCRATCH/nope" >"$f"
expect_status 2 "missing data_dir in a file" $S run "$f"
err_is_one_line_containing "$f:3: data_dir: cannot create a scratch file"
expect_status 2 "too little disk" $S run --set source=file --set bigtable=yes --set data_dir="$D" --set table_size=1000T
err_is_one_line_containing "--set table_size=1000T: table_size: table 1000TB needs more disk than the"
expect_status 2 "pread with memory" $S run --set kernel=pread
err_is_one_line_containing "--set kernel=pread: kernel: pread reads a file: it needs source file"
check "data_dir still empty" test -z "$(ls -A "$D")"
finish
