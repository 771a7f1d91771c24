#!/bin/sh
# Issue 47 on the EPYC Zen 5 VM: the probe before (main at f964849, its binary in $BEFORE) and
# after (this commit's), the effective sizes by topo --sweep, and the host's fit over the
# issue's sweep with each side's own probe file, 30 rounds each, one after the other.
# Usage: BEFORE=/path/to/old/scanbench AFTER=bench/scanbench sh run.sh (in this directory's
# repository root; writes here).
set -eu
D=results/vm-epyc-zen5-2core/model-host-2026-12-07
X=configs/experiments/gavin-wide.ini
$BEFORE probe -o $D/probe-before.ini 2>$D/probe-before.txt
$AFTER probe -o $D/probe-after.ini 2>$D/probe-after.txt
$AFTER topo --sweep >$D/topo-sweep.txt
for side in before after; do
    if [ $side = before ]; then B=$BEFORE; else B=$AFTER; fi
    $B run $X --set counters=sim --set machine=$D/probe-$side.ini --set table_size=64M \
        --set pool_size=64K,256K,1M,2M,4M,16M,64M,256M --set repetitions=30 \
        -o $D/fit-$side.json >$D/fit-$side.txt 2>&1
done
