/* SPDX-License-Identifier: BSD-3-Clause */
/* context.h: the `context` block of a report: what machine and build produced the numbers
 * (host, CPU model, caches and where each figure came from, each cache's effective size, NUMA
 * nodes, kernel release, compiler and flags, scanbench version and git hash, date, frequency
 * governor, THP and NUMA-balancing state, timer). A fact that could not be read says why,
 * never a made-up value. */
#ifndef SB_CONTEXT_H
#define SB_CONTEXT_H

#include <jansson.h>

#include "host/host.h"

struct sb_machine; /* cachesim/machine.h */

/* host: the runs' machine that is this host's own (a scanbench probe file) with effective
 * sizes, whose sizes each cache records under "effective"; NULL: none ("not measured"). */
json_t *sb_context_build(const struct sb_topology *topo, const struct sb_machine *host);

#endif
