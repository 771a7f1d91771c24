#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# capture-rings.sh V BINDIR: what a real server from 15 on answers to what scanbench pg asks of
# it for the ring rules (lib/pg/rule.h), as recorded in tests/data/pg/server-V.txt: its version,
# the settings the rule reads (the query of lib/pg/runner.c, read_rule_inputs), the VACUUM
# statements with BUFFER_USAGE_LIMIT, VACUUM VERBOSE's buffer usage line, and how many of a
# table's buffers pg_buffercache finds after one scan that started with none (the server
# restarted before each): a COUNT(*) of a table larger than shared_buffers / 4, a VACUUM with
# the server's ring, with BUFFER_USAGE_LIMIT '512kB' and with 0; from 18 also pg_stat_io's
# relation reads by backend type after the count (who read the pages: the backend or an I/O
# worker). The cluster: shared_buffers 16MB, scanbench's settings that matter to the rule
# (max_connections 110 from 18, 10 before; wal_level minimal, max_wal_senders 0), under
# $OUT/V, run as the postgres user:
#   su postgres -c "sh tests/data/pg/capture-rings.sh 18 /opt/pg18/bin"
# then copy $OUT/V/capture.txt to tests/data/pg/server-V.txt. The servers: tools/build-postgres
# from postgresql-cfbot/postgresql's REL_16_STABLE (894da35b), REL_17_STABLE (3704870b),
# REL_18_STABLE (828d602f), REL_19_STABLE (7673dfe7) and master (b5978350); 15 is Debian 12's.
set -u
v=$1; bin=$2; d=${OUT:-/tmp/pgfx}/$v; rm -rf "$d"; mkdir -p "$d/sock"
"$bin/initdb" -D "$d/data" -A trust -U scanbench -E UTF8 --locale=C > "$d/initdb.log" 2>&1 ||
    { echo initdb failed; exit 1; }
major=$("$bin/postgres" --version | sed 's/^[^0-9]*\([0-9]*\).*/\1/')
conns=10; [ "$major" -ge 18 ] && conns=110
cat >> "$d/data/postgresql.conf" <<EOF
unix_socket_directories = '$d/sock'
listen_addresses = ''
lc_messages = 'C'
shared_buffers = '16MB'
max_connections = $conns
wal_level = minimal
max_wal_senders = 0
autovacuum = off
synchronize_seqscans = off
max_parallel_workers_per_gather = 0
EOF
start() { "$bin/pg_ctl" -D "$d/data" -l "$d/server.log" -w start > "$d/pg_ctl.log" 2>&1 ||
              { echo start failed; cat "$d/server.log"; exit 1; }; }
restart() { "$bin/pg_ctl" -D "$d/data" -m fast -w stop > /dev/null 2>&1; start; }
start
P="$bin/psql -X -h $d/sock -U scanbench -d postgres"
occupancy="SELECT count(*) FROM pg_buffercache WHERE relfilenode = pg_relation_filenode('t') AND relforknumber = 0"
names="'shared_buffers','block_size','vacuum_buffer_usage_limit','io_combine_limit',\
'io_max_combine_limit','effective_io_concurrency','maintenance_io_concurrency',\
'max_connections','autovacuum_worker_slots','max_worker_processes','max_wal_senders'"
{
echo "-- postgres --version"; "$bin/postgres" --version
$P -At -c "SHOW server_version_num"
echo "-- rule inputs"
$P -At -c "SELECT string_agg(name || '=' || setting, ' ' ORDER BY name) FROM pg_settings WHERE name IN ($names)"
$P -At -c "SHOW io_method" 2>&1
$P -q -c "CREATE EXTENSION pg_buffercache" 2>&1
$P -q -c "CREATE TABLE t AS SELECT g AS a, repeat('x', 100) AS b FROM generate_series(1, 80000) g" 2>&1
$P -q -c "DELETE FROM t WHERE a % 10 = 0" 2>&1
$P -q -c "VACUUM t" 2>&1
$P -At -c "SELECT 'pages=' || pg_relation_size('t') / 8192"
$P -q -c "CHECKPOINT"
restart
echo "-- COUNT(*): the table's buffers after it"
[ "$major" -ge 18 ] && $P -At -c "SELECT pg_stat_reset_shared('io')" > /dev/null
$P -At -c "SELECT count(*) FROM t; $occupancy"
if [ "$major" -ge 18 ]; then
    echo "-- pg_stat_io: relation reads by backend type after it"
    $P -At -c "SELECT pg_stat_force_next_flush()" > /dev/null
    $P -At -c "SELECT backend_type || ' ' || context || ' reads=' || reads FROM pg_stat_io WHERE object = 'relation' AND reads > 0 ORDER BY 1"
fi
for limit in default 512kB 0; do
    restart
    if [ "$limit" = default ]; then
        echo "-- VACUUM (VERBOSE, DISABLE_PAGE_SKIPPING) t: the table's buffers after it"
        $P -c "VACUUM (VERBOSE, DISABLE_PAGE_SKIPPING) t" 2>&1 | grep "buffer usage"
    else
        echo "-- VACUUM (DISABLE_PAGE_SKIPPING, BUFFER_USAGE_LIMIT '$limit') t: the table's buffers after it"
        $P -c "VACUUM (DISABLE_PAGE_SKIPPING, BUFFER_USAGE_LIMIT '$limit') t" 2>&1
    fi
    $P -At -c "$occupancy"
done
echo "-- VACUUM (BUFFER_USAGE_LIMIT '64kB') t"
$P -c "VACUUM (BUFFER_USAGE_LIMIT '64kB') t" 2>&1
if [ "$major" -ge 18 ]; then
    # 18's bulk-read ring grows with effective_io_concurrency where the pin limit allows:
    # shared_buffers 512MB, a table above its quarter
    echo "shared_buffers = '512MB'" >> "$d/data/postgresql.conf"
    restart
    $P -q -c "CREATE TABLE t2 AS SELECT g AS a, repeat('x', 100) AS b FROM generate_series(1, 1250000) g" 2>&1
    $P -q -c "VACUUM t2" 2>&1
    $P -q -c "CHECKPOINT"
    echo "-- 512MB pool, a table above its quarter"
    $P -At -c "SELECT string_agg(name || '=' || setting, ' ' ORDER BY name) FROM pg_settings WHERE name IN ($names)"
    $P -At -c "SELECT 'pages=' || pg_relation_size('t2') / 8192"
    for eic in 16 4 0; do
        restart
        echo "-- SET effective_io_concurrency = $eic; COUNT(*): the table's buffers after it"
        $P -At -c "SET effective_io_concurrency = $eic; SELECT count(*) FROM t2; SELECT count(*) FROM pg_buffercache WHERE relfilenode = pg_relation_filenode('t2') AND relforknumber = 0"
    done
fi
} > "$d/capture.txt" 2>&1
"$bin/pg_ctl" -D "$d/data" -m fast -w stop > /dev/null 2>&1
