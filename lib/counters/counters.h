/* SPDX-License-Identifier: BSD-3-Clause */
/* counters.h: the counters subsystem's public header: the counter interface (interface.h:
 * roles, a run's counters, the backends' registry: none, papi, sim), the events maps that name
 * each role's native events per microarchitecture (events_map.h), PAPI as this process sees it
 * (papi_probe.h), and the sim backend's slices (sim.h). The backends are told of a run in a
 * struct of their own (sb_counting) and know no run type; the sim backend replays a scan's trace
 * through the cache model (sim_replay.h, internal). On core, host, vocab and cachesim. */
#ifndef SB_COUNTERS_H
#define SB_COUNTERS_H

#include "counters/events_map.h"
#include "counters/interface.h"
#include "counters/papi_probe.h"
#include "counters/sim.h"

#endif
