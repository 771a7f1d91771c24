/* SPDX-License-Identifier: BSD-3-Clause */
/* runs.c: naming, finding and measuring the runs of a report. */
#include "config.h"
#include "report/runs.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "report/field.h"
#include "vocab/vocab.h"

const char *const sb_report_phase_keys[SB_REPORT_NPHASES] = {"copy_in", "op", "writeback"};
const char *const sb_report_phase_labels[SB_REPORT_NPHASES] = {"copy-in", "op", "write-back"};
const char sb_report_phases_legend[] =
    "by phase (simulated): copy-in = the page's copy into its buffer (and a bigtable's DMA "
    "fill), op = the op's pass, write-back = dirty buffers copied back to the IO cache; each "
    "phase's median";

bool sb_run_has_phases(const json_t *run)
{
    return json_is_object(sb_field(run, "counters.phases"));
}

const json_t *sb_run_phase_derived(const json_t *run, int phase)
{
    const json_t *phases = sb_field(run, "counters.phases");

    if (phase < 0 || phase >= SB_REPORT_NPHASES)
        return NULL;
    return json_object_get(json_object_get(phases, sb_report_phase_keys[phase]), "derived");
}

const json_t *sb_report_noise_floor(const json_t *report)
{
    const json_t *floor = sb_field(report, "analysis.noise.floor");
    return json_is_number(floor) ? floor : NULL;
}

const json_t *sb_report_noise_bound(const json_t *report)
{
    const json_t *noise = sb_field(report, "analysis.noise");
    const json_t *bound = json_object_get(noise, "bound");
    return json_is_number(bound) ? bound : sb_report_noise_floor(report);
}

/* The run's placement: its policy (NULL: one this scanbench does not know) and footprint. */
static struct sb_placement_name run_placement(const json_t *run)
{
    return (struct sb_placement_name){
        .policy = sb_policy_find(sb_field_text(run, "policy")),
        .footprint = (uint64_t)json_integer_value(json_object_get(run, "footprint"))};
}

void sb_run_placement(const json_t *run, char *buf, size_t len)
{
    struct sb_placement_name p = run_placement(run);
    char size[32];

    if (p.policy)
        sb_placement_name_format(&p, buf, len);
    else
        snprintf(buf, len, "%s %s", sb_field_text(run, "policy"),
                 sb_format_size(p.footprint, size, sizeof size));
}

const json_t *sb_find_run_named(const json_t *runs, const char *name)
{
    size_t i;
    json_t *run;

    json_array_foreach(runs, i, run)
        if (strcmp(sb_field_text(run, "name"), name) == 0)
            return run;
    return NULL;
}

const json_t *sb_find_run(const json_t *runs, const char *op, const char *placement)
{
    struct sb_placement_name want, p;
    struct sb_error err = {0};
    size_t i;
    json_t *run;

    if (sb_placement_name_parse(placement, &want, &err) != SB_OK)
        return NULL;
    json_array_foreach(runs, i, run) {
        p = run_placement(run);
        if (strcmp(sb_field_text(run, "op"), op) == 0 && sb_placement_name_equal(&p, &want))
            return run;
    }
    return NULL;
}

double sb_run_median_mbps(const json_t *run)
{
    return json_number_value(sb_field(run, "mbps.median"));
}

double *sb_run_mbps_samples(const json_t *run, size_t *n)
{
    const json_t *reps = json_object_get(run, "repetitions");
    const json_t *per_scan = json_object_get(run, "bytes_per_scan");
    double bytes = (double)json_integer_value(per_scan ? per_scan
                                                       : json_object_get(run, "table_size"));
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

uint32_t *sb_run_mbps_layouts(const json_t *run, size_t n)
{
    const json_t *scans = json_object_get(run, "scans");
    uint32_t *layouts = NULL;
    bool any = false;
    size_t i;
    json_t *scan;

    if (json_array_size(scans) != n || !(layouts = calloc(n ? n : 1, sizeof *layouts)))
        return NULL;
    json_array_foreach(scans, i, scan) {
        const json_t *l = json_object_get(scan, "layout");
        if (json_is_integer(l) && json_integer_value(l) >= 0) {
            layouts[i] = (uint32_t)json_integer_value(l);
            any = true;
        }
    }
    if (!any) {
        free(layouts);
        return NULL;
    }
    return layouts;
}

/* The MB/s of a timed scan record: bytes / seconds / 10^6 (NaN when it does not say). */
static double scan_mbps(const json_t *scan)
{
    double seconds = json_number_value(json_object_get(scan, "seconds"));
    double bytes = (double)json_integer_value(json_object_get(scan, "bytes"));
    return seconds > 0 && bytes > 0 ? bytes / seconds / SB_MB_DECIMAL : NAN;
}

double *sb_scans_round_mbps(const json_t *scans, size_t nrounds)
{
    double *mbps = malloc((nrounds ? nrounds : 1) * sizeof *mbps);
    size_t i;
    json_t *scan;

    if (!mbps)
        return NULL;
    for (size_t r = 0; r < nrounds; r++)
        mbps[r] = NAN;
    json_array_foreach(scans, i, scan) {
        json_int_t r = json_integer_value(json_object_get(scan, "round"));
        if (json_is_integer(json_object_get(scan, "round")) && r >= 0 && (size_t)r < nrounds &&
            isnan(mbps[r]))
            mbps[r] = scan_mbps(scan);
    }
    return mbps;
}

double *sb_run_round_mbps(const json_t *run, size_t nrounds)
{
    return sb_scans_round_mbps(json_object_get(run, "scans"), nrounds);
}

static const json_t *reference(const json_t *report)
{
    return sb_field(report, "schedule.reference");
}

const json_t *sb_report_reference_run(const json_t *report)
{
    const json_t *name = json_object_get(reference(report), "run");

    return json_is_string(name) ? sb_find_run_named(json_object_get(report, "runs"),
                                                    json_string_value(name))
                                : NULL;
}

const json_t *sb_report_reference_scans(const json_t *report)
{
    return json_object_get(reference(report), "scans");
}

size_t sb_report_rounds(const json_t *report)
{
    size_t most = 0, i, k;
    json_t *run, *scan;

    json_array_foreach(json_object_get(report, "runs"), i, run)
        json_array_foreach(json_object_get(run, "scans"), k, scan) {
            json_int_t r = json_integer_value(json_object_get(scan, "round"));
            if (r >= 0 && (size_t)r + 1 > most)
                most = (size_t)r + 1;
        }
    return most;
}

/* Notes the layout of each scan of one list into layouts[round]; whether any scan named one. */
static bool scans_layouts(const json_t *scans, size_t nrounds, uint32_t *layouts)
{
    bool any = false;
    size_t i;
    json_t *scan;

    json_array_foreach(scans, i, scan) {
        const json_t *l = json_object_get(scan, "layout");
        json_int_t r = json_integer_value(json_object_get(scan, "round"));
        if (json_is_integer(l) && json_integer_value(l) >= 0 && r >= 0 && (size_t)r < nrounds) {
            layouts[r] = (uint32_t)json_integer_value(l);
            any = true;
        }
    }
    return any;
}

uint32_t *sb_report_round_layouts(const json_t *report, size_t nrounds)
{
    uint32_t *layouts = calloc(nrounds ? nrounds : 1, sizeof *layouts);
    bool any = false;
    size_t i;
    json_t *run;

    if (!layouts)
        return NULL;
    json_array_foreach(json_object_get(report, "runs"), i, run)
        any |= scans_layouts(json_object_get(run, "scans"), nrounds, layouts);
    any |= scans_layouts(sb_report_reference_scans(report), nrounds, layouts);
    if (!any) {
        free(layouts);
        return NULL;
    }
    return layouts;
}

uint64_t sb_report_cache_size(const json_t *report, const char *level)
{
    size_t i;
    json_t *c;
    json_array_foreach(sb_field(report, "context.caches"), i, c)
        if (strcmp(sb_field_text(c, "level"), level) == 0)
            return (uint64_t)json_integer_value(json_is_integer(sb_field(c, "effective.value"))
                                                    ? sb_field(c, "effective.value")
                                                    : sb_field(c, "size.value"));
    return 0;
}

/* The entry of analysis' list whose key is the run's name, or NULL. */
static const json_t *entry_naming(const json_t *analysis, const char *list, const char *key,
                                  const json_t *run)
{
    size_t i;
    json_t *e;

    json_array_foreach(json_object_get(analysis, list), i, e)
        if (json_equal(json_object_get(e, key), json_object_get(run, "name")))
            return e;
    return NULL;
}

const json_t *sb_analysis_run(const json_t *analysis, const json_t *run)
{
    return entry_naming(analysis, "runs", "name", run);
}

const json_t *sb_analysis_comparison(const json_t *analysis, const json_t *run)
{
    return entry_naming(analysis, "comparisons", "a", run);
}
