/* reproduction.h: a reproduced experiment as the thread would have shown it: one row per
 * placement (its size also in units of the host's L2), per op the thread's MB/s beside this
 * host's, the fast/slow ratios with their significance, the counters per page (labelled
 * measured or simulated), and the verdict. Reads only the report. */
#ifndef SB_RENDER_THREAD_H
#define SB_RENDER_THREAD_H

#include <jansson.h>
#include <stdio.h>

void sb_render_reproduction(FILE *out, const json_t *report);

#endif
