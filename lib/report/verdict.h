/* SPDX-License-Identifier: BSD-3-Clause */
/* verdict.h: what a reproduced experiment says about the 2007 hypothesis, computed from the
 * report and its analysis (analysis.h): for each op, the L2-confined ("fast") placement against
 * the scattered ("slow") one: the paired ratio here with its interval and call (faster, the
 * same, slower, inconclusive, or withheld on a host too noisy), the thread's ratio, and whether
 * the counters (measured or simulated, labelled) show fewer L2 write-backs and less memory
 * traffic per page; and the knees of every clock sweep over pool sizes, with their uncertainty
 * or "no clear knee". */
#ifndef SB_VERDICT_H
#define SB_VERDICT_H

#include <jansson.h>

/* The report's "verdict" block, from its "runs" and "thread" blocks and its analysis. */
json_t *sb_verdict_build(const json_t *report, const json_t *analysis);

/* The [thread] figure of op at placement in the report's "thread" block, or NULL. */
const json_t *sb_find_thread_figure(const json_t *thread, const char *op,
                                    const char *placement);

#endif
