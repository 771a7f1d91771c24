#!/bin/sh
# run.sh: the live PostgreSQL 8.1.21 beside scanbench's pg81 and minimal executors, from the
# repository's root after `make` and tools/build-postgres of REL8_1_STABLE into /opt/pg81
# (README.md). usage: run.sh before|after [SCANBENCH]: before with a build of the branch's base
# (f964849), after with this tree's bench/scanbench. Each command writes its report (.json,
# gzipped when large) and prints its table (.txt). On a shared host each command runs under the
# host's CPU lock (LOCK=, empty to run without).
set -eu
WHEN=${1:?before or after}
S=${2:-bench/scanbench}
D=results/vm-epyc-zen5-2core/pg81-executor-2026-12-07
LOCK=${LOCK-flock /tmp/w47/cpu.lock}
run() { out=$1; shift; $LOCK "$S" "$@" -o "$D/$WHEN-$out.json" > "$D/$WHEN-$out.txt" 2> "$D/$WHEN-$out.err"; }
TABLE="--set op=count,vacuum --set pool_size=16M --set table_size=128M"

# the live server: COUNT(*) and VACUUM of a 128MB table (145MB in 8.1's pages) from the OS
# cache into 16MB of shared_buffers (the server is the same before and after: two samples)
run live pg --server /opt/pg81/bin $TABLE
# scanbench's scan of the same table into the same pool, with 8.1's steps and with none: the
# page copied from memory (memcpy), and from a file (pread: the kernel's copy, as the server's
# read() of each block)
run emulated run --set executor=pg81,minimal $TABLE --set writeback=evict
run emulated-file run --set executor=pg81,minimal $TABLE --set writeback=evict --set source=file
# the op's CPU time per page with the page in L1 (runs[].predicted.op_host_ns_per_page), as
# doc/executor.md's "Its cost on a host" measures it
run host-cost run --set counters=sim --set machine=x4500 --set executor=minimal,pg81,pg82 \
    --set op=count,vacuum --set table_size=8M --set repetitions=2 --set warmup=0
# the engine's reports and CSVs are large: kept gzipped
for f in "$D/$WHEN"-emulated*.json "$D/$WHEN"-emulated*.csv "$D/$WHEN"-host-cost.json \
         "$D/$WHEN"-host-cost.csv; do
    if [ -f "$f" ]; then gzip -9f "$f"; fi
done
