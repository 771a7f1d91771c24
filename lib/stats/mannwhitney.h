/* SPDX-License-Identifier: BSD-3-Clause */
/* mannwhitney.h: the Mann-Whitney U test (Wilcoxon rank-sum), two-sided, used by compare to say
 * whether two runs' repetitions differ: exact distribution for small samples without ties,
 * the normal approximation with tie and continuity corrections otherwise. */
#ifndef SB_MANNWHITNEY_H
#define SB_MANNWHITNEY_H

#include <stdbool.h>
#include <stddef.h>

struct sb_mann_whitney {
    double u;     /* U of sample a: pairs (a_i, b_j) with a_i > b_j, ties counting 1/2 */
    double p;     /* two-sided p-value */
    bool exact;   /* p from the exact distribution (no ties, n and m at most 30) */
};

/* n and m must be at least 1. */
struct sb_mann_whitney sb_mann_whitney(const double *a, size_t n, const double *b, size_t m);

#endif
