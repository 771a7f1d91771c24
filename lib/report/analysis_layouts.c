/* SPDX-License-Identifier: BSD-3-Clause */
/* analysis_layouts.c: each run's layouts: their medians, and the spread between them. */
#include "config.h"
#include "report/analysis_layouts.h"

#include <math.h>
#include <stdlib.h>

#include "report/analysis_level.h"
#include "report/runs.h"
#include "stats/stats.h"

/* y[r]: ln MB/s of the run in round r (x) less the host's level without it (level). */
static void relative(const double *x, const double *level, size_t nrounds, double *y)
{
    for (size_t r = 0; r < nrounds; r++)
        y[r] = x[r] > 0 && isfinite(x[r]) ? log(x[r]) - level[r] : NAN;
}

/* [{"layout", "rounds", "median"}] of run i's MB/s (x) by layout, in order of first round. */
static json_t *medians_json(const double *x, const uint32_t *groups, size_t nrounds)
{
    json_t *list = json_array();
    double *v = malloc((nrounds ? nrounds : 1) * sizeof *v);

    for (size_t r = 0; list && v && r < nrounds; r++) {
        size_t m = 0, q;
        for (q = 0; q < r && (groups ? groups[q] : 0) != (groups ? groups[r] : 0); q++)
            ;
        if (q < r)
            continue; /* the layout was listed at its first round */
        for (q = r; q < nrounds; q++)
            if ((groups ? groups[q] : 0) == (groups ? groups[r] : 0) && isfinite(x[q]))
                v[m++] = x[q];
        json_array_append_new(list, json_pack("{s:i, s:i, s:o}", "layout",
                                              groups ? (int)groups[r] : 0, "rounds", (int)m,
                                              "median", m ? json_real(sb_median(v, m))
                                                          : json_null()));
    }
    free(v);
    return list;
}

int sb_analysis_add_layouts(const json_t *report, json_t *runs, size_t nrounds,
                            const uint32_t *groups)
{
    const json_t *report_runs = json_object_get(report, "runs");
    double *y = malloc((nrounds ? nrounds : 1) * sizeof *y);
    json_t *entry;
    size_t i;
    int rc = y ? 0 : -1;

    json_array_foreach(runs, i, entry) {
        double *x = rc == 0 ? sb_run_round_mbps(json_array_get(report_runs, i), nrounds) : NULL;
        double *level = x ? sb_report_round_levels_without(report, nrounds, i) : NULL;
        double sigma = NAN;
        size_t ngroups = 0;
        if (!level) {
            free(x);
            rc = -1;
            break;
        }
        relative(x, level, nrounds, y);
        if (groups)
            sigma = sb_layouts_spread(y, groups, nrounds, NULL, 0, &ngroups);
        json_object_set_new(entry, "layouts", json_integer(groups ? (json_int_t)ngroups : 1));
        json_object_set_new(entry, "layout_medians", medians_json(x, groups, nrounds));
        json_object_set_new(entry, "layout_spread",
                            isfinite(sigma) ? json_real(exp(2.0 * sigma) - 1.0) : json_null());
        free(x);
        free(level);
    }
    free(y);
    return rc;
}
