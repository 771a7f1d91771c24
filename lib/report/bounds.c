/* SPDX-License-Identifier: BSD-3-Clause */
/* bounds.c: a report's figures against what a machine can be (bounds.h). */
#include "config.h"
#include "report/bounds.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/field.h"

/* A cache of a real machine: at least 256 bytes (no CPU's L1 is smaller), at most 64GB (AMD's
 * largest L3, 3D V-Cache, is 1152MB: 64GB leaves room for what comes) */
#define CACHE_LEAST 256.0
#define CACHE_MOST 68719476736.0

bool sb_report_seconds_ok(const json_t *v)
{
    double s = json_number_value(v);
    return json_is_number(v) && s >= SB_REPORT_SECONDS_LEAST && s <= SB_REPORT_SECONDS_MOST;
}

bool sb_report_bytes_ok(const json_t *v)
{
    double b = json_number_value(v);
    return json_is_number(v) && b >= 1 && b <= SB_REPORT_BYTES_MOST;
}

const char *sb_report_value_text(const json_t *v, char *buf, size_t len)
{
    char *text;

    if (json_is_number(v)) {
        snprintf(buf, len, "%g", json_number_value(v));
        return buf;
    }
    text = v ? json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT) : NULL;
    if (text && strlen(text) > 40)
        snprintf(buf, len, "%.37s... (%zu bytes)", text, strlen(text));
    else
        snprintf(buf, len, "%s", text ? text : "missing");
    free(text);
    return buf;
}

/* A cache's figure: null (not known), or a whole number within [least, most], a power of two
 * where pow2. */
static bool cache_figure_ok(const json_t *v, double least, double most, bool pow2)
{
    json_int_t n = json_integer_value(v);

    if (json_is_null(v))
        return true;
    return json_is_integer(v) && (double)n >= least && (double)n <= most &&
           (!pow2 || (n & (n - 1)) == 0);
}

int sb_report_check_caches(const json_t *doc, const char *path, struct sb_error *err)
{
    static const struct {
        const char *field, *what;
        double least, most;
        bool pow2;
    } figures[] = {
        {"size.value", "a cache size from 256B to 64GB", CACHE_LEAST, CACHE_MOST, false},
        {"effective.value", "a cache size from 256B to 64GB", CACHE_LEAST, CACHE_MOST, false},
        {"line.value", "a power of two from 16 to 512 bytes", 16, 512, true},
    };
    const json_t *caches = sb_field(doc, "context.caches"), *c;
    char value[96];
    size_t i;

    if (!caches)
        return SB_OK;
    if (!json_is_array(caches))
        return sb_fail(err, SB_ERR_INPUT, "%s: \"context\" \"caches\" is %s: not a list",
                       path, sb_report_value_text(caches, value, sizeof value));
    json_array_foreach(caches, i, c) {
        for (size_t f = 0; f < sizeof figures / sizeof figures[0]; f++) {
            const json_t *v = sb_field(c, figures[f].field);
            /* a figure absent is not known, as null; one present is a machine's */
            if (!v || cache_figure_ok(v, figures[f].least, figures[f].most, figures[f].pow2))
                continue;
            return sb_fail(err, SB_ERR_INPUT, "%s: context.caches[%zu].%s is %s: not %s (or "
                           "null)", path, i, figures[f].field,
                           sb_report_value_text(v, value, sizeof value), figures[f].what);
        }
    }
    return SB_OK;
}
