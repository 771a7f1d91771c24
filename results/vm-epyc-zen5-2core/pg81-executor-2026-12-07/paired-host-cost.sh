#!/bin/sh
# paired-host-cost.sh: the op's CPU time per page in L1 (runs[].predicted.op_host_ns_per_page)
# of the base's build (BEFORE, f964849) and this tree's, alternated three times under one hold
# of the CPU lock, the least of each kept (the VM's speed drifts: README.md). From the root.
set -eu
BEFORE=${1:?the base build of bench/scanbench}
for i in 1 2 3; do
    for b in before after; do
        if [ $b = before ]; then S=$BEFORE; else S=bench/scanbench; fi
        "$S" run --set counters=sim --set machine=x4500 --set executor=minimal,pg81,pg82 \
            --set op=count,vacuum --set table_size=8M --set repetitions=2 --set warmup=0 \
            -o /tmp/host-cost-$b-$i.json > /dev/null 2>&1
        python3 -c "
import json; d = json.load(open('/tmp/host-cost-$b-$i.json'))
print('$b', $i, ' '.join('%s/%s=%.0f' % (r['op'], r['executor'], r['predicted']['op_host_ns_per_page'])
      for r in d['runs'] if r['policy'] == 'clock'))"
        rm -f /tmp/host-cost-$b-$i.json /tmp/host-cost-$b-$i.csv
    done
done
