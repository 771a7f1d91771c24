#!/bin/sh
# paired-time.sh: the live 8.1.21 and the emulation alternated, each pair under one hold of the
# CPU lock, in an order drawn per pair, so that each pair's per-page CPU costs share a minute
# of this VM's drifting speed (README.md). From the repository's root; N pairs (default 6).
# Each pair: the live server's COUNT(*) and VACUUM (3 rounds), and scanbench's pg81 and minimal
# executors with the page read by pread() and 55 rows a page as the live table has (6 rounds).
# paired-time.py reads the reports.
set -eu
N=${N:-6}
D=${D:-results/vm-epyc-zen5-2core/pg81-executor-2026-12-07/paired-time}
S=bench/scanbench
mkdir -p "$D"
TABLE="--set op=count,vacuum --set pool_size=16M --set table_size=128M"
live="$S pg --server /opt/pg81/bin $TABLE --set repetitions=3 -o $D/live-\$i.json"
emu="$S run --set executor=pg81,minimal $TABLE --set policy=clock --set writeback=evict \
     --set source=file --set row_width=120 --set repetitions=6 -o $D/emulated-\$i.json"
i=1
while [ "$i" -le "$N" ]; do
    if [ $(od -An -N1 -tu1 /dev/urandom) -lt 128 ]; then first=$live; second=$emu; order=live;
    else first=$emu; second=$live; order=emulated; fi
    echo "pair $i: $order first" >> "$D/order.txt"
    i=$i flock -o /tmp/w47/cpu.lock sh -c "$first && $second" > "$D/pair-$i.txt" 2> "$D/pair-$i.err"
    i=$((i + 1))
done
