#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# twice.sh: `run --twice` runs the whole schedule again with the next seed, keeps the --twice
# block (report/reproducible.h, the rule reproduce --twice shares) in the second report only,
# with the first seed, and says it after the second table.
. "$top_srcdir/tests/lib.sh"
S=$SCANBENCH
command -v jq >/dev/null || { echo "jq is missing (Debian: jq)" >&2; exit 99; }

R="$SCRATCH/twice.json"
expect_status 0 "run --twice" $S run --set table_size=1M --set pool_size=1M,16M --set repetitions=3 \
    --set warmup=0 --set min_scan_ms=0 --set schedule_seed=5 --twice -q -o "$R"
check "the first report has no --twice block" jq -e 'has("reproducibility") | not' "$R"
check "the second report's block: the first seed, a verdict, vacuous only where it agrees" \
    jq -e '.schedule.seed == 6 and (.reproducibility | .first_seed == 5 and
           (.reproducible | type) == "boolean" and ((.vacuous | not) or .reproducible) and
           ((.why == "") == .reproducible))' "$SCRATCH/twice.2.json"
out_contains "(seeds 5 and 6)"
finish
