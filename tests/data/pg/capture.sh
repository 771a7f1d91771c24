#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# capture.sh V: what a real 8.x server (built by tools/build-postgres into /opt/pgV) prints for
# the statements scanbench pg needs, as recorded in tests/data/pg/server-V.txt: a throwaway
# cluster under $OUT/V, run as the postgres user (su postgres -c "sh capture.sh 8.1"), then
# copy $OUT/V/capture.txt here. The recorded files came from 8.1.21, 8.2.17 and 8.3.11 built
# from adunstan/pg-cvs-mirror's REL8_1_STABLE (1314e285), REL8_2_STABLE (6ea98f5c) and
# REL8_3_STABLE (51b0bd50) on the Zen 4 VM, 2026-12-02.
set -u
v=$1; bin=/opt/pg$v/bin; d=${OUT:-/tmp/pgfx}/$v; rm -rf $d; mkdir -p $d/sock
$bin/initdb -D $d/data -A trust -U scanbench -E UTF8 --locale=C > $d/initdb.log 2>&1 || { echo initdb failed; exit 1; }
echo "unix_socket_directory = '$d/sock'" >> $d/data/postgresql.conf
echo "listen_addresses = ''" >> $d/data/postgresql.conf
echo "lc_messages = 'C'" >> $d/data/postgresql.conf
PGHOST=$d/sock PGUSER=scanbench $bin/pg_ctl -D $d/data -l $d/server.log -w start > $d/pg_ctl.log 2>&1 || { echo start failed; cat $d/server.log; exit 1; }
P="$bin/psql -X -h $d/sock -U scanbench -d postgres"
$bin/postgres --version > $d/version.txt
{
echo "-- postgres --version"; cat $d/version.txt
$P -c "SELECT version()" -At
$P -c "SHOW block_size" -At
$P -c "SHOW shared_buffers" -At
$P -c "SELECT name, setting, unit FROM pg_settings WHERE name IN ('shared_buffers','max_connections')" -At 2>&1
$P -c "CREATE TABLE t AS SELECT g AS a, repeat('x', 100) AS b FROM generate_series(1, 20000) g" 2>&1
$P -c "DELETE FROM t WHERE a % 10 = 0" 2>&1
$P -f /opt/pg$v/share/postgresql/contrib/pg_buffercache.sql > /dev/null 2>&1 && echo "pg_buffercache.sql: loaded"
$P -c "SELECT count(*) FROM pg_buffercache b JOIN pg_class c ON b.relfilenode = c.relfilenode WHERE c.relname = 't'" -At 2>&1
$P -c "SELECT relfilenode, reltablespace FROM pg_class WHERE relname = 't'" -At 2>&1
$P -c "SELECT pg_relation_size('t')" -At 2>&1
$P -c "EXPLAIN ANALYZE SELECT count(*) FROM t" -At 2>&1
echo "-- VACUUM VERBOSE t"
$P -c "VACUUM VERBOSE t" 2>&1
$P -c "VACUUM (VERBOSE) t" 2>&1
$P -c "SELECT * FROM pg_stat_bgwriter" -x 2>&1
} > $d/capture.txt 2>&1
PGHOST=$d/sock PGUSER=scanbench $bin/pg_ctl -D $d/data -m fast -w stop > /dev/null 2>&1
