#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# events_unknown.sh: an event name libpfm4's tables do not have is bad input, found at plan
# time: exit 2, one line naming the file, the line and the event. Skipped (77) when scanbench
# is built without libpfm4, which is what checks the names.
. "$top_srcdir/tests/lib.sh"
S=$SCANBENCH

if ! $S events | grep -q "event names: *every event found in libpfm4"; then
    echo "built without libpfm4: event names are not checked" >&2
    exit 77
fi
f="$SCRATCH/unknown.ini"
printf '%s\n' "[map]" "description = test" "pmus = skx, clx" "[l2_miss]" "counts = c" \
    "events = L2_LINES_IN:ALL, L2_LINES_INN:ALL" >"$f"
expect_status 2 "unknown event" $S run --set table_size=4M --set pool_size=1M --set counters=papi --set events="$f"
err_is_one_line_containing "$f:6: l2_miss: \"L2_LINES_INN:ALL\": L2_LINES_INN is not an event of PMU skx"
printf '%s\n' "[map]" "description = test" "pmus = skx" "[l2_miss]" "counts = c" \
    "events = L2_LINES_IN:ALLL" >"$f"
expect_status 2 "unknown unit mask" $S events --set events="$f"
err_is_one_line_containing "$f:6: l2_miss: \"L2_LINES_IN:ALLL\": L2_LINES_IN has no unit mask or modifier \"ALLL\" in PMU skx"
finish
