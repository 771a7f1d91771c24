#!/bin/sh
# cpu-per-page.sh: the CPU time a page, user and system, of the live 8.1.21 and of the pg81
# executor, each reading every page with read()/pread() into a 16MB pool, alternated N times
# (default 5) under the host's CPU lock. No scanbench pg around the live side (no table move
# before each scan, no subtraction of another run): the live backend's own statement figures
# (log_statement_stats: elapsed, user and system seconds of each statement, 5 COUNT(*) then 5
# VACUUM in one psql session) against callgrind-emulated.c's loop over the same kind of table
# (16384 pages of 55 rows, pread() into the next buffer of a 16MB pool, 8.1's buffer structures
# at its 2048 buffers; /usr/bin/time of 5 passes). Needs callgrind-live-setup.sh's cluster,
# running (pg_ctl start), and callgrind.sh's emulation binary and table in T.
set -eu
D=${D:-/tmp/pg81-callgrind}
T=${T:-/tmp/pg81-callgrind-em}
N=${N:-5}
LOCK=${LOCK-flock -o /tmp/w47/cpu.lock}
P="/opt/pg81/bin/psql -q -h $D -U scanbench template1"
{
    echo "SET log_statement_stats = on;"
    for i in 1 2 3 4 5; do echo "SELECT count(*) FROM lineitem;"; done
    for i in 1 2 3 4 5; do echo "VACUUM lineitem;"; done
} > "$T/stats.sql"
cat "$T/em.tbl" > /dev/null
i=1
while [ "$i" -le "$N" ]; do
    before=$(wc -l < "$D/log")
    $LOCK $P -f "$T/stats.sql" > /dev/null
    # the session's statistics in order: five COUNT(*), then five VACUUM (SET logs none)
    tail -n +"$((before + 1))" "$D/log" | awk -v pair="$i" '
        /elapsed/ { n++; printf "live %s %d %s %s %s\n", n <= 5 ? "count" : "vacuum", pair,
                    $2, $4, $6 }'
    for op in count vacuum; do
        $LOCK /usr/bin/time -f "emulated $op $i %e %U %S" "$T/em" "$T/em.tbl" $op 5 2>&1 >/dev/null
    done
    i=$((i + 1))
done
