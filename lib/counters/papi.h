/* SPDX-License-Identifier: BSD-3-Clause */
/* papi.h: the `papi` counter backend's functions (its row is in backends.c). Built
 * from papi.c with PAPI; from papi_none.c without, where open() reports the
 * counters unavailable ("built without PAPI") and the run goes on, timed. */
#ifndef SB_COUNTERS_PAPI_H
#define SB_COUNTERS_PAPI_H

#include "counters/interface.h"

int sb_papi_open(struct sb_counters *c, const struct sb_counting *run, struct sb_error *err);
void sb_papi_start(struct sb_counters *c, unsigned rep);
void sb_papi_stop(struct sb_counters *c, unsigned rep);
void sb_papi_close(struct sb_counters *c);

#endif
