#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# numa_two_nodes.sh: placement on a host with two NUMA nodes or more: `remote` puts the pool on
# another node than the scanner's, a node number puts the table there (memory and file), and
# `interleave` spreads the pool over several nodes; each verified on its sample of pages.
# Skipped (77) on a host with one node, or built without libnuma.
. "$top_srcdir/tests/lib.sh"
S=$SCANBENCH
SMALL="--set table_size=8M --set pool_size=4M --set repetitions=1 --set warmup=0 --set op=count --set policy=clock"

command -v jq >/dev/null || { echo "jq is missing (Debian: jq)" >&2; exit 99; }
grep -q '^#define HAVE_NUMA 1' "$top_builddir/config.h" || { echo "SKIP: built without libnuma"; exit 77; }
nodes=$($S topo | awk '$1 == "NUMA" { print $3 }')
if [ "${nodes:-1}" -lt 2 ]; then
    echo "SKIP: this host has ${nodes:-1} NUMA node: the two-node placements cannot be checked"
    exit 77
fi

R="$SCRATCH/remote.json"
expect_status 0 "remote pool" $S run $SMALL --set pool_node=remote -o "$R"
check "remote: found on another node than home" jq -e '.runs[0].placement.pool | .ok and
    (.pages_on_node | keys | length == 1) and ((.pages_on_node | keys[0] | tonumber) != .home_node)' "$R"
for source in memory file; do
    R="$SCRATCH/node1-$source.json"
    expect_status 0 "table on node 1 ($source)" $S run $SMALL --set source=$source --set iocache_node=1 -o "$R"
    check "table on node 1 ($source)" jq -e '.runs[0].placement.iocache | .ok and .pages_on_node == {"1": 64}' "$R"
done
R="$SCRATCH/inter.json"
expect_status 0 "interleaved pool" $S run $SMALL --set pool_node=interleave -o "$R"
check "interleave: several nodes" jq -e '.runs[0].placement.pool | .ok and (.pages_on_node | keys | length >= 2)' "$R"
finish
