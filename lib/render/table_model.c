/* SPDX-License-Identifier: BSD-3-Clause */
/* table_model.c: the run table's predictions and the host's fit (see table_model.h). */
#include "config.h"
#include "render/table_model.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "core/core.h"
#include "render/table_labels.h"
#include "report/report.h"
#include "vocab/vocab.h"

static double number_or(const json_t *v, double fallback)
{
    return json_is_number(v) ? json_number_value(v) : fallback;
}

/* Issue 19: each run's predicted MB/s on the machine it emulates (runs[].predicted), labelled
 * predicted, beside the MB/s measured on this host; the time by phase; the calibration, or why
 * there is no prediction. Runs without the block: nothing. */
static void prediction_line(FILE *out, const json_t *run, const json_t *p)
{
    const json_t *sec = json_object_get(p, "seconds_per_scan");
    const json_t *cal = json_object_get(p, "calibration");
    double measured = number_or(sb_field(run, "mbps.median"), 0);

    fprintf(out, "  %s: ", sb_field_text_or(run, "name", "?"));
    if (json_is_number(json_object_get(p, "mbps")))
        fprintf(out, "predicted %.0f MB/s on %s, measured %.0f MB/s here",
                number_or(json_object_get(p, "mbps"), 0),
                sb_field_text_or(p, "machine", "?"), measured);
    else
        fprintf(out, "not predicted on %s (%s); measured %.0f MB/s here",
                sb_field_text_or(p, "machine", "?"),
                sb_field_text_or(p, "reason", "?"), measured);
    if (json_is_object(sec))
        fprintf(out, "\n    predicted seconds a scan: copy-in %.4g, op %.4g, write-back %.4g, "
                     "op CPU %s",
                number_or(json_object_get(sec, "copy_in"), 0),
                number_or(json_object_get(sec, "op"), 0),
                number_or(json_object_get(sec, "writeback"), 0),
                json_is_number(json_object_get(sec, "cpu")) ? "" : "none");
    if (json_is_number(json_object_get(sec, "cpu")))
        fprintf(out, "%.4g", json_number_value(json_object_get(sec, "cpu")));
    if (json_is_object(cal))
        fprintf(out, "; core factor %.3g fitted to \"%s\" (%s)%s",
                number_or(json_object_get(cal, "factor"), 0),
                sb_field_text_or(cal, "figure", "?"),
                sb_field_text_or(cal, "experiment", "?"),
                json_is_true(json_object_get(cal, "this_run"))
                    ? ": this run is the calibration, not a prediction" : "");
    fprintf(out, "\n");
}

void sb_table_predictions(FILE *out, const json_t *runs)
{
    bool any = false;
    size_t i;
    json_t *run;

    json_array_foreach(runs, i, run) {
        const json_t *p = json_object_get(run, "predicted");
        if (!json_is_object(p))
            continue;
        if (!any)
            fprintf(out, "\nPredicted MB/s on the emulated machine (its cache model and [costs], "
                         "the time model of doc/cache-model.md; measured = this host)\n");
        any = true;
        prediction_line(out, run, p);
    }
}

/* A fit row's placement as the tables label its run (the kernel, executor or other swept key
 * that tells it apart from the rest), else the fit's own placement. */
static void fit_row_label(const json_t *report, const struct sb_table_varying *vary,
                          const json_t *r, char *buf, size_t len)
{
    const json_t *run = sb_find_run_named(json_object_get(report, "runs"),
                                          sb_field_text_or(r, "name", ""));

    if (run)
        sb_table_label(vary, run, buf, len);
    else
        snprintf(buf, len, "%s", sb_field_text_or(r, "placement", "?"));
}

/* The host's fit (report/fit.h): each run's predicted against measured MB/s, the median error,
 * the rank correlation and the sentence. A report without its "fit" gets one made here. */
void sb_table_fit(FILE *out, const json_t *report)
{
    json_t *fit = json_incref(json_object_get(report, "fit"));
    const json_t *rho, *error;
    struct sb_table_varying vary;
    char label[160];
    int width = 22;
    size_t i;
    json_t *r;

    if (!fit)
        fit = sb_fit_build(report);
    if (!fit)
        return;
    sb_table_varying_of(json_object_get(report, "runs"), &vary);
    json_array_foreach(json_object_get(fit, "runs"), i, r) {
        fit_row_label(report, &vary, r, label, sizeof label);
        width = (int)strlen(label) > width ? (int)strlen(label) : width;
    }
    rho = json_object_get(fit, "spearman");
    error = json_object_get(fit, "median_abs_error");
    fprintf(out, "\nfit on this host: predicted MB/s (the time model, machine %s) against "
            "measured\n  %-8s %-*s %-8s %10s %10s %8s\n", sb_field_text_or(fit, "machine", "?"),
            "op", width, "placement", "resident", "measured", "predicted", "error");
    json_array_foreach(json_object_get(fit, "runs"), i, r) {
        fit_row_label(report, &vary, r, label, sizeof label);
        fprintf(out, "  %-8s %-*s %-8s %10.0f %10.0f %+7.0f%%\n",
                sb_field_text_or(r, "op", "?"), width, label,
                sb_field_text_or(r, "resident", "?"),
                json_number_value(json_object_get(r, "measured_mbps")),
                json_number_value(json_object_get(r, "predicted_mbps")),
                100 * json_number_value(json_object_get(r, "error")));
    }
    fprintf(out, "  median |error| ");
    fprintf(out, json_is_number(error) ? "%.0f%%" : "n/a", 100 * json_number_value(error));
    fprintf(out, ", Spearman rank correlation ");
    fprintf(out, json_is_number(rho) ? "%.2f" : "n/a", json_number_value(rho));
    fprintf(out, " over %lld runs\n%s\n", (long long)json_integer_value(json_object_get(fit, "n")),
            sb_field_text_or(fit, "text", ""));
    json_decref(fit);
}
