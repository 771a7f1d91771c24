/* SPDX-License-Identifier: BSD-3-Clause */
/* analysis_variance.c: where each live run's scan time varies between rounds (see
 * analysis_variance.h). */
#include "config.h"
#include "report/analysis_variance.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/analysis_level.h"
#include "report/field.h"
#include "report/runs.h"
#include "stats/stats.h"

#define RESAMPLES 1000
#define NO_RUN 0xffffffffu /* a new instance's or the rounds' first scan: nothing timed before */

static const char *const part_names[] = {"on a CPU", "waiting for a CPU", "off a CPU"};
static const char *const part_keys[] = {"on_cpu", "waiting", "off_cpu"};
enum { NPARTS = 3, NCOVARIATES = 7 };
static const char *const covariate_names[NCOVARIATES] = {
    "the other server processes on a CPU", "everything else on a CPU", "steal",
    "the kernel's dirty bytes at the start", "bytes the kernel wrote out",
    "the backend's minor faults", "the round's host level"};

/* Each run's timed scans: its columns, one row per scan with a whole `around`. */
struct columns {
    double *y, *parts[NPARTS], *cov[NCOVARIATES];
    uint32_t *instance, *before, *cpu;
    size_t n;
};

/* The run (0-based; the reference is nruns) timed at each (round, position). */
struct order {
    uint32_t *at;
    size_t nrounds, width;
};

static double number(const json_t *o, const char *key)
{
    const json_t *v = json_object_get(o, key);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

static void order_add(struct order *o, const json_t *scans, uint32_t run)
{
    size_t i;
    json_t *scan;

    json_array_foreach(scans, i, scan) {
        json_int_t r = json_integer_value(json_object_get(scan, "round")),
                   p = json_integer_value(json_object_get(scan, "position"));
        if (r >= 0 && (size_t)r < o->nrounds && p >= 0 && (size_t)p < o->width)
            o->at[(size_t)r * o->width + (size_t)p] = run;
    }
}

/* Who ran right before (round r, position p): the position before, or the previous round's
 * last when the instance did not change in between; nothing for a scan outside the order. */
static uint32_t run_before(const struct order *o, json_int_t r, json_int_t p, bool new_instance)
{
    if (r < 0 || (size_t)r >= o->nrounds || p < 0 || (size_t)p >= o->width)
        return NO_RUN;
    if (p > 0)
        return o->at[(size_t)r * o->width + (size_t)p - 1];
    if (r == 0 || new_instance)
        return NO_RUN;
    for (size_t q = o->width; q-- > 0;)
        if (o->at[(size_t)(r - 1) * o->width + q] != NO_RUN)
            return o->at[(size_t)(r - 1) * o->width + q];
    return NO_RUN;
}

static int columns_alloc(struct columns *c, size_t n)
{
    bool ok = true;

    memset(c, 0, sizeof *c);
    n = n ? n : 1;
    c->y = calloc(n, sizeof *c->y);
    for (int k = 0; k < NPARTS; k++)
        ok &= (c->parts[k] = calloc(n, sizeof *c->parts[k])) != NULL;
    for (int k = 0; k < NCOVARIATES; k++)
        ok &= (c->cov[k] = calloc(n, sizeof *c->cov[k])) != NULL;
    c->instance = calloc(n, sizeof *c->instance);
    c->before = calloc(n, sizeof *c->before);
    c->cpu = calloc(n, sizeof *c->cpu);
    return ok && c->y && c->instance && c->before && c->cpu ? 0 : -1;
}

static void columns_free(struct columns *c)
{
    free(c->y);
    for (int k = 0; k < NPARTS; k++)
        free(c->parts[k]);
    for (int k = 0; k < NCOVARIATES; k++)
        free(c->cov[k]);
    free(c->instance);
    free(c->before);
    free(c->cpu);
}

/* One scan's row, when its `around` is whole; level: each round's host level without this
 * run (ln MB/s, analysis_level.h), or NULL. */
static void add_row(struct columns *c, const json_t *scan, const struct order *o,
                    uint32_t last_instance, const double *level)
{
    json_int_t round = json_integer_value(json_object_get(scan, "round"));
    const json_t *a = json_object_get(scan, "around");
    double v[NPARTS], on;
    size_t i = c->n;

    for (int k = 0; k < NPARTS; k++)
        if (isnan(v[k] = number(a, part_keys[k])))
            return;
    on = v[0];
    c->y[i] = v[0] + v[1] + v[2];
    for (int k = 0; k < NPARTS; k++)
        c->parts[k][i] = v[k];
    c->cov[0][i] = number(a, "others_on_cpu");
    c->cov[1][i] = number(a, "host_busy") - on;
    c->cov[2][i] = number(a, "steal");
    c->cov[3][i] = number(a, "dirty_bytes");
    c->cov[4][i] = number(a, "written_bytes");
    c->cov[5][i] = number(a, "minor_faults");
    c->cov[6][i] = level && round >= 0 && (size_t)round < o->nrounds ? level[round] : NAN;
    c->instance[i] = (uint32_t)json_integer_value(json_object_get(scan, "layout"));
    c->cpu[i] = json_is_integer(json_object_get(a, "cpu"))
                    ? (uint32_t)json_integer_value(json_object_get(a, "cpu")) : NO_RUN;
    c->before[i] = run_before(o, round, json_integer_value(json_object_get(scan, "position")),
                              c->instance[i] != last_instance);
    c->n++;
}

static json_t *share_json(const char *name, const struct sb_share *s)
{
    json_t *o = json_pack("{s:s}", "name", name);

    json_object_set_new(o, "share", isnan(s->share) ? json_null() : json_real(s->share));
    json_object_set_new(o, "lo", isnan(s->lo) ? json_null() : json_real(s->lo));
    json_object_set_new(o, "hi", isnan(s->hi) ? json_null() : json_real(s->hi));
    if (isnan(s->share))
        json_object_set_new(o, "why", json_string("not measured, or the same in every scan"));
    return o;
}

static bool all_finite(const double *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(v[i]))
            return false;
    return true;
}

/* The run's block from its columns; b's seed differs by run. */
static json_t *run_json(const char *name, const struct columns *c,
                        const struct sb_share_bootstrap *b)
{
    static const char *const factor_names[] = {"the server instance", "the run timed just before",
                                               "the CPU the backend ran on"};
    const uint32_t *factors[] = {c->instance, c->before, c->cpu};
    const double *parts[NPARTS] = {c->parts[0], c->parts[1], c->parts[2]};
    struct sb_share share[NPARTS];
    struct sb_stats st;
    json_t *p = json_array(), *f = json_array(), *v = json_array();

    sb_shares_additive(c->y, parts, NPARTS, c->n, b, share);
    for (int k = 0; k < NPARTS; k++)
        json_array_append_new(p, share_json(part_names[k], &share[k]));
    for (int k = 0; k < 3; k++) {
        sb_share_factor(c->y, factors[k], c->n, b, &share[0]);
        json_array_append_new(f, share_json(factor_names[k], &share[0]));
    }
    for (int k = 0; k < NCOVARIATES; k++) {
        share[0] = (struct sb_share){NAN, NAN, NAN};
        if (all_finite(c->cov[k], c->n))
            sb_share_covariate(c->y, c->cov[k], c->n, b, &share[0]);
        json_array_append_new(v, share_json(covariate_names[k], &share[0]));
    }
    sb_stats_from_seconds(c->y, c->n, 1, &st);
    return json_pack("{s:s, s:i, s:o, s:o, s:o, s:o}", "run", name, "scans", (int)c->n, "cv",
                     isfinite(st.cv) ? json_real(st.cv) : json_null(), "parts", p, "factors", f,
                     "covariates", v);
}

/* Every run's and the reference's scans placed by (round, position). */
static int order_build(struct order *o, const json_t *runs, const json_t *reference,
                       size_t nrounds)
{
    size_t i;
    json_t *run;

    o->nrounds = nrounds;
    o->width = json_array_size(runs) + 2;
    o->at = malloc((nrounds ? nrounds : 1) * o->width * sizeof *o->at);
    if (!o->at)
        return -1;
    for (size_t k = 0; k < nrounds * o->width; k++)
        o->at[k] = NO_RUN;
    json_array_foreach(runs, i, run)
        order_add(o, json_object_get(run, "scans"), (uint32_t)i);
    order_add(o, reference, (uint32_t)json_array_size(runs));
    return 0;
}

static const char method[] =
    "each run's timed scans, round by round: y = the first backend's seconds, which the "
    "kernel's schedstat splits into on a CPU, waiting for one and off a CPU (sleeping: reads, "
    "the round trip); a part's share is cov(part, y) / var(y) (the parts' shares sum to 1); a "
    "factor's or a covariate's share is the adjusted R^2 of y on it alone (the group means; a "
    "straight line; the round's host level is the other runs' ln MB/s in that round, as the "
    "analysis' host level), about 0 when it explains nothing, and they overlap; 95% percentile "
    "bootstrap intervals over the scans (1000 resamples, fixed seed), moved by the resamples' "
    "bias";

json_t *sb_analysis_variance(const json_t *report)
{
    const json_t *runs = json_object_get(report, "runs");
    struct sb_share_bootstrap b = {SB_CONFIDENCE, RESAMPLES, SB_BOOTSTRAP_SEED};
    struct order o = {0};
    json_t *list = json_array(), *run;
    size_t i;

    if (order_build(&o, runs, sb_report_reference_scans(report), sb_report_rounds(report)) != 0)
        return json_decref(list), NULL;
    json_array_foreach(runs, i, run) {
        const json_t *scans = json_object_get(run, "scans"), *scan;
        struct columns c;
        uint32_t last = 0;
        size_t k;
        double *level = json_array_size(runs) > 1
                            ? sb_report_round_levels_without(report, o.nrounds, i) : NULL;
        if (columns_alloc(&c, json_array_size(scans)) == 0) {
            json_array_foreach(scans, k, scan) {
                uint32_t here = (uint32_t)json_integer_value(json_object_get(scan, "layout"));
                add_row(&c, scan, &o, k ? last : here, level);
                last = here;
            }
            b.seed = SB_BOOTSTRAP_SEED + 3000 + i;
            if (c.n >= 3)
                json_array_append_new(list, run_json(sb_field_text(run, "name"), &c, &b));
        }
        columns_free(&c);
        free(level);
    }
    free(o.at);
    if (json_array_size(list) == 0)
        return json_decref(list), NULL;
    return json_pack("{s:s, s:o}", "method", method, "runs", list);
}
