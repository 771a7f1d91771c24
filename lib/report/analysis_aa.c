/* SPDX-License-Identifier: BSD-3-Clause */
/* analysis_aa.c: the A-A pair called, and its differences shifted (see analysis_aa.h). */
#include "config.h"
#include "report/analysis_aa.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/field.h"
#include "report/runs.h"
#include "stats/stats.h"

static const double shifts[] = {0.01, 0.02, 0.03, 0.05, 0.07, 0.10, 0.15, 0.20};
#define NSHIFTS (sizeof shifts / sizeof shifts[0])

/* The second timings (times 1 + shift) against the first, called at SB_DELTA_MIN. */
static int call_pair(const double *first, const double *second, const uint32_t *groups,
                     size_t n, double shift, struct sb_paired *e, const char **call)
{
    double *b = malloc((n ? n : 1) * sizeof *b);
    int rc = b ? 0 : -1;

    for (size_t r = 0; b && r < n; r++)
        b[r] = second[r] * (1.0 + shift);
    if (rc == 0)
        rc = sb_paired_estimate_layouts(b, first, groups, n, SB_CONFIDENCE,
                                        SB_BOOTSTRAP_RESAMPLES, SB_BOOTSTRAP_SEED + 7, e);
    *call = rc == 0 && !isnan(e->ratio) ? sb_call_names[sb_paired_call(e, SB_DELTA_MIN)]
                                        : "inconclusive";
    free(b);
    return rc;
}

static json_t *number(double v) { return isnan(v) ? json_null() : json_real(v); }

static json_t *shifted_json(const double *a, const double *b, const uint32_t *groups, size_t n)
{
    json_t *list = json_array();

    for (size_t k = 0; k < NSHIFTS; k++) {
        struct sb_paired e;
        const char *call;
        if (call_pair(a, b, groups, n, shifts[k], &e, &call) != 0)
            e.ratio = NAN;
        json_array_append_new(list, json_pack("{s:f, s:o, s:s, s:b}", "shift", shifts[k],
                                              "ratio", number(e.ratio), "call", call, "found",
                                              strcmp(call, "faster") == 0));
    }
    return list;
}

json_t *sb_analysis_aa(const json_t *report, size_t nrounds, const uint32_t *groups)
{
    const json_t *run = sb_report_reference_run(report);
    double *a = run ? sb_run_round_mbps(run, nrounds) : NULL;
    double *b = run ? sb_scans_round_mbps(sb_report_reference_scans(report), nrounds) : NULL;
    json_t *block = NULL;
    struct sb_paired e;
    const char *call;

    if (a && b && call_pair(a, b, groups, nrounds, 0.0, &e, &call) == 0)
        block = json_pack(
            "{s:o, s:o, s:o, s:s, s:f, s:o, s:s}", "ratio", number(e.ratio), "lo", number(e.lo),
            "hi", number(e.hi), "call", call, "delta", SB_DELTA_MIN, "shifted",
            shifted_json(a, b, groups, nrounds), "how",
            "the reference's second timing against its first, round by round, as a comparison "
            "is estimated (95%, two-stage over the layouts or instances), called at 2% (not the "
            "noise floor this pair sets); shifted: each round's second MB/s times 1 + shift (this "
            "host's real A-A differences moved by a known factor, not a measured difference), "
            "found when called faster");
    free(a);
    free(b);
    return block;
}

bool sb_analysis_aa_settled(const json_t *report, double precision)
{
    size_t nrounds = sb_report_rounds(report);
    const json_t *run = sb_report_reference_run(report);
    uint32_t *groups = sb_report_round_layouts(report, nrounds);
    double *a = run ? sb_run_round_mbps(run, nrounds) : NULL;
    double *b = run ? sb_scans_round_mbps(sb_report_reference_scans(report), nrounds) : NULL;
    struct sb_paired e;
    const char *call;
    bool done = !run;

    if (a && b && call_pair(a, b, groups, nrounds, 0.0, &e, &call) == 0)
        done = sb_interval_precise(e.lo, e.hi, precision);
    free(a);
    free(b);
    free(groups);
    return done;
}
