/* SPDX-License-Identifier: BSD-3-Clause */
/* pg_variance.h: under pg's paired ratios, how the rounds stopped and where each run's scan
 * time varies between rounds (the analysis' `variance` block, report/analysis_variance.h). */
#ifndef SB_RENDER_PG_VARIANCE_H
#define SB_RENDER_PG_VARIANCE_H

#include <jansson.h>
#include <stdio.h>

/* "the A-A pair (...): 1.00x [0.98, 1.02]: the same within 2%; a shift of 5% found" from the
 * analysis' noise.aa. */
void sb_render_pg_aa(FILE *out, const json_t *report);

/* "rounds: N on K instances of each cluster, stopped ..." from the report's schedule. */
void sb_render_pg_stopping(FILE *out, const json_t *report);

/* The block: per run its parts, and the factors and covariates whose share is clearly above
 * 5% (interval's low end); nothing when the report has no such block. */
void sb_render_pg_variance(FILE *out, const json_t *report);

#endif
