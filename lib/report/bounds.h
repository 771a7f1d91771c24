/* SPDX-License-Identifier: BSD-3-Clause */
/* bounds.h: a report's figures against what a machine can be, for the report reader (read.c):
 * a timed scan's seconds from 1 ns to a day, its bytes from 1 to 2^50 (1PB), a cache's size
 * from 256B to 64GB and its line a power of two from 16 to 512 bytes (or null: not known).
 * A report beyond them was edited or broken: compare's ratios and plot's markers came from
 * 5e-324 s and an L2 of -5 bytes. Internal to report. */
#ifndef SB_REPORT_BOUNDS_H
#define SB_REPORT_BOUNDS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "core/core.h"

#define SB_REPORT_SECONDS_LEAST 1e-9
#define SB_REPORT_SECONDS_MOST 86400.0
#define SB_REPORT_BYTES_MOST 1125899906842624.0 /* 2^50 */

/* Whether v is a number of seconds, or of bytes, a timed scan can take or move. */
bool sb_report_seconds_ok(const json_t *v);
bool sb_report_bytes_ok(const json_t *v);

/* v as the message shows it: a number with %g, else its JSON cut to 40 bytes. */
const char *sb_report_value_text(const json_t *v, char *buf, size_t len);

/* The context's caches (context.caches[]: size, effective, line): SB_ERR_INPUT naming path,
 * the field (context.caches[1].size.value) and its value. */
int sb_report_check_caches(const json_t *doc, const char *path, struct sb_error *err);

#endif
