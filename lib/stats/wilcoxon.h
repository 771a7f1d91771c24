/* SPDX-License-Identifier: BSD-3-Clause */
/* wilcoxon.h: the Wilcoxon signed-rank test, two-sided, for paired samples (the per-round
 * differences of two configurations timed in the same rounds). Zero differences are dropped
 * (Wilcoxon's convention); tied absolute differences take their mean rank. The p-value is exact
 * (the null distribution of W+ by counting, all 2^n sign patterns weighted alike) for at most
 * SB_WILCOXON_EXACT_MAX non-zero differences without ties, else the normal approximation with
 * the tie and continuity corrections. */
#ifndef SB_WILCOXON_H
#define SB_WILCOXON_H

#include <stdbool.h>
#include <stddef.h>

#define SB_WILCOXON_EXACT_MAX 50

struct sb_wilcoxon {
    size_t n;      /* non-zero differences used */
    double w_plus; /* sum of the ranks of the positive differences */
    double p;      /* two-sided p-value; 1 when n is 0 */
    bool exact;
};

struct sb_wilcoxon sb_wilcoxon_signed_rank(const double *d, size_t n);

#endif
