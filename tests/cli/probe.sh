#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# probe.sh: `scanbench probe` end to end, on structure only (the host's speeds are never
# asserted): --quick writes a machine file to stdout or, with -o, a new file, with this host's
# geometry and a [costs] section whose every value has a source saying "scanbench probe on";
# the file loads as a machine (a run with counters=sim on it, predicted, with the report's fit);
# a stdout that cannot be written (/dev/full): exit 1, one line, the file kept under $TMPDIR;
# a name that exists and an unknown argument are bad input (exit 2, one line).
. "$top_srcdir/tests/lib.sh"
S=$SCANBENCH
KEYS="clock_ghz l1d_hit_cycles l2_hit_cycles mem_latency_ns mem_read_gbps mem_write_gbps
nt_write_gbps prefetch_hidden mlp"

command -v jq >/dev/null || { echo "jq is missing (Debian: jq)" >&2; exit 99; }

expect_status 0 "probe --quick to stdout" $S probe --quick
out_contains "[costs]"
out_contains "[L1d]"

F="$SCRATCH/host.ini"
expect_status 0 "probe --quick -o" $S probe --quick -o "$F"
check "the machine file is written" test -s "$F"
# long values go on over indented lines: one line per key
awk '/^[ \t]/ { sub(/^[ \t]+/, ""); line = line " " $0; next }
     NR > 1 { print line } { line = $0 } END { print line }' "$F" >"$SCRATCH/joined"
for k in $KEYS; do
    check "$k has a value" grep -qE "^$k = [0-9.e+-]+$" "$SCRATCH/joined"
    check "$k has its source" grep -qE "^${k}_source = scanbench probe on .*, [0-9]{4}-[0-9]{2}-[0-9]{2}: " "$SCRATCH/joined"
done
# the write-allocate rule the probe measured, and the sweep's effective sizes, each sourced
check "write_allocate, measured" grep -qE "^write_allocate = (nt_stores|full_line)$" "$SCRATCH/joined"
check "write_allocate has its source" grep -qE "^write_allocate_source = scanbench probe on " \
    "$SCRATCH/joined"
check "the sweep in the comments" grep -q "^; the sweep" "$F"
check "every effective size has its source" test "$(grep -c '^effective_size = ' "$SCRATCH/joined")" \
    = "$(grep -c '^effective_size_source = scanbench probe on ' "$SCRATCH/joined")"
if grep -q '^\[L3\]' "$F"; then
    check "l3_hit_cycles has its source" grep -qE "^l3_hit_cycles_source = scanbench probe on " \
        "$SCRATCH/joined"
fi

# it loads: a small run with the cache model on it
expect_status 0 "a run on the probe's machine" $S run --set table_size=1M --set pool_size=256K \
    --set repetitions=2 --set warmup=0 --set counters=sim --set machine="$F" \
    -o "$SCRATCH/r.json"
check "the run's machine is the probe's" jq -e '.runs | all(.counters.machine.name == "host" and
    (.counters.machine.source | contains("scanbench probe")))' "$SCRATCH/r.json"
# this host's own machine predicts with its own core (no calibration), and the report fits it
check "the run is predicted" jq -e '.runs | all(.predicted.mbps > 0)' "$SCRATCH/r.json"
# the context records the effective sizes the file gives (null with a reason where it gives none)
n_eff=$(grep -c '^effective_size = ' "$SCRATCH/joined")
check "the context's effective sizes are the file's" jq -e --argjson n "$n_eff" \
    '[.context.caches[].effective | select(.value != null)] | length == $n' "$SCRATCH/r.json"
check "an effective size not given says why" jq -e '.context.caches | all(.effective.value != null
    or (.effective.source | startswith("not measured")))' "$SCRATCH/r.json"
check "the fit: every run, a verdict" jq -e '.fit.n == (.runs | length) and (.fit.verdict |
    IN("explained", "not explained", "not judged")) and (.fit.text | length > 0)' "$SCRATCH/r.json"
out_contains "fit on this host: predicted MB/s"

# stdout that cannot take the machine file (issue 49): exit 1, one line, the file kept under
# $TMPDIR
mkdir "$SCRATCH/keep"
expect_status 1 "probe > /dev/full" env TMPDIR="$SCRATCH/keep" sh -c "exec \"$S\" probe --quick >/dev/full"
K=$(ls -d "$SCRATCH"/keep/scanbench-kept-* 2>/dev/null)
check "one line on stderr, naming the kept file" test "$(grep '^scanbench:' "$SCRATCH/err")" = \
    "scanbench: cannot write the output (stdout): No space left on device; the machine file is kept as $K/probe.ini"
check "the machine file is kept" grep -q '^\[costs\]' "$K/probe.ini"

expect_status 2 "an existing file" $S probe --quick -o "$F"
err_is_one_line_containing "exists"
expect_status 2 "an unknown argument" $S probe --fast
err_is_one_line_containing "--fast: unknown argument"
expect_status 2 "-o without a name" $S probe -o
err_is_one_line_containing "-o needs a file name"
finish
