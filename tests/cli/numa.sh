#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# numa.sh: NUMA placement on any host: local and interleave (and node 0) are bound as asked,
# verified on a sample of pages and reported (asked, what was done, the nodes found, the
# NUMA-balancing state); a placement that is not one, a node that does not exist, and on a
# one-node host `remote`, are bad input (exit 2, one line naming the input); built without
# libnuma, anything but local is refused naming the configure option and the package. The
# two-node checks are numa_two_nodes.sh's.
. "$top_srcdir/tests/lib.sh"
S=$SCANBENCH
SMALL="--set table_size=4M --set pool_size=1M --set repetitions=1 --set warmup=0 --set op=count --set policy=ring --set ring_size=256K"

command -v jq >/dev/null || { echo "jq is missing (Debian: jq)" >&2; exit 99; }
nodes=$($S topo | awk '$1 == "NUMA" { print $3 }')
numa=no
grep -q '^#define HAVE_NUMA 1' "$top_builddir/config.h" && numa=yes

expect_status 2 "not a placement" $S run $SMALL --set pool_node=far
err_is_one_line_containing '--set pool_node=far: pool_node: "far" is not a placement (local, remote, interleave, or a node number)'

if [ $numa = yes ]; then
    R="$SCRATCH/local.json"
    expect_status 0 "local and interleave" $S run $SMALL --set iocache_node=local --set pool_node=interleave -o "$R"
    check "asked and verified" jq -e '.runs[0].placement | .iocache.asked == "local" and
        .pool.asked == "interleave" and .iocache.verified and .pool.verified and .iocache.ok and
        .pool.ok and .iocache.sampled_pages == 64 and (.pool.pages_on_node | add == 64) and
        (.numa_balancing | type == "string")' "$R"
    check "interleave is an mbind" jq -e '.runs[0].placement.pool.policy | test("MPOL_INTERLEAVE")' "$R"
    expect_status 0 "node 0" $S run $SMALL --set pool_node=0 --set iocache_node=0 --set source=file -o "$SCRATCH/n0.json"
    check "node 0: bound and found there" jq -e '.runs[0].placement | (.pool.policy | test("MPOL_BIND node 0")) and
        .pool.pages_on_node == {"0": 64} and .pool.ok and .iocache.ok and (.iocache.policy | test("set_mempolicy"))' "$SCRATCH/n0.json"
    expect_status 2 "a node that does not exist" $S run $SMALL --set pool_node=4000
    err_is_one_line_containing "--set pool_node=4000: pool_node: node 4000 does not exist here (nodes: "
    if [ "$nodes" = 1 ]; then
        expect_status 2 "remote on a one-node host" $S run $SMALL --set iocache_node=remote
        err_is_one_line_containing "--set iocache_node=remote: iocache_node: this host has one NUMA node (0): there is no remote node"
    fi
else
    expect_status 2 "without libnuma" $S run $SMALL --set pool_node=interleave
    err_is_one_line_containing "pool_node: scanbench was built without libnuma: only local (configure --with-numa; Debian: libnuma-dev)"
    expect_status 0 "local without libnuma" $S run $SMALL -o "$SCRATCH/l.json"
    check "first touch, not verified" jq -e '.runs[0].placement.pool | (.policy | test("without libnuma")) and (.verified | not)' "$SCRATCH/l.json"
fi
finish
