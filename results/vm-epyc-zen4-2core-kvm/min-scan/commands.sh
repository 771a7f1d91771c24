#!/bin/sh
cd "$(dirname "$0")/../../.."   # the top of the tree
B="--set op=count --set policy=ring --set ring_size=256K --set table_size=64M --set repetitions=auto --set contention=stream"
for i in 1 2 3 4 5 6; do
  for m in 50 10; do
    bench/scanbench run -q $B --set min_scan_ms=$m --set schedule_seed=$i$m --set extra_copy=0.05,0 -o results/vm-epyc-zen4-2core-kvm/min-scan/m$m-$i.json > results/vm-epyc-zen4-2core-kvm/min-scan/m$m-$i.txt 2>&1
  done
done
