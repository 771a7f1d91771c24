/* cachesim.h: the cachesim subsystem's public header: the cache model (model.h: up to three
 * levels, LRU or tree pseudo-LRU, inclusive, exclusive or non-inclusive, write-back,
 * write-combining buffers, in slices that add up exactly) and the machines it models
 * (machine.h: machine files, or the host's topology), what their events cost (costs.h) and
 * the time model that turns a phase's events into seconds (timemodel.h). It knows no scanbench type beyond what it
 * is fed: line addresses, a geometry, the host's topology. On core and host. */
#ifndef SB_CACHESIM_H
#define SB_CACHESIM_H

#include "cachesim/costs.h"
#include "cachesim/machine.h"
#include "cachesim/model.h"
#include "cachesim/timemodel.h"

#endif
