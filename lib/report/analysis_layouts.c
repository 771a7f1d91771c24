/* analysis_layouts.c: each run's layouts: their medians, and the spread between them. */
#include "config.h"
#include "report/analysis_layouts.h"

#include <math.h>
#include <stdlib.h>

#include "report/runs.h"
#include "stats/stats.h"

/* Every series of the report, ln MB/s per round, each centred on its own mean (NaN where it has
 * no figure): the runs in order, then the reference's second instance. */
static double **centred_series(const json_t *report, size_t nrounds, size_t *nseries)
{
    const json_t *runs = json_object_get(report, "runs");
    size_t n = json_array_size(runs) + 1;
    double **s = calloc(n, sizeof *s);

    for (size_t k = 0; s && k < n; k++) {
        double sum = 0.0;
        size_t m = 0;
        s[k] = k + 1 < n ? sb_run_round_mbps(json_array_get(runs, k), nrounds)
                         : sb_scans_round_mbps(sb_report_reference_scans(report), nrounds);
        for (size_t r = 0; s[k] && r < nrounds; r++) {
            s[k][r] = s[k][r] > 0 ? log(s[k][r]) : NAN;
            if (isfinite(s[k][r])) {
                sum += s[k][r];
                m++;
            }
        }
        for (size_t r = 0; s[k] && r < nrounds; r++)
            s[k][r] -= m ? sum / (double)m : 0.0;
    }
    *nseries = s ? n : 0;
    return s;
}

/* y[r]: series i less the mean of the others in round r (the host's level without i), or
 * series i itself where no other has a figure. */
static void relative(double *const *s, size_t nseries, size_t i, size_t nrounds, double *y)
{
    for (size_t r = 0; r < nrounds; r++) {
        double sum = 0.0;
        size_t m = 0;
        for (size_t k = 0; k < nseries; k++)
            if (k != i && s[k] && isfinite(s[k][r])) {
                sum += s[k][r];
                m++;
            }
        y[r] = s[i] ? s[i][r] - (m ? sum / (double)m : 0.0) : NAN;
    }
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
    size_t nseries = 0, i;
    double **s = centred_series(report, nrounds, &nseries);
    double *y = malloc((nrounds ? nrounds : 1) * sizeof *y);
    json_t *entry;
    int rc = s && y ? 0 : -1;

    json_array_foreach(runs, i, entry) {
        double *x = rc == 0 ? sb_run_round_mbps(json_array_get(report_runs, i), nrounds) : NULL;
        double sigma = NAN;
        size_t ngroups = 0;
        if (!x)
            break;
        relative(s, nseries, i, nrounds, y);
        if (groups)
            sigma = sb_layouts_spread(y, groups, nrounds, NULL, 0, &ngroups);
        json_object_set_new(entry, "layouts", json_integer(groups ? (json_int_t)ngroups : 1));
        json_object_set_new(entry, "layout_medians", medians_json(x, groups, nrounds));
        json_object_set_new(entry, "layout_spread",
                            isfinite(sigma) ? json_real(exp(2.0 * sigma) - 1.0) : json_null());
        free(x);
    }
    for (size_t k = 0; s && k < nseries; k++)
        free(s[k]);
    free(s);
    free(y);
    return rc;
}
