/* SPDX-License-Identifier: BSD-3-Clause */
/* cachesim.h: the cachesim subsystem's public header: the machines it models (machine.h:
 * machine files, or the host's topology), what their events cost (costs.h; from `scanbench
 * probe`'s measurements, costs_probe.h), the time model that turns a phase's events into
 * seconds (timemodel.h) and the cache model's geometry and counts (model_types.h). Driving the
 * model itself (up to three levels, LRU or tree pseudo-LRU, inclusive, exclusive or
 * non-inclusive, write-back, write-combining buffers, in slices that add up exactly) is
 * model.h's, which only those who feed it include (the counters' sim backend, the tests,
 * sim-speed); its set code is model.c's private model_sets.h. It knows no scanbench type
 * beyond what it is fed: line addresses, a geometry, the host's topology. On core and host. */
#ifndef SB_CACHESIM_H
#define SB_CACHESIM_H

#include "cachesim/costs.h"
#include "cachesim/costs_probe.h"
#include "cachesim/machine.h"
#include "cachesim/model_types.h"
#include "cachesim/timemodel.h"

#endif
