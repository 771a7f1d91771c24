/* SPDX-License-Identifier: BSD-3-Clause */
/* table_counters.h: under the run table, what the counters said: a row per run of the
 * figures derived per page and per table byte (and per phase, from the cache model), titled
 * with where they come from (simulated: the model; measured: the backend); the counters' state
 * in one line, or one per run where they differ; the accuracy check of the memory bytes.
 * Private to lib/render. */
#ifndef SB_RENDER_TABLE_COUNTERS_H
#define SB_RENDER_TABLE_COUNTERS_H

#include <jansson.h>
#include <stdio.h>

void sb_table_counters(FILE *out, const json_t *runs);

#endif
