#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# events_input.sh: `scanbench events` (a diagnosis: exit 0 whatever is available) and bad
# events input, found at plan time before any run: an unknown events file, a map with an
# unknown section (role) or a malformed line (exit 2, one line naming the file and line), a bad
# require_counters value. Needs neither PAPI nor libpfm4.
. "$top_srcdir/tests/lib.sh"
S=$SCANBENCH
SMALL="--set table_size=4M --set pool_size=1M --set repetitions=2"

expect_status 0 "scanbench events" $S events
out_contains "perf_event_paranoid:"
out_contains "virtual machine:"
out_contains "events map:"
out_contains "verdict:"
expect_status 0 "scanbench events with a named map" $S events --set events=intel-skx
out_contains "events map:          intel-skx"
out_contains "mem_read_bytes"
out_contains "skx_unc_imc0::UNC_M_CAS_COUNT:RD"
expect_status 0 "a map whose roles include none" $S events --set events=amd-zen4
out_contains "l2_writeback     none: no event on this architecture: "
expect_status 2 "scanbench events: bad argument" $S events --bogus
err_is_one_line_containing "usage: scanbench events [--set events=FILE]"

expect_status 2 "no such events file" $S run $SMALL --set counters=papi --set events=nosuch
err_is_one_line_containing "--set events=nosuch: events: nosuch: no such file in configs/events (tried "
expect_status 2 "no such events file in scanbench events" $S events --set events=nosuch
err_is_one_line_containing "events: nosuch: no such file"

map() { # map NAME LINES...: writes an events map after a valid [map] section
    local f="$SCRATCH/$1"; shift
    printf '%s\n' "[map]" "description = test" "pmus = amd64_fam19h_zen3" "$@" >"$f"
    echo "$f"
}
f=$(map role.ini "[cycles]" "events = CYCLES_NOT_IN_HALT" "counts = c" "[l2_misses]" "events = X")
expect_status 2 "unknown role" $S run $SMALL --set counters=papi --set events="$f" -o "$SCRATCH/r.json"
err_is_one_line_containing "$f:7: [l2_misses]: unknown section (known: [map], [cycles]"
check "no report" [ ! -e "$SCRATCH/r.json" ]
check "nothing ran" [ ! -s "$SCRATCH/out" ]

f=$(map malformed.ini "[cycles]" "events CYCLES_NOT_IN_HALT")
expect_status 2 "malformed line" $S run $SMALL --set counters=papi --set events="$f"
err_is_one_line_containing "$f:5: not a valid INI line (want key = value or [section])"

f=$(map noreason.ini "[l2_writeback]" "events = none")
expect_status 2 "none without a reason" $S run $SMALL --set events="$f"
err_is_one_line_containing "$f:4: [l2_writeback]: events = none needs a reason"

expect_status 2 "events file checked even without counters=papi" $S run $SMALL --set events="$f"
err_is_one_line_containing "--set events=$f: events: $f:4:"

expect_status 2 "require_counters not yes or no" $S run $SMALL --set require_counters=maybe
err_is_one_line_containing '--set require_counters=maybe: require_counters: "maybe" is not yes or no'

expect_status 0 "require_counters=yes with counters=none: nothing required" $S run $SMALL --set require_counters=yes -q
expect_status 0 "list shows the keys and the backend" $S list
out_contains "require_counters"
out_contains "papi"
finish
