#!/bin/sh
# run2.sh: campaign 2 of README.md, in its order. Run from the repository root as root:
#   BEFORE=/path/57affca/bench/scanbench NEW=bench/scanbench PG81=/opt/pg81/bin \
#   PG15=/usr/lib/postgresql/15/bin sh run2.sh OUTDIR
set -u
out=$1
mkdir -p "$out"
q="--set table_size=64M --set pool_size=16M,680K --set op=count,vacuum"
go() { # name binary args...
    name=$1; bin=$2; shift 2
    start=$(date +%s.%N)
    "$bin" pg "$@" -o "$out/$name.json" > "$out/$name.txt" 2> "$out/$name.err"
    echo "$name exit $? wall $(echo "$(date +%s.%N) - $start" | bc) s" >> "$out/wall.txt"
}
for v in 8.1:$PG81 15:$PG15; do
    go decompose-${v%%:*}-after2 "$NEW" --server "${v#*:}" $q --set repetitions=40
done
for k in 1 2 3 4 5; do
    go auto2-before-$k "$BEFORE" --server "$PG15" $q --set repetitions=auto --set time_budget=150
    go auto2-after-$k "$NEW" --server "$PG15" $q --set repetitions=auto --set time_budget=150
done
go default-8.1 "$NEW" --server "$PG81"
go default-15 "$NEW" --server "$PG15"
start=$(date +%s.%N)
"$NEW" power --pg --server "$PG15" --trials 20 -o "$out/power-pg" > "$out/power-pg.txt" \
    2> "$out/power-pg.err"
echo "power-pg exit $? wall $(echo "$(date +%s.%N) - $start" | bc) s" >> "$out/wall.txt"
