#!/bin/sh
# paired.sh: run.sh's live and emulated runs again back to back under one hold of the CPU lock
# (this VM's speed drifts by up to 1.7x over minutes: README.md), after the change; then the
# same two commands with the emulated table's rows per page matched to the live server's 55
# (row_width = 120). From the repository's root.
set -eu
D=results/vm-epyc-zen5-2core/pg81-executor-2026-12-07
S=bench/scanbench
TABLE="--set op=count,vacuum --set pool_size=16M --set table_size=128M"
run() { out=$1; shift; "$S" "$@" -o "$D/paired-$out.json" > "$D/paired-$out.txt" 2> "$D/paired-$out.err"; }
run live pg --server /opt/pg81/bin $TABLE
run emulated-file run --set executor=pg81,minimal $TABLE --set writeback=evict --set source=file
run emulated run --set executor=pg81,minimal $TABLE --set writeback=evict
run emulated-file-55rows run --set executor=pg81,minimal $TABLE --set writeback=evict \
    --set source=file --set row_width=120
gzip -9f "$D"/paired-emulated*.json "$D"/paired-emulated*.csv
