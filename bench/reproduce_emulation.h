/* reproduce_emulation.h: `reproduce`'s emulation of the thread's machine (issue 19): the
 * thread's slow and fast placements run again with counters = sim on the thread's machine (its
 * cache model; its [costs] give the predicted MB/s, runner/predict.h), first with every
 * mechanism, then with each switched off in turn; the report's "emulation" block
 * (report/emulation.h) from their predictions. */
#ifndef SB_REPRODUCE_EMULATION_H
#define SB_REPRODUCE_EMULATION_H

#include <jansson.h>
#include <stdbool.h>

#include "core/core.h"
#include "setup.h"

/* Emulates the thread machine of s (read from path with sets, as the reproduction read it) and
 * sets report's "emulation" block: predictions, or "not predicted" with the reason. quick: the
 * emulation's table is --quick's. Errors only for what stops the reproduction (bad input, a
 * stop); a machine without costs or a run without a prediction is said in the block. */
int sb_reproduce_emulate(const char *path, const char *const *sets, int nsets, bool quick,
                         const struct sb_setup *s, json_t *report, struct sb_error *err);

#endif
