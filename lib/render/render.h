/* SPDX-License-Identifier: BSD-3-Clause */
/* render.h: turns a report (the JSON document alone, so a report from another host renders the
 * same) into the thread-style table: one row per operation, one column per placement (policy
 * and the bytes it writes into), MB/s medians, and the ratio when there are two columns. */
#ifndef SB_RENDER_H
#define SB_RENDER_H

#include <jansson.h>
#include <stdio.h>

/* Prints the table; returns 0, or -1 if the report has no runs array. */
int sb_render_table(FILE *out, const json_t *report);

/* the rest of the subsystem's interface */
#include "render/pg.h"
#include "render/plot.h"
#include "render/reproduction.h"

#endif
