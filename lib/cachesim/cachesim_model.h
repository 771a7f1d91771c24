/* SPDX-License-Identifier: BSD-3-Clause */
/* cachesim_model.h: cachesim's second public header, for the few who drive the cache model
 * (the counters' sim backend): cachesim.h and the model's own interface (model.h: creating a
 * model or its slices, feeding it accesses, copies and streaming stores, reading its counts).
 * Those who only name machines, geometries and counts include cachesim.h alone and do not
 * rebuild when model.h changes. */
#ifndef SB_CACHESIM_MODEL_PUBLIC_H
#define SB_CACHESIM_MODEL_PUBLIC_H

#include "cachesim/cachesim.h"
#include "cachesim/model.h"

#endif
