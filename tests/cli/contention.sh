#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# contention.sh: key contention end to end. Bad values (an unknown kind, a list) exit 2 with one
# line naming the key and its values; a process that may use one CPU only (taskset) is refused
# with exit 2 and one line, before anything runs (no report left); a tiny run with contention = l3
# (l3_size=2M: a small working set whatever the host's L3) records its aggressor in the report's
# schedule.contention (kind, its CPU, the working set, bytes moved, seconds, GB/s > 0) and says
# it in one line under the heading; contention = none records {"kind": "none"} and prints no
# such line. Speeds are never asserted beyond > 0.
. "$top_srcdir/tests/lib.sh"
S=$SCANBENCH
SMALL="--set table_size=8M --set pool_size=1M --set ring_size=256K --set repetitions=3 --set min_scan_ms=0 -q"

command -v jq >/dev/null || { echo "jq is missing (Debian: jq)" >&2; exit 99; }

expect_status 2 "unknown contention" $S run $SMALL --set contention=loud
err_is_one_line_containing '--set contention=loud: contention: "loud" is not a known contention (known: none, stream, l3)'
expect_status 2 "contention takes one value" $S run $SMALL --set contention=l3,stream
err_is_one_line_containing '--set contention=l3,stream: contention: takes one value, not a list'

# one CPU only: the first this test may use
if command -v taskset >/dev/null 2>&1; then
    cpu=$(taskset -pc $$ | sed 's/.*: *//; s/[^0-9].*//')
    R="$SCRATCH/one.json"
    expect_status 2 "one CPU only" taskset -c "$cpu" $S run $SMALL --set contention=stream -o "$R"
    err_is_one_line_containing "--set contention=stream: contention: stream needs a second CPU for the aggressor, and this process may use only CPU $cpu"
    if [ -e "$R" ]; then fail "a refused run left $R"; else pass; fi
else
    echo "note: taskset is missing (Debian: util-linux): the one-CPU refusal is left out"
fi

if [ "$(nproc)" -ge 2 ]; then
    R="$SCRATCH/l3.json"
    expect_status 0 "a tiny run with contention = l3" $S run $SMALL --set contention=l3 \
        --set l3_size=2M -o "$R"
    check "the aggressor recorded" jq -e '.schedule.contention | .kind == "l3" and
        (.cpu | type == "number" and . >= 0) and .working_set_bytes == 2097152 and
        .buffers == 1 and .capped == false and .sized == "the L3 (2MB)" and .bytes > 0 and
        .seconds > 0 and .gbps > 0' "$R"
    out_contains "contention: l3 aggressor on CPU "
    out_contains "(a 2MB working set, read-modify-write)"
    R="$SCRATCH/none.json"
    expect_status 0 "a tiny run without contention" $S run $SMALL -o "$R"
    check "none recorded" jq -e '.schedule.contention == {"kind": "none"}' "$R"
    if grep -q "^contention:" "$SCRATCH/out"; then fail "contention = none printed a line"; else
        pass; fi
else
    echo "note: this test may use one CPU only: the runs with an aggressor are left out"
fi
finish
