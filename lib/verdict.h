/* verdict.h: what a reproduced experiment says about the 2007 hypothesis, computed from the
 * report alone: for each op, the L2-confined ("fast") placement against the scattered ("slow")
 * one: the MB/s ratio here and in the thread, whether the difference is significant
 * (Mann-Whitney U), and whether the counters (measured or simulated, labelled) show fewer L2
 * write-backs and less memory traffic per page; for sweeps of the clock policy over pool sizes,
 * where MB/s falls most ("knees", from 4 pool sizes on), or that a sweep of 2 or 3 has too few
 * points for a knee ("no_knee", with a sentence that says so). */
#ifndef SB_VERDICT_H
#define SB_VERDICT_H

#include <jansson.h>

#include "experiment.h"

/* The report's "thread" block: who, machine, table, slow/fast placements, the figures (with
 * MB/s derived from elapsed seconds where the thread gave a table size). */
json_t *sb_thread_json(const struct sb_thread *thread);

/* The report's "verdict" block, from its "runs" and "thread" blocks. */
json_t *sb_verdict_build(const json_t *report);

/* The [thread] figure of op at placement in the report's "thread" block, or NULL. */
const json_t *sb_find_thread_figure(const json_t *thread, const char *op,
                                    const char *placement);

#endif
