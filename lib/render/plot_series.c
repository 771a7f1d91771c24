/* SPDX-License-Identifier: BSD-3-Clause */
/* plot_series.c: a report's runs grouped into the lines of its plot (see plot_series.h). */
#include "config.h"
#include "render/plot_series.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "report/report.h"

/* What else may differ between runs of one op, policy and kernel: each splits the line when it
 * varies (the key the footprint is made of, pool_size or ring_size, excepted). The field's path
 * in the run record, and its name in the line's title. */
static const struct {
    const char *path[3];
    const char *name;
} line_keys[] = {
    {{"source"}, "source"},           {{"table_size"}, "table_size"},
    {{"page_size"}, "page_size"},     {{"row_width"}, "row_width"},
    {{"dead_pct"}, "dead_pct"},       {{"threads"}, "threads"},
    {{"bigtable"}, "bigtable"},       {{"shared_table"}, "shared_table"},
    {{"shared_pool"}, "shared_pool"}, {{"pool_size"}, "pool_size"},
    {{"ring_size"}, "ring_size"},     {{"seed"}, "seed"},
    {{"warmup"}, "warmup"},           {{"counters", "backend"}, "counters"},
    {{"counters", "machine", "name"}, "machine"},
    {{"counters", "machine", "prefetch"}, "prefetch"},
    {{"placement", "iocache", "asked"}, "iocache_node"},
    {{"placement", "pool", "asked"}, "pool_node"},
};
#define NLINE_KEYS (sizeof line_keys / sizeof line_keys[0])

static const json_t *line_key(const json_t *run, size_t k)
{
    const json_t *v = run;
    for (int d = 0; d < 3 && line_keys[k].path[d]; d++)
        v = json_object_get(v, line_keys[k].path[d]);
    return v;
}

bool sb_plot_same_value(const json_t *a, const json_t *b)
{
    return (!a && !b) || json_equal(a, b);
}

/* The key the footprint is made of for the run's policy (it is the x axis, not a line). */
static bool is_x_key(const json_t *run, size_t k)
{
    const json_t *footprint = json_object_get(run, "footprint");
    return (strcmp(line_keys[k].name, "pool_size") == 0 ||
            strcmp(line_keys[k].name, "ring_size") == 0) &&
           sb_plot_same_value(line_key(run, k), footprint);
}

static int by_footprint(const void *a, const void *b, void *runs)
{
    json_int_t fa = json_integer_value(json_object_get(json_array_get(runs, *(const size_t *)a),
                                                       "footprint"));
    json_int_t fb = json_integer_value(json_object_get(json_array_get(runs, *(const size_t *)b),
                                                       "footprint"));
    return (fa > fb) - (fa < fb);
}

static bool same_group(const json_t *a, const json_t *b)
{
    static const char *const keys[] = {"op", "policy", "kernel"};
    for (size_t k = 0; k < 3; k++)
        if (!sb_plot_same_value(json_object_get(a, keys[k]), json_object_get(b, keys[k])))
            return false;
    return true;
}

/* Which line keys vary within each group of runs of one op, policy and kernel: varies[g] for
 * the group whose first run is g (group[i]: the first run of run i's group). */
static void varying_keys(const json_t *runs, size_t *group, bool (*varies)[NLINE_KEYS])
{
    size_t i, j;
    json_t *run;

    json_array_foreach(runs, i, run) {
        for (j = 0; j < i && !same_group(json_array_get(runs, group[j]), run); j++)
            ;
        group[i] = j < i ? group[j] : i;
        for (size_t k = 0; k < NLINE_KEYS; k++) {
            const json_t *first = json_array_get(runs, group[i]);
            if (group[i] == i)
                varies[i][k] = false;
            else
                varies[group[i]][k] |= !is_x_key(first, k) &&
                                       !sb_plot_same_value(line_key(first, k), line_key(run, k));
        }
    }
}

/* "op policy kernel key=value...", every varying key's value (sizes as sizes). */
static char *line_title(const json_t *run, const bool *varies)
{
    char *title = NULL, value[96];
    size_t len = 0;
    FILE *f = open_memstream(&title, &len);

    if (!f)
        return NULL;
    fprintf(f, "%s %s %s", sb_field_text_or(run, "op", "?"), sb_field_text_or(run, "policy", "?"),
            sb_field_text_or(run, "kernel", "?"));
    for (size_t k = 0; k < NLINE_KEYS; k++) {
        const json_t *v = line_key(run, k);
        if (!varies[k])
            continue;
        if (json_is_integer(v) && json_integer_value(v) >= 0 && strstr(line_keys[k].name, "_size"))
            sb_format_size((uint64_t)json_integer_value(v), value, sizeof value);
        else if (json_is_integer(v))
            snprintf(value, sizeof value, "%lld", (long long)json_integer_value(v));
        else if (json_is_number(v))
            snprintf(value, sizeof value, "%g", json_number_value(v));
        else if (json_is_boolean(v))
            snprintf(value, sizeof value, "%s", json_is_true(v) ? "yes" : "no");
        else
            snprintf(value, sizeof value, "%s", json_is_string(v) ? "" : "none");
        fprintf(f, " %s=%s", line_keys[k].name, json_is_string(v) ? json_string_value(v) : value);
    }
    return fclose(f) == 0 ? title : (free(title), NULL);
}

void sb_plot_series_free(struct series *s, size_t n)
{
    for (size_t k = 0; s && k < n; k++) {
        free(s[k].title);
        free(s[k].runs);
    }
    free(s);
}

/* Two runs on one point of one line: what the plot cannot show (they differ in nothing it
 * draws a line for). */
static int check_points(const json_t *runs, const struct series *s, size_t n,
                        struct sb_error *err)
{
    for (size_t k = 0; k < n; k++)
        for (size_t p = 1; p < s[k].n; p++)
            if (by_footprint(&s[k].runs[p - 1], &s[k].runs[p], (void *)runs) == 0)
                return sb_fail(err, SB_ERR_INPUT, "runs \"%s\" and \"%s\" would be one point of "
                               "the line '%s' (the same footprint, nothing else the plot tells "
                               "apart): plot them from reports of their own",
                               sb_field_text_or(json_array_get(runs, s[k].runs[p - 1]), "name",
                                                "?"),
                               sb_field_text_or(json_array_get(runs, s[k].runs[p]), "name", "?"),
                               s[k].title);
    return SB_OK;
}

/* Groups the runs into lines (struct series): one per op, policy and kernel and per value of
 * every other key that varies among those runs, points sorted by footprint. Every run is on
 * one line. *out is freed with sb_plot_series_free. */
int sb_plot_series_make(const json_t *runs, struct series **out, size_t *nout,
                        struct sb_error *err)
{
    size_t nruns = json_array_size(runs), n = 0, i, *group = calloc(nruns + 1, sizeof *group);
    struct series *s = calloc(nruns + 1, sizeof *s);
    bool (*varies)[NLINE_KEYS] = calloc(nruns + 1, sizeof *varies);
    json_t *run;
    int status = SB_OK;

    if (!s || !group || !varies) {
        status = sb_fail(err, SB_ERR_RUN, "out of memory");
        goto out;
    }
    varying_keys(runs, group, varies);
    json_array_foreach(runs, i, run) {
        char *title = line_title(run, varies[group[i]]);
        size_t k;
        for (k = 0; title && k < n && strcmp(s[k].title, title) != 0; k++)
            ;
        if (!title || (k == n && !(s[n].runs = malloc(nruns * sizeof *s[n].runs)))) {
            free(title);
            status = sb_fail(err, SB_ERR_RUN, "out of memory");
            goto out;
        }
        if (k == n)
            s[n++].title = title;
        else
            free(title);
        s[k].runs[s[k].n++] = i;
    }
    for (size_t k = 0; k < n; k++)
        qsort_r(s[k].runs, s[k].n, sizeof s[k].runs[0], by_footprint, (void *)runs);
    if (nruns == 0)
        status = sb_fail(err, SB_ERR_INPUT, "the report has no runs: nothing to plot");
    else
        status = check_points(runs, s, n, err);
out:
    free(group);
    free(varies);
    if (status != SB_OK) {
        sb_plot_series_free(s, n);
        return status;
    }
    *out = s;
    *nout = n;
    return SB_OK;
}
