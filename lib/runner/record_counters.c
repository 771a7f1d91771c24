/* SPDX-License-Identifier: BSD-3-Clause */
/* record_counters.c: the figures derived from a run's counters, whole and by phase. */
#include "config.h"
#include "runner/record_counters.h"

#include <stdbool.h>
#include <stdlib.h>

#include "stats/stats.h"

/* The whole scan's counts (values), or one phase's (phase_values). */
#define WHOLE_SCAN (-1)

static uint64_t count_of(const struct sb_counters *c, unsigned rep, int phase, enum sb_role role)
{
    return phase == WHOLE_SCAN ? c->values[rep][role] : c->phase_values[rep][phase][role];
}

/* Median over the repetitions of the count of role (in phase) / divisor; null when the role
 * was not read. */
static json_t *per_unit(const struct sb_counters *c, int phase, enum sb_role role,
                        double divisor)
{
    double *v;
    double m;

    if (!c->have[role] || c->nreps == 0 || divisor <= 0)
        return json_null();
    v = malloc(c->nreps * sizeof *v);
    if (!v)
        return json_null();
    for (unsigned r = 0; r < c->nreps; r++)
        v[r] = (double)count_of(c, r, phase, role) / divisor;
    m = sb_median(v, c->nreps);
    free(v);
    return json_real(m);
}

/* L2 misses and write-backs per page, memory bytes read and written per table byte, of the
 * counted passes (passes of a timed scan, or 1 for a backend that replays the first). */
static json_t *derived_of(const struct sb_counters *c, const struct sb_run_result *res,
                          int phase)
{
    const unsigned passes = c->passes ? c->passes : 1;
    double pages = (double)res->pages_per_scan * passes;
    double bytes = res->passes ? (double)res->bytes_per_scan / res->passes * passes : 0.0;

    return json_pack("{s:o, s:o, s:o, s:o}",
                     "l2_miss_per_page", per_unit(c, phase, SB_ROLE_L2_MISS, pages),
                     "l2_writeback_per_page", per_unit(c, phase, SB_ROLE_L2_WRITEBACK, pages),
                     "mem_read_bytes_per_table_byte",
                     per_unit(c, phase, SB_ROLE_MEM_READ_BYTES, bytes),
                     "mem_write_bytes_per_table_byte",
                     per_unit(c, phase, SB_ROLE_MEM_WRITE_BYTES, bytes));
}

json_t *sb_report_derived_json(const struct sb_counters *c, const struct sb_run_result *res)
{
    return derived_of(c, res, WHOLE_SCAN);
}

/* The counts of role in phase, one per counted scan; NULL when out of memory. */
static json_t *phase_counts_json(const struct sb_counters *c, int phase, enum sb_role role)
{
    json_t *per_rep = json_array();

    for (unsigned r = 0; per_rep && r < c->nreps; r++)
        if (json_array_append_new(per_rep, json_integer((json_int_t)
                                                        c->phase_values[r][phase][role])) != 0) {
            json_decref(per_rep);
            return NULL;
        }
    return per_rep;
}

/* One phase's counts of every role read, as `counters.values`; NULL when out of memory. */
static json_t *phase_values_json(const struct sb_counters *c, int phase)
{
    json_t *values = json_object();
    bool ok = values != NULL;

    for (int role = 0; ok && role < SB_NROLES; role++)
        if (c->have[role])
            ok = json_object_set_new(values, sb_role_names[role],
                                     phase_counts_json(c, phase, (enum sb_role)role)) == 0;
    if (!ok) {
        json_decref(values);
        return NULL;
    }
    return values;
}

json_t *sb_report_phases_json(const struct sb_counters *c, const struct sb_run_result *res)
{
    json_t *phases;

    if (!c->have_phases || !c->phase_values)
        return json_null();
    phases = json_object();
    for (int p = 0; phases && p < SB_NPHASES; p++) {
        json_t *phase = json_pack("{s:o, s:o}", "values", phase_values_json(c, p), "derived",
                                  derived_of(c, res, p));
        if (!phase || json_object_set_new(phases, sb_phase_names[p], phase) != 0) {
            json_decref(phases);
            return NULL;
        }
    }
    return phases;
}
