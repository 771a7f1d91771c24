/* SPDX-License-Identifier: BSD-3-Clause */
/* reproduction.h: a reproduced experiment as the thread would have shown it: one row per
 * placement (its size also in units of the host's L2), per op the thread's MB/s beside this
 * host's, the fast/slow ratios with their significance, the counters per page (labelled
 * measured or simulated), and the verdict. Reads only the report. And the reproduction's last
 * line: its experiments' verdicts counted together. */
#ifndef SB_RENDER_THREAD_H
#define SB_RENDER_THREAD_H

#include <jansson.h>
#include <stdio.h>

void sb_render_reproduction(FILE *out, const json_t *report);

/* What a reproduction found over its experiments, for its last line. */
struct sb_reproduction_tally {
    int compared, faster, same, slower, by_level, undecided, lowered, with_counters, reproducible, twice;
};

/* Counts report's verdict into t (its comparisons' calls, their counters' say on L2
 * write-backs) and, when --twice judged it (its `reproducibility`), whether it reproduced.
 * A NULL report counts nothing. */
void sb_reproduction_tally_add(struct sb_reproduction_tally *t, const json_t *report);

/* The overall line: the calls of every comparison counted, the write-backs, and with --twice
 * how many experiments reproduced. */
void sb_render_reproduction_overall(FILE *out, const struct sb_reproduction_tally *t);

#endif
