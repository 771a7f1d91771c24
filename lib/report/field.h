/* SPDX-License-Identifier: BSD-3-Clause */
/* field.h: reading a report's fields, with what a missing or mistyped field gives chosen once:
 * text "" (or the caller's placeholder), a number NaN, an integer 0, a node NULL. A path names
 * object keys and array positions joined by dots: "analysis.noise.floor", "runs.0.name".
 * Every renderer and analysis reads the report through these. */
#ifndef SB_REPORT_FIELD_H
#define SB_REPORT_FIELD_H

#include <jansson.h>

/* The node at path below root, or NULL (a missing key, an index past the end, a step into a
 * value that is neither object nor array). An empty path is root itself. */
const json_t *sb_field(const json_t *root, const char *path);

/* v's text; "" when v is not a string (NULL included). */
const char *sb_text(const json_t *v);

/* v's text; missing when v is not a string. */
const char *sb_text_or(const json_t *v, const char *missing);

/* The text, number or integer at path below root: "", NaN and 0 when absent or of another
 * type (a number reads an integer too). */
const char *sb_field_text(const json_t *root, const char *path);
const char *sb_field_text_or(const json_t *root, const char *path, const char *missing);
double sb_field_number(const json_t *root, const char *path);
long long sb_field_integer(const json_t *root, const char *path);

#endif
