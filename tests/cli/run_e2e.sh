#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# run_e2e.sh: `scanbench run` end to end on a small table: the table on stdout, the JSON report
# with every documented key, validation ok, sweeps from lists, the kernels experiment, the halves
# of a copy (kernels read and write), 8.1's executor over its pools' buffer structures, a report
# never overwritten, and `topo` / `list`.
. "$top_srcdir/tests/lib.sh"
S=$SCANBENCH
R="$SCRATCH/r.json"
SMALL="--set table_size=4M --set pool_size=1M --set ring_size=256K --set repetitions=2"

command -v jq >/dev/null || { echo "jq is missing (Debian: jq)" >&2; exit 99; }

expect_status 0 "default experiment, small table" $S run $SMALL -o "$R"
out_contains "Operation"
out_contains "SELECT COUNT(*)"
out_contains "VACUUM"
out_contains "clock 1MB"
out_contains "ring 256KB"
out_contains "ratio"
out_contains "MB/s = table bytes scanned"
out_contains "counters: none, not requested"

check "report is scanbench JSON v4" jq -e '.schema == "scanbench-report" and .schema_version == 4' "$R"
check "context keys" jq -e '.context | has("host") and has("cpu_model") and has("caches") and
    has("numa_nodes") and has("kernel_release") and has("compiler") and has("scanbench") and
    has("date") and has("frequency_governor") and has("transparent_hugepages") and
    has("numa_balancing") and has("timer")' "$R"
check "caches carry their source" jq -e '[.context.caches[] | .size.source, .line.source] |
    all(. == "hwloc" or . == "sysfs" or . == "cpuid" or . == "config" or . == "unknown")' "$R"
check "four runs in thread order" jq -e '[.runs[] | .op + " " + .policy] ==
    ["count clock", "count ring", "vacuum clock", "vacuum ring"]' "$R"
check "run keys" jq -e '.runs | all(has("name") and has("source") and has("policy") and
    has("ring_size") and has("pool_size") and has("table_size") and has("page_size") and
    has("kernel") and has("op") and has("threads") and has("repetitions") and has("mbps") and
    has("validation") and has("counters"))' "$R"
check "two timed repetitions, positive" jq -e '.runs | all(.repetitions | length == 2 and all(. > 0))' "$R"
check "mbps summary consistent" jq -e '.runs | all(.mbps.min <= .mbps.median and
    .mbps.median <= .mbps.max and .mbps.best == .mbps.max and .mbps.cv >= 0)' "$R"
check "validation ok, every page checked" jq -e '.runs | all(.validation.ok and
    .validation.pages_checked_after_copy == 512 and .validation.pages_checked_after_op == 512 and
    .validation.scans_row_checked == 3)' "$R"
check "counters not requested, no values" jq -e '.runs | all(.counters.backend == "none" and
    .counters.status == "not requested" and .counters.values == {})' "$R"
check "ring touches 32 buffers, clock 128" jq -e '[.runs[] | .buffers_touched] == [128, 32, 128, 32]' "$R"
check "sizes" jq -e '.runs | all(.table_size == 4194304 and .pool_size == 1048576 and
    .ring_size == 262144 and .page_size == 8192)' "$R"

# never overwritten: a second run to the same name is refused before it runs
sum_before=$(cksum <"$R")
expect_status 2 "existing report" $S run $SMALL -o "$R"
err_is_one_line_containing "$R: exists; scanbench never overwrites a report"
check "report unchanged" [ "$(cksum <"$R")" = "$sum_before" ]
check "no temporary files" [ "$(ls "$SCRATCH" | grep -c tmp)" -eq 0 ]

# lists make sweeps
expect_status 0 "pool sweep" $S run $SMALL --set op=count --set policy=clock --set pool_size=512K,1M,2M -o "$SCRATCH/sweep.json"
check "three runs, pool sizes in order" jq -e '[.runs[].pool_size] == [524288, 1048576, 2097152]' "$SCRATCH/sweep.json"
out_contains "clock 512KB"
out_contains "clock 2MB"

# the kernels experiment runs every kernel this CPU supports
expect_status 0 "kernels.ini" $S run "$top_srcdir/configs/experiments/kernels.ini" $SMALL -o "$SCRATCH/k.json"
supported=$($S list | awk '$2 == "supported" { n++ } END { print n }')
check "every supported kernel in both placements" jq -e --argjson n "$supported" '.runs | length == 2 * $n' "$SCRATCH/k.json"
check "op none validated by checksums" jq -e '.runs | all(.op == "none" and .validation.ok)' "$SCRATCH/k.json"

# the halves of a copy: the read side leaves the source's fold, the write side fills the buffer;
# both validated on every page, after the copy and in the pool at the end
expect_status 0 "read and write" $S run $SMALL --set op=none --set policy=clock --set kernel=read,write -o "$SCRATCH/halves.json"
check "halves validated on every page" jq -e '[.runs[].kernel] == ["read", "write"] and
    (.runs | all(.validation.ok and .validation.pages_checked_after_copy == 512))' "$SCRATCH/halves.json"
out_contains "clock 1MB read"

# 8.1's executor with its buffer structures at each pool's size (a 64KB pool: 8 buffers, a
# table of 512 pages cycles them), from memory and from a file, and a SELECT then VACUUM over
# one pool: every page validated after the copy and the op
expect_status 0 "pg81 over its pool's buffer structures" $S run $SMALL --set executor=pg81 \
    --set pool_size=64K,1M --set policy=clock --set source=memory,file -o "$SCRATCH/pg81.json"
check "pg81 runs validated on every page" jq -e '(.runs | length == 8) and (.runs | all(.executor ==
    "pg81" and .validation.ok and .validation.pages_checked_after_op == 512))' "$SCRATCH/pg81.json"
expect_status 0 "pg81, a SELECT then a VACUUM in one pool" $S run $SMALL --set executor=pg81 \
    --set statements=select,vacuum --set policy=clock -o "$SCRATCH/pg81s.json"
check "pg81 statements validated" jq -e '.runs | all(.validation.ok)' "$SCRATCH/pg81s.json"

expect_status 0 "topo" $S topo
out_contains "L2 size"
out_contains "effective sizes        not measured (scanbench topo --sweep"
expect_status 2 "topo with an unknown argument" $S topo --fast
err_is_one_line_containing "scanbench topo: --fast: unknown argument (usage: scanbench topo [--sweep])"
expect_status 0 "list" $S list
out_contains "clock"
expect_status 0 "version" $S --version
out_contains "scanbench"
finish
