/* SPDX-License-Identifier: BSD-3-Clause */
/* table_model.h: under the run table, what the time model said: each run's predicted MB/s on
 * the machine it emulates beside the MB/s measured here, with its time by phase and the
 * calibration (issue 19); the host's fit, predicted against measured MB/s per run (report/
 * fit.h). Private to lib/render. */
#ifndef SB_RENDER_TABLE_MODEL_H
#define SB_RENDER_TABLE_MODEL_H

#include <jansson.h>
#include <stdio.h>

void sb_table_predictions(FILE *out, const json_t *runs);
void sb_table_fit(FILE *out, const json_t *report);

#endif
