/* report_runs.c: naming, finding and measuring the runs of a report. */
#include "config.h"
#include "report_runs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "units.h"

static const char *text(const json_t *v) { return json_is_string(v) ? json_string_value(v) : ""; }

void sb_run_placement(const json_t *run, char *buf, size_t len)
{
    char size[32];
    snprintf(buf, len, "%s %s", text(json_object_get(run, "policy")),
             sb_format_size((uint64_t)json_integer_value(json_object_get(run, "footprint")), size,
                            sizeof size));
}

const json_t *sb_find_run(const json_t *runs, const char *op, const char *placement)
{
    size_t i;
    json_t *run;
    json_array_foreach(runs, i, run) {
        char p[64];
        sb_run_placement(run, p, sizeof p);
        if (strcmp(text(json_object_get(run, "op")), op) == 0 && strcmp(p, placement) == 0)
            return run;
    }
    return NULL;
}

double sb_run_median_mbps(const json_t *run)
{
    return json_number_value(json_object_get(json_object_get(run, "mbps"), "median"));
}

double *sb_run_mbps_samples(const json_t *run, size_t *n)
{
    const json_t *reps = json_object_get(run, "repetitions");
    double bytes = (double)json_integer_value(json_object_get(run, "table_size"));
    double *samples = calloc(json_array_size(reps) + 1, sizeof *samples);
    size_t i;
    json_t *seconds;

    *n = 0;
    if (!samples)
        return NULL;
    json_array_foreach(reps, i, seconds)
        samples[(*n)++] = bytes / json_number_value(seconds) / SB_MB_DECIMAL;
    return samples;
}
