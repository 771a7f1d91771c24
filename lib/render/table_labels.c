/* SPDX-License-Identifier: BSD-3-Clause */
/* table_labels.c: what tells a report's runs apart, and each run's label (see
 * table_labels.h). */
#include "config.h"
#include "render/table_labels.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "core/core.h"
#include "report/report.h"
#include "vocab/vocab.h"

/* Keys that, when they differ between runs, become part of the column label. */
static const char *const distinguishing[] = {
    "executor", "kernel", "table_size", "page_size", "row_width", "source", "bigtable",
    "dead_pct", "threads", "shared_table", "shared_pool", "seed", "writeback",
    "checkpoint_pages", "writeback_kernel", "hint_bits", "extra_copy", NULL};

bool sb_table_key_varies(const json_t *runs, const char *key)
{
    const json_t *first = json_object_get(json_array_get(runs, 0), key);
    size_t i;
    json_t *run;

    json_array_foreach(runs, i, run) {
        const json_t *v = json_object_get(run, key);
        if ((v || first) && !json_equal(v, first)) /* absent in every run: not varying */
            return true;
    }
    return false;
}

/* The cache model a simulated run used, as a label: "x4500", "x4500+prefetch"; "" if none. */
static const char *model_tag(const json_t *run, char *buf, size_t len)
{
    const json_t *machine = sb_field(run, "counters.machine");

    snprintf(buf, len, "%s%s", sb_field_text_or(machine, "name", ""),
             json_is_true(json_object_get(machine, "prefetch")) ? "+prefetch" : "");
    return buf;
}

static bool model_varies(const json_t *runs)
{
    char first[96], other[96];
    size_t i;
    json_t *run;

    model_tag(json_array_get(runs, 0), first, sizeof first);
    json_array_foreach(runs, i, run) if (strcmp(model_tag(run, other, sizeof other), first) != 0)
        return true;
    return false;
}

/* Whether the runs asked for different slice_ms (a report before the key has none). */
static bool slice_varies(const json_t *runs)
{
    const json_t *first = sb_field(json_array_get(runs, 0), "slice.asked_ms");
    size_t i;
    json_t *run;

    json_array_foreach(runs, i, run) {
        const json_t *v = sb_field(run, "slice.asked_ms");
        if (json_number_value(v) != json_number_value(first))
            return true;
    }
    return false;
}

#define N_DISTINGUISHING (sizeof distinguishing / sizeof *distinguishing - 1)
_Static_assert(N_DISTINGUISHING <= SB_TABLE_MAX_KEYS, "struct sb_table_varying holds every key");

void sb_table_varying_of(const json_t *runs, struct sb_table_varying *v)
{
    v->pool_size = sb_table_key_varies(runs, "pool_size");
    for (size_t k = 0; k < N_DISTINGUISHING; k++)
        v->key[k] = sb_table_key_varies(runs, distinguishing[k]);
    v->slice = slice_varies(runs);
    v->model = model_varies(runs);
}

void sb_table_label(const struct sb_table_varying *vary, const json_t *run, char *label, size_t len)
{
    char size[32];
    const char *policy = json_string_value(json_object_get(run, "policy"));
    uint64_t footprint = (uint64_t)json_integer_value(json_object_get(run, "footprint"));
    size_t used = (size_t)snprintf(label, len, "%s %s", policy ? policy : "?",
                                   sb_format_size(footprint, size, sizeof size));

    /* a ring inside pools of several sizes: say which pool */
    if (strcmp(policy ? policy : "", "ring") == 0 && vary->pool_size && used < len)
        used += (size_t)snprintf(label + used, len - used, " in %s",
                                 sb_format_size((uint64_t)json_integer_value(
                                                    json_object_get(run, "pool_size")),
                                                size, sizeof size));
    for (int k = 0; distinguishing[k] && used < len; k++) {
        const json_t *v = json_object_get(run, distinguishing[k]);
        if (!vary->key[k] || json_is_null(v))
            continue;
        if (json_is_string(v))
            used += (size_t)snprintf(label + used, len - used, " %s", json_string_value(v));
        else if (json_is_boolean(v))
            used += (size_t)snprintf(label + used, len - used, " %s=%s", distinguishing[k],
                                     json_is_true(v) ? "yes" : "no");
        else if (strstr(distinguishing[k], "size"))
            used += (size_t)snprintf(label + used, len - used, " %s=%s", distinguishing[k],
                                     sb_format_size((uint64_t)json_integer_value(v), size,
                                                    sizeof size));
        else if (json_is_real(v))
            used += (size_t)snprintf(label + used, len - used, " %s=%g", distinguishing[k],
                                     json_real_value(v));
        else
            used += (size_t)snprintf(label + used, len - used, " %s=%lld", distinguishing[k],
                                     (long long)json_integer_value(v));
    }
    /* a sweep of slice_ms: say which */
    if (used < len && vary->slice)
        used += (size_t)snprintf(label + used, len - used, " slice_ms=%g",
                                 json_number_value(sb_field(run, "slice.asked_ms")));
    /* runs simulated with different machine models: say which */
    if (used < len && vary->model)
        used += (size_t)snprintf(label + used, len - used, " %s",
                                 model_tag(run, size, sizeof size));
}

/* A comparison's side ("a" or "b") as its column is labelled (the placement, and the swept
 * keys that tell the runs apart), else its placement. */
const char *sb_table_side_label(const json_t *report, const struct sb_table_varying *vary,
                              const json_t *c, const char *side, char *buf, size_t len)
{
    const json_t *runs = json_object_get(report, "runs"), *run;
    const char *name = sb_text_or(json_object_get(c, side), "");
    size_t i;

    json_array_foreach(runs, i, run) {
        if (strcmp(sb_field_text_or(run, "name", ""), name) == 0) {
            sb_table_label(vary, run, buf, len);
            return buf;
        }
    }
    snprintf(buf, len, "%s", sb_text_or(json_object_get(c, strcmp(side, "a") == 0 ? "a_placement"
                                                                            : "b_placement"),
                                    "?"));
    return buf;
}
