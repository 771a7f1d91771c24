/* SPDX-License-Identifier: BSD-3-Clause */
/* analysis_variance.h: where each live run's scan time varies between rounds: the shares of its
 * variance (stats/shares.h) carried by the parts the kernel splits a scan into (the backend on
 * a CPU, waiting for one, off a CPU), by each factor (the server instance, the run timed just
 * before, the CPU the backend ran on) and by each covariate (the other server processes' CPU
 * time, everything else's, steal, the kernel's dirty bytes, its writing, the backend's minor
 * faults, the round's host level), from each scan's `around` (scanbench pg's records). */
#ifndef SB_ANALYSIS_VARIANCE_H
#define SB_ANALYSIS_VARIANCE_H

#include <jansson.h>

/* The analysis' `variance` block: {method, runs: [{run, scans, cv, parts, factors,
 * covariates}]}, each share {name, share, lo, hi}; NULL when no run's scans have `around`. */
json_t *sb_analysis_variance(const json_t *report);

#endif
