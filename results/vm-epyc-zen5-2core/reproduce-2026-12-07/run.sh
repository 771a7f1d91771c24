#!/bin/sh
# run.sh: the reproductions of this folder, from the repository's root after `make`, on the
# 2-vCPU EPYC (Zen 5) VM shared with others' timings (hence nice and the lock). Each writes
# its reports and reproduction.txt into a new folder; stderr (progress) beside it.
set -eu
D=${D:?results/vm-epyc-zen5-2core/reproduce-2026-12-07/before or after}
S=bench/scanbench
L="nice -n 10 flock /tmp/w47/cpu.lock"
$L $S reproduce x4500-memtable x4500-bigtable kirkwood-piii tom-lane-xeon luke-experiment1 \
    --quick -o "$D/quick" > "$D/quick.txt" 2> "$D/quick.err"
$L $S reproduce all -o "$D/all" > "$D/all.txt" 2> "$D/all.err"
