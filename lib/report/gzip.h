/* SPDX-License-Identifier: BSD-3-Clause */
/* gzip.h: a report's text gzip-compressed where its file's name ends in ".gz" (zlib's gzip
 * format, one member or several as gzip(1) writes them), whole in memory: the writer hands the
 * compressed bytes to outfile.h's writer as it would the text, so the file is complete before it
 * is linked into place; the reader inflates the file whole and refuses a truncated or corrupt one
 * with one line naming it. */
#ifndef SB_REPORT_GZIP_H
#define SB_REPORT_GZIP_H

#include <stdbool.h>
#include <stddef.h>

#include "core/core.h"

/* Whether path names a compressed report: its name ends in ".gz". */
bool sb_report_gz_named(const char *path);

/* text (len bytes) compressed in the gzip format into *out (malloc'd, *out_len bytes);
 * SB_ERR_RUN naming path when out of memory. */
int sb_report_gz_deflate(const char *text, size_t len, const char *path, char **out,
                         size_t *out_len, struct sb_error *err);

/* The gzip data (len bytes) of file path inflated into *out (malloc'd, NUL-terminated,
 * *out_len bytes before the NUL); SB_ERR_INPUT, "PATH: not a whole gzip file (WHY)", when it
 * is truncated, corrupt or followed by bytes that are not gzip. */
int sb_report_gz_inflate(const char *data, size_t len, const char *path, char **out,
                         size_t *out_len, struct sb_error *err);

#endif
