/* SPDX-License-Identifier: BSD-3-Clause */
/* read.h: loading a report written by scanbench (here or on another host) for the
 * renderers, compare and plot: the file must be JSON, whole, of schema "scanbench-report" and
 * of a version this build reads; anything else is bad input naming the file and the problem. */
#ifndef SB_REPORT_READ_H
#define SB_REPORT_READ_H

#include <jansson.h>
#include <stddef.h>

#include "core/core.h"

/* Loads and checks path, inflating it where its name ends in ".gz" (gzip.h: a truncated or
 * corrupt one is bad input); on success *report holds a new reference. */
int sb_report_load(const char *path, json_t **report, struct sb_error *err);

/* The same for a report already in memory (len bytes of text); label names it in errors. */
int sb_report_parse(const char *text, size_t len, const char *label, json_t **report,
                    struct sb_error *err);

#endif
