#!/bin/sh
# run.sh: every figure of this folder, on a quiet host, from the repository's root after
# `make` and tools/build-postgres into /opt/pg16, /opt/pg17, /opt/pg18 and /opt/pgmaster
# (README.md). Each command writes its report (.json) and prints its table (.txt).
set -eu
D=results/vm-epyc-zen5-2core/rings-today-2026-12-06
S=bench/scanbench
SERVERS="--server /opt/pg16/bin --server /opt/pg17/bin --server /opt/pg18/bin --server /opt/pgmaster/bin"
run() { out=$1; shift; "$S" "$@" -o "$D/$out.json" > "$D/$out.txt" 2> "$D/$out.err"; }

# today's rings on four servers side by side, the server's default first
run vacuum pg configs/experiments/rings-today-vacuum.ini $SERVERS
run count pg configs/experiments/rings-today-count.ini $SERVERS
# the engine over the same ring sizes, same table and pool
run engine-vacuum run --set policy=ring --set op=vacuum --set table_size=128M \
    --set pool_size=512M --set ring_size=128K,256K,512K,1M,2M,4M,8M,16M,32M,64M
run engine-count run --set policy=ring --set op=count --set table_size=160M \
    --set pool_size=512M --set ring_size=256K,384K,768K,2304K,3008K
# the cache model's counts over the same rings (a smaller table: the counts are per page)
run model run --set policy=ring --set op=count,vacuum --set table_size=32M \
    --set pool_size=512M --set ring_size=128K,256K,512K,1M,2M,4M,8M,16M \
    --set counters=sim --set repetitions=2 --set warmup=0
# who copies the page: sync, an I/O worker, io_uring, at three pools (one report each, so
# that each pairs worker and io_uring with sync at its pool)
for pool in 256K 16M 512M; do
    run io-method-$pool pg --server /opt/pg18/bin --server /opt/pgmaster/bin \
        --set table_size=64M --set pool_size=$pool --set op=count \
        --set io_method=sync,worker,io_uring --set repetitions=10
done
# one I/O worker, on the backend's CPU or the other one
for pool in 256K 16M; do
    run io-worker-cpu-$pool pg --server /opt/pg18/bin --set table_size=64M --set pool_size=$pool \
        --set op=count --set io_method=worker --set io_workers=1 \
        --set io_worker_cpu=default,same,other --set repetitions=10
done
# the engine's reports and CSVs are large: kept gzipped
gzip -9 "$D"/engine-*.json "$D"/engine-*.csv
