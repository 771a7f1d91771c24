/* SPDX-License-Identifier: BSD-3-Clause */
/* pg_variance.c: how pg's rounds stopped, and where each run's scan time varies (see
 * pg_variance.h). */
#include "config.h"
#include "render/pg_variance.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "report/report.h"

#define CLEAR_SHARE 0.05 /* a factor or covariate is printed when its interval starts above */

static double value(const json_t *o, const char *key)
{
    const json_t *v = json_object_get(o, key);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

void sb_render_pg_aa(FILE *out, const json_t *report)
{
    const json_t *aa = sb_field(report, "analysis.noise.aa"), *s;
    double smallest = NAN;
    size_t i;

    if (!json_is_object(aa))
        return;
    json_array_foreach(json_object_get(aa, "shifted"), i, s)
        if (isnan(smallest) && json_is_true(json_object_get(s, "found")))
            smallest = value(s, "shift");
    fprintf(out, "the A-A pair (the same settings on two clusters): %.2fx [%.2f, %.2f]: %s at "
            "2%%; ", value(aa, "ratio"), value(aa, "lo"), value(aa, "hi"),
            sb_field_text(aa, "call"));
    if (isnan(smallest))
        fprintf(out, "its differences shifted by up to 20%% were not found\n");
    else
        fprintf(out, "its differences shifted by %.0f%% and more were found (a shift of real "
                "data, not a measured difference)\n", 100.0 * smallest);
}

void sb_render_pg_stopping(FILE *out, const json_t *report)
{
    const json_t *s = json_object_get(report, "schedule");
    const char *by = sb_field_text_or(s, "stopped_by", "");
    double precision = value(s, "precision");
    long long rounds = json_integer_value(json_object_get(s, "rounds")),
              instances = json_integer_value(json_object_get(s, "instances"));

    if (!json_is_integer(json_object_get(s, "instances")))
        return;
    fprintf(out, "rounds: %lld on %lld instance%s of each cluster (every cluster restarted "
            "after %lld rounds), ", rounds, instances, instances == 1 ? "" : "s",
            json_integer_value(sb_field(s, "instance.rounds")));
    if (strcmp(by, "precision") == 0)
        fprintf(out, "stopped when every pair's interval was within +-%.0f%%\n",
                100.0 * precision);
    else if (strcmp(by, "time_budget") == 0)
        fprintf(out, "stopped at the time budget before every pair's interval was within "
                "+-%.0f%% (give it more: --set time_budget=SECONDS)\n", 100.0 * precision);
    else if (strcmp(by, "max_rounds") == 0)
        fprintf(out, "stopped at the most rounds a report holds, before every pair's interval "
                "was within +-%.0f%%\n", 100.0 * precision);
    else
        fprintf(out, "as asked (repetitions)\n");
}

/* "NAME 12% [3, 25]" into buf. */
static void share_text(const json_t *s, char *buf, size_t len)
{
    snprintf(buf, len, "%s %.0f%% [%.0f, %.0f]", sb_field_text(s, "name"),
             100.0 * value(s, "share"), 100.0 * value(s, "lo"), 100.0 * value(s, "hi"));
}

/* The shares of list whose interval starts above CLEAR_SHARE (all of them when all), joined. */
static size_t shares_line(FILE *out, const json_t *list, bool all, const char *lead)
{
    size_t i, printed = 0;
    json_t *s;
    char text[192];

    json_array_foreach(list, i, s) {
        if (!all && !(value(s, "lo") > CLEAR_SHARE))
            continue;
        share_text(s, text, sizeof text);
        fprintf(out, "%s%s", printed ? ", " : lead, text);
        printed++;
    }
    return printed;
}

void sb_render_pg_variance(FILE *out, const json_t *report)
{
    const json_t *v = sb_field(report, "analysis.variance");
    size_t i;
    json_t *run;

    if (!json_is_object(v))
        return;
    fprintf(out, "\nWhere a scan's time varies between rounds (share of its variance [95%% "
            "interval]; the backend's times from the kernel's schedstat; the three parts add "
            "up to 100%%; factors and covariates, each alone, shown when clearly above %.0f%%):\n",
            100.0 * CLEAR_SHARE);
    json_array_foreach(json_object_get(v, "runs"), i, run) {
        size_t shown;
        fprintf(out, "  %s (cv %.1f%%): ", sb_field_text(run, "run"), 100.0 * value(run, "cv"));
        shares_line(out, json_object_get(run, "parts"), true, "");
        shown = shares_line(out, json_object_get(run, "factors"), false, "; ");
        shown += shares_line(out, json_object_get(run, "covariates"), false, "; ");
        fprintf(out, "%s\n", shown ? "" : "; no factor or covariate clearly above 5%");
    }
}
