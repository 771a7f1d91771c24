#!/bin/sh
# my own 8.1.21 cluster with scanbench pg's table (128M, 100-byte rows, 10% deleted)
set -eu
D=${D:-/tmp/pg81-callgrind}
rm -rf $D; mkdir -p $D; chown postgres $D
su postgres -c "/opt/pg81/bin/initdb -D $D/data -A trust -U scanbench -E UTF8 --locale=C" >/dev/null
cat >> $D/data/postgresql.conf <<CONF
listen_addresses = ''
unix_socket_directory = '$D'
shared_buffers = 2048
autovacuum = off
fsync = off
full_page_writes = off
max_connections = 10
lc_messages = 'C'
CONF
su postgres -c "/opt/pg81/bin/pg_ctl -D $D/data -l $D/log start" >/dev/null
for i in $(seq 50); do /opt/pg81/bin/psql -q -h $D -U scanbench template1 -c "select 1" >/dev/null 2>&1 && break; sleep 0.2; done
P="/opt/pg81/bin/psql -q -h $D -U scanbench template1"
$P <<SQL
BEGIN;
CREATE TABLE lineitem (l_orderkey bigint, l_partkey integer, l_suppkey integer, l_linenumber integer, l_quantity integer, l_extendedprice bigint, l_discount smallint, l_tax smallint, l_returnflag "char", l_linestatus "char", l_shipdate date, l_commitdate date, l_receiptdate date, l_shipmode char(10), l_comment text);
INSERT INTO lineitem SELECT g, (g * 7919) % 200000 + 1, (g * 104729) % 10000 + 1, g % 7 + 1, g % 50 + 1, (g % 50 + 1) * 90000 + g % 100000, (g % 11)::smallint, (g % 9)::smallint, (CASE g % 3 WHEN 0 THEN 'R' WHEN 1 THEN 'A' ELSE 'N' END)::"char", (CASE g % 2 WHEN 0 THEN 'O' ELSE 'F' END)::"char", date '1992-01-01' + (g % 2500)::integer, date '1992-01-31' + (g % 2500)::integer, date '1992-02-15' + (g % 2500)::integer, (ARRAY['AIR', 'MAIL', 'SHIP', 'TRUCK', 'RAIL', 'FOB', 'REG AIR'])[g % 7 + 1], lpad(g::text, 36, 'x') FROM generate_series(1::bigint, 999424) g;
DELETE FROM lineitem WHERE l_orderkey % 100 < 10;
COMMIT;
CHECKPOINT;
SELECT count(*) FROM lineitem;
VACUUM lineitem;
SELECT pg_relation_size('lineitem');
SQL
