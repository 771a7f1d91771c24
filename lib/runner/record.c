/* SPDX-License-Identifier: BSD-3-Clause */
/* record.c: building the JSON report (jansson); report/write.c writes it. */
#include "config.h"
#include "runner/record.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cachesim/cachesim.h"
#include "core/core.h"
#include "counters/counters.h"
#include "engine/engine.h"
#include "host/host.h"
#include "plan/plan.h"
#include "report/report.h"
#include "runner/context.h"
#include "runner/record_counters.h"
#include "runner/record_layouts.h"
#include "runner/record_scanners.h"
#include "stats/stats.h"
#include "vocab/vocab.h"

/* Appends value to array (the reference taken, even on failure); false when value is NULL (out of
 * memory) or the append fails, so a caller drops what it was building rather than keep it
 * incomplete. */
static bool append(json_t *array, json_t *value)
{
    return value && json_array_append_new(array, value) == 0;
}

/* Sets key to value in object (the reference taken, even on failure); false as append. */
static bool put(json_t *object, const char *key, json_t *value)
{
    return value && json_object_set_new(object, key, value) == 0;
}

/* The first run's machine that is this host's own and knows an effective size, or NULL. */
static const struct sb_machine *host_machine(const struct sb_plan *plan)
{
    for (size_t i = 0; i < plan->nruns; i++) {
        const struct sb_machine *m = plan->runs[i].machine;
        if (!m || !sb_machine_is_this_host(m))
            continue;
        for (unsigned l = 0; l < m->config.nlevels; l++)
            if (m->sizes[l].effective)
                return m;
    }
    return NULL;
}

json_t *sb_report_new(const struct sb_plan *plan, const struct sb_topology *topo,
                      const char *command_line)
{
    return json_pack("{s:s, s:i, s:s, s:{s:s, s:s, s:s, s:s}, s:o, s:[], s:{s:s, s:s}}",
                     "schema", SB_REPORT_SCHEMA,
                     "schema_version", SB_REPORT_SCHEMA_VERSION,
                     "command", command_line,
                     "experiment", "name", plan->experiment, "description", plan->description,
                     "config", plan->config_source, "notes", plan->notes,
                     "context", sb_context_build(topo, host_machine(plan)),
                     "runs",
                     "units", "mbps", "MB/s = table bytes scanned / seconds / 10^6",
                     "sizes", "bytes; sizes in text use binary units (1KB = 1024 bytes)");
}

/* The last-level cache's size from the report's context (0 when unknown). */
static uint64_t llc_size(const json_t *report)
{
    const json_t *caches = json_object_get(json_object_get(report, "context"), "caches");
    uint64_t size = 0;
    size_t i;
    json_t *level;

    json_array_foreach(caches, i, level) {
        const json_t *v = json_object_get(json_object_get(level, "size"), "value");
        if (json_is_integer(v) && json_integer_value(v) > 0)
            size = (uint64_t)json_integer_value(v);
    }
    return size;
}

/* The accuracy check (likwid's test/accuracy): memory bytes from the counters against the
 * bytes the scan moved. Expected per scan: table bytes read + pool bytes written (each page
 * is copied once: 2 x bytes_per_scan), plus, with write-back, the pages written back read
 * from the pool and written into the IO cache (2 x the bytes written back). measured / expected must lie within
 * [SB_ACCURACY_LOW, SB_ACCURACY_HIGH]: at least the table itself comes from memory (0.5) when
 * it is larger than the last-level cache (the pool's writes may stay in cache: the ring), at
 * most every pool line is also read for ownership and written back (1.5: write-allocate);
 * 10% either way for prefetch overfetch and counting skew. */
#define SB_ACCURACY_LOW 0.45
#define SB_ACCURACY_HIGH 1.65

/* Bytes written back per pass over the table (write-back: each is read from the pool and
 * written into the IO cache): the largest over the timed scans, 0 without write-back. */
static double written_back_per_pass(const struct sb_run_result *res)
{
    double most = 0;

    for (uint32_t i = 0; i < res->nreps; i++) {
        double per_pass = (double)res->scans[i].bytes_written_back /
                          (res->scans[i].passes ? res->scans[i].passes : 1);
        if (per_pass > most)
            most = per_pass;
    }
    return most;
}

static json_t *accuracy_json(const struct sb_counters *c, const struct sb_run_result *res,
                             uint64_t llc)
{
    const unsigned passes = c->passes ? c->passes : 1;
    double expected = 2.0 * ((double)res->bytes_per_scan / res->passes +
                             written_back_per_pass(res)) * passes;
    double measured, ratio, *sum;
    bool low_applies = llc > 0 && res->bytes_per_scan / res->passes > llc;
    bool ok;

    if (!c->have[SB_ROLE_MEM_READ_BYTES] || !c->have[SB_ROLE_MEM_WRITE_BYTES] ||
        c->nreps == 0 || expected <= 0)
        return json_pack("{s:b, s:s}", "checked", 0, "why",
                         "needs mem_read_bytes and mem_write_bytes");
    sum = malloc(c->nreps * sizeof *sum);
    if (!sum)
        return json_pack("{s:b, s:s}", "checked", 0, "why", "out of memory");
    for (unsigned r = 0; r < c->nreps; r++)
        sum[r] = (double)c->values[r][SB_ROLE_MEM_READ_BYTES] +
                 (double)c->values[r][SB_ROLE_MEM_WRITE_BYTES];
    measured = sb_median(sum, c->nreps);
    free(sum);
    ratio = measured / expected;
    ok = ratio <= SB_ACCURACY_HIGH && (!low_applies || ratio >= SB_ACCURACY_LOW);
    return json_pack("{s:b, s:f, s:f, s:f, s:[f, f], s:b, s:b, s:s}", "checked", 1,
                     "expected_bytes_per_scan", expected, "measured_bytes_per_scan", measured,
                     "ratio", ratio, "tolerance", SB_ACCURACY_LOW, SB_ACCURACY_HIGH,
                     "lower_bound_applies", low_applies, "ok", ok, "rule",
                     "median of mem_read_bytes + mem_write_bytes over expected = table bytes "
                     "read + pool bytes written (+ bytes written back, read and written); "
                     "within [0.45, 1.65] (0.5: only the table from "
                     "memory; 1.5: pool lines also read for ownership and written back; 10% "
                     "slack); the lower bound applies only when the table is larger than the "
                     "last-level cache");
}

/* The machine model a simulating backend used (null for the others): what, from where, and
 * every level's geometry and policies. */
static json_t *machine_json(const struct sb_machine *m)
{
    json_t *levels;
    bool ok = true;

    if (!m)
        return json_null();
    levels = json_array();
    for (unsigned l = 0; levels && ok && l < m->config.nlevels; l++) {
        const struct sb_cachesim_level_config *lc = &m->config.level[l];
        const struct sb_machine_size *sz = &m->sizes[l];
        ok = append(levels, json_pack(
            "{s:s, s:I, s:i, s:i, s:s, s:s, s:I, s:o}", "level", sb_cache_level_names[l],
            "size", (json_int_t)lc->size, "line", (int)lc->line_size,
            "associativity", (int)lc->associativity,
            "replacement", sb_replacement_names[lc->replacement],
            "inclusion", l ? sb_inclusion_names[lc->inclusion] : "first level",
            "nominal_size", (json_int_t)(sz->nominal ? sz->nominal : lc->size),
            "effective_source", sz->effective ? json_string(sz->effective_source) : json_null()));
    }
    if (!ok) {
        json_decref(levels);
        return NULL;
    }
    return json_pack("{s:s, s:s, s:s, s:s, s:o, s:i, s:b, s:{s:s, s:s, s:i, s:f}}", "name",
                     m->name, "file", m->file, "description", m->description, "source",
                     m->source, "levels", levels, "wc_buffers", (int)m->config.wc_buffers,
                     "prefetch", m->config.prefetch, "write_allocate", "rule",
                     sb_write_allocate_names[m->config.write_allocate], "source",
                     m->write_allocate_source, "evasion_scanners",
                     (int)m->costs.rfo_evasion_scanners, "evasion_share",
                     m->costs.rfo_evasion_share);
}

/* Per role read: the events counted, the values of each repetition, and for a role not read
 * the reason, into the three objects; false when out of memory. */
static bool roles_json(const struct sb_counters *c, json_t *events, json_t *values,
                       json_t *reasons)
{
    bool ok = events && values && reasons;

    for (int role = 0; ok && role < SB_NROLES; role++) {
        json_t *per_rep;
        if (c->events[role][0])
            ok = put(events, sb_role_names[role], json_string(c->events[role]));
        if (!c->have[role]) {
            if (ok && c->role_reason[role][0])
                ok = put(reasons, sb_role_names[role], json_string(c->role_reason[role]));
            continue;
        }
        per_rep = json_array();
        for (unsigned r = 0; per_rep && ok && r < c->nreps; r++)
            ok = append(per_rep, json_integer((json_int_t)c->values[r][role]));
        ok = ok ? put(values, sb_role_names[role], per_rep) : (json_decref(per_rep), false);
    }
    return ok;
}

/* The multiplexing the backend reported (null without it). */
static json_t *multiplex_json(const struct sb_counters *c)
{
    if (c->multiplex_ratio <= 0)
        return json_null();
    return json_pack("{s:f, s:s}", "nominal_ratio", c->multiplex_ratio, "basis",
                     "counters / multiplexed events: PAPI does not expose perf's time_enabled / "
                     "time_running");
}

/* The run's counters: the backend and what it said, the model it simulated, the roles read,
 * and the figures derived from them; NULL when out of memory. */
static json_t *counters_json(const struct sb_counters *c, const struct sb_run_result *res,
                             uint64_t llc)
{
    json_t *values = json_object(), *events = json_object(), *reasons = json_object();
    json_t *counters;

    if (!roles_json(c, events, values, reasons)) {
        json_decref(values);
        json_decref(events);
        json_decref(reasons);
        return NULL;
    }
    counters = json_pack("{s:s, s:s, s:o, s:b, s:o, s:o}", "backend", c->backend->name,
                         "status", c->status,
                         "reason", c->reason[0] ? json_string(c->reason) : json_null(),
                         "simulated", c->simulated,
                         "model", c->model[0] ? json_string(c->model) : json_null(),
                         "machine", machine_json(c->machine));
    if (counters && put(counters, "events", events) && put(counters, "values", values) &&
        put(counters, "reasons", reasons) && put(counters, "multiplex", multiplex_json(c)) &&
        put(counters, "derived", sb_report_derived_json(c, res)) &&
        (!c->have_phases || put(counters, "phases", sb_report_phases_json(c, res))) &&
        put(counters, "accuracy", accuracy_json(c, res, llc)))
        return counters;
    if (!counters) { /* the three objects were not taken */
        json_decref(values);
        json_decref(events);
        json_decref(reasons);
    }
    json_decref(counters);
    return NULL;
}

/* A timed scan's record: where it ran in the schedule and what it measured. */
static json_t *scan_json(const struct sb_scan_record *rec, double t0)
{
    json_t *scan = json_pack("{s:i, s:i, s:i, s:f, s:f, s:i, s:I, s:f, s:[o, o], s:o}", "round",
                     (int)rec->round, "position", (int)rec->position, "layout",
                     (int)rec->layout, "at", rec->at - t0,
                     "seconds", rec->seconds, "passes", (int)rec->passes, "bytes",
                     (json_int_t)rec->bytes, "mbps",
                     rec->seconds > 0 ? (double)rec->bytes / rec->seconds / 1e6 : 0.0, "cpu",
                     rec->cpu_start >= 0 ? json_integer(rec->cpu_start) : json_null(),
                     rec->cpu_end >= 0 ? json_integer(rec->cpu_end) : json_null(), "steal",
                     isnan(rec->steal) ? json_null() : json_real(rec->steal));

    /* the write-back (issue 18): pages written back, and the bytes copied each way */
    if (scan && put(scan, "written_evict", json_integer((json_int_t)rec->written_evict)) &&
        put(scan, "written_checkpoint", json_integer((json_int_t)rec->written_checkpoint)) &&
        put(scan, "bytes_copied_in", json_integer((json_int_t)rec->bytes_copied_in)) &&
        put(scan, "bytes_written_back", json_integer((json_int_t)rec->bytes_written_back)) &&
        put(scan, "bytes_copied_extra", json_integer((json_int_t)rec->bytes_copied_extra)))
        return scan;
    json_decref(scan);
    return NULL;
}

json_t *sb_report_scans_json(const struct sb_scan_record *scans, uint32_t n, double t0)
{
    json_t *list = json_array();

    for (uint32_t r = 0; list && r < n; r++)
        if (json_array_append_new(list, scan_json(&scans[r], t0)) != 0) {
            json_decref(list);
            return NULL;
        }
    return list;
}

/* What the run was: its name, source, placement, table and scan; NULL when out of memory. */
static json_t *run_params_json(const struct sb_run_params *p)
{
    json_t *run = json_pack(
        "{s:s, s:s, s:s, s:I, s:I, s:I, s:I, s:i}",
        "name", p->name, "source", p->source->name, "policy", p->policy->name,
        "ring_size", (json_int_t)p->ring_size, "pool_size", (json_int_t)p->pool_size,
        "footprint", (json_int_t)sb_policy_footprint(p->policy, p->pool_size, p->ring_size,
                                                     p->page_size),
        "table_size", (json_int_t)p->table_size, "page_size", (int)p->page_size);

    if (run && put(run, "row_width", json_integer((int)p->layout.row_width)) &&
        put(run, "rows_per_page", json_integer((int)p->layout.rows_per_page)) &&
        put(run, "kernel", json_string(p->kernel->name)) &&
        put(run, "op", json_string(p->op->name)) &&
        put(run, "executor", json_string(p->op->executor)) &&
        put(run, "threads", json_integer((int)p->threads)) &&
        put(run, "warmup", json_integer((int)p->warmup)) &&
        put(run, "dead_pct", json_integer((int)p->layout.dead_pct)) &&
        put(run, "seed", json_integer((json_int_t)p->seed)) &&
        put(run, "writeback", json_string(sb_writebacks[p->writeback].name)) &&
        put(run, "checkpoint_pages", p->writeback == SB_WRITEBACK_CHECKPOINT
                                         ? json_integer((json_int_t)p->checkpoint_pages)
                                         : json_null()) &&
        put(run, "writeback_kernel", p->writeback_kernel ? json_string(p->writeback_kernel->name)
                                                         : json_null()) &&
        put(run, "hint_bits", json_string(p->layout.hint_bits_set ? "set" : "unset")) &&
        put(run, "extra_copy", json_real(p->extra_ppm / 1e6)))
        return run;
    json_decref(run);
    return NULL;
}

/* Every repetition's seconds; NULL when out of memory. */
static json_t *seconds_json(const struct sb_run_result *res)
{
    json_t *seconds = json_array();
    bool ok = seconds != NULL;

    for (uint32_t r = 0; ok && r < res->nreps; r++)
        ok = append(seconds, json_real(res->scans[r].seconds));
    if (!ok) {
        json_decref(seconds);
        return NULL;
    }
    return seconds;
}

/* Key slice_ms: what it asked, and the slice a timed scan covered (pages null: whole passes,
 * and why where slices were asked for). */
static json_t *slice_json(const struct sb_run_params *p, const struct sb_run_result *res)
{
    return json_pack("{s:f, s:o, s:o, s:o}", "asked_ms", p->slice_seconds * 1e3,
                     "pages", res->slice_pages ? json_integer((json_int_t)res->slice_pages)
                                               : json_null(),
                     "table_pages", json_integer((json_int_t)(p->table_size / p->page_size)),
                     "whole_passes_because", res->slice_off ? json_string(res->slice_off)
                                                            : json_null());
}

json_t *sb_report_run_brief(const struct sb_run_params *p, const struct sb_run_result *res,
                            double t0)
{
    json_t *run = run_params_json(p);

    if (run && put(run, "pages", json_integer((json_int_t)res->pages_per_scan)) &&
        put(run, "passes", json_integer((int)res->passes)) &&
        put(run, "settle_pages", json_integer((json_int_t)res->settle_pages)) &&
        put(run, "slice", slice_json(p, res)) &&
        put(run, "bytes_per_scan", json_integer((json_int_t)res->bytes_per_scan)) &&
        put(run, "repetitions", seconds_json(res)) &&
        put(run, "scans", sb_report_scans_json(res->scans, res->nreps, t0)))
        return run;
    json_decref(run);
    return NULL;
}

static json_t *validation_json(const struct sb_validation *v, bool writeback)
{
    json_t *j = json_pack("{s:b, s:[s, s, s, s], s:I, s:I, s:I, s:I, s:I, s:I, s:I}", "ok",
                          v->ok, "checked",
                          "checksum of every page after the copy (validation scan)",
                          "checksum of every page after the op (validation scan)",
                          "live row count of every warm-up and timed scan",
                          "checksum of every page left in the pool after the last timed scan",
                          "pages_checked_after_copy", (json_int_t)v->pages_checked_after_copy,
                          "pages_checked_after_op", (json_int_t)v->pages_checked_after_op,
                          "pool_pages_checked", (json_int_t)v->pool_pages_checked,
                          "rows_expected", (json_int_t)v->rows_expected,
                          "scans_row_checked", (json_int_t)v->scans_row_checked,
                          "writebacks_checked", (json_int_t)v->writebacks_checked,
                          "pages_checked_after_writeback",
                          (json_int_t)v->pages_checked_after_writeback);
    json_t *checked = json_object_get(j, "checked");

    if (j && writeback &&
        (!append(checked, json_string("every page written back by the validation scan: the "
                                      "IO cache page equals its buffer and its state's "
                                      "checksum")) ||
         !append(checked, json_string("checksum of every page of the table after the last "
                                      "timed scan, as its state")))) {
        json_decref(j);
        return NULL;
    }
    return j;
}

/* key statements: each statement in order (absent when the key is not set). */
static int statements_json(json_t *run, const struct sb_run_result *res)
{
    json_t *list;

    if (res->nstatements == 0)
        return 0;
    list = json_array();
    for (uint32_t i = 0; list && i < res->nstatements; i++) {
        const struct sb_statement_result *st = &res->statements[i];
        json_t *one = json_pack("{s:s, s:b, s:I, s:o, s:o, s:o}", "op", st->op, "measured",
                                i + 1 == res->nstatements, "pages", (json_int_t)st->pages,
                                "buffers_visited_per_page",
                                st->pages ? json_real((double)st->visits / (double)st->pages)
                                          : json_null(),
                                "footprint_buffers",
                                st->shape[0] ? json_integer(st->footprint) : json_null(),
                                "shape", st->shape[0] ? json_string(st->shape) : json_null());
        if (!one || json_array_append_new(list, one) != 0) {
            json_decref(list);
            return -1;
        }
    }
    return list ? json_object_set_new(run, "statements", list) : -1;
}

json_t *sb_report_add_run(json_t *report, const struct sb_run_params *p,
                          const struct sb_run_result *res, double t0)
{
    const struct sb_stats *m = &res->mbps;
    json_t *run = sb_report_run_brief(p, res, t0);

    if (!run || json_object_set_new(run, "clock_visits_per_page",
                                    json_real(res->clock_visits_per_page)) != 0 ||
        json_object_set_new(run, "buffers_touched",
                            json_integer((json_int_t)res->buffers_touched)) != 0 ||
        json_object_set_new(run, "mbps", json_pack("{s:f, s:f, s:f, s:f, s:f}", "best", m->best,
                                                   "median", m->median, "min", m->min, "max",
                                                   m->max, "cv", m->cv)) != 0 ||
        json_object_set_new(run, "validation",
                            validation_json(&res->validation,
                                            p->writeback != SB_WRITEBACK_NONE)) != 0 ||
        json_object_set_new(run, "counters", counters_json(&res->counters, res,
                                                           llc_size(report))) != 0 ||
        statements_json(run, res) != 0 ||
        json_object_set_new(run, "layouts", sb_report_layouts_json(res, t0)) != 0) {
        json_decref(run);
        return NULL;
    }
    sb_report_add_scanners(run, p, res);
    if (json_array_append_new(json_object_get(report, "runs"), run) != 0)
        return NULL;
    return run;
}

json_t *sb_report_schedule_json(const struct sb_plan *plan, const struct sb_scan_record *reference,
                                uint32_t nreference, uint32_t rounds, const char *stopped_by,
                                double t0)
{
    const struct sb_schedule_params *s = &plan->schedule;
    bool interleaved = s->kind == SB_SCHEDULE_INTERLEAVED;
    double min_scan = plan->nruns ? plan->runs[0].min_scan_seconds : 0.0;

    return json_pack(
        "{s:s, s:I, s:s, s:i, s:o, s:o, s:o, s:f, s:s, s:{s:s, s:f, s:f}, s:o}",
        "kind", sb_schedule_names[s->kind], "seed", (json_int_t)s->seed, "seed_from",
        s->seed_auto ? "the clock (schedule_seed = auto)" : "schedule_seed", "rounds",
        (int)rounds, "rounds_planned", s->rounds ? json_integer(s->rounds) : json_string("auto"),
        "auto", s->rounds ? json_null()
                          : json_pack("{s:i, s:i, s:f, s:f, s:s}", "min_rounds",
                                      SB_AUTO_ROUNDS_MIN, "max_rounds", SB_AUTO_ROUNDS_MAX,
                                      "precision", SB_AUTO_PRECISION, "time_budget",
                                      s->time_budget, "time_budget_from",
                                      s->time_budget_auto ? "auto: 5 s per run, at least 10 s"
                                                          : "time_budget"),
        "stopped_by", stopped_by ? json_string(stopped_by) : json_null(),
        "min_scan_seconds", min_scan,
        "settle", interleaved ? "before each timed scan, an untimed pass over as many pages as "
                                "the run's pool footprint holds (the table at most; before a "
                                "slice, the pages just before it, at most twice the last-level "
                                "cache): the caches hold what the run's own scans leave, "
                                "whatever ran before"
                              : "none: each run's timed scans follow each other",
        "timer", "clock", sb_timer_clock_name(), "resolution", sb_timer_resolution(),
        "observed_tick", sb_timer_observed_tick(),
        "reference", interleaved && plan->nruns
                         ? json_pack("{s:s, s:i, s:s, s:o}", "run", plan->runs[0].name,
                                     "run_index", 0, "why",
                                     "a second instance of the first run, its pools allocated "
                                     "apart, timed once in each round like every run (an A-A "
                                     "pair of two instances): the noise floor", "scans",
                                     sb_report_scans_json(reference, nreference, t0))
                         : json_null());
}

json_t *sb_report_contention_json(const struct sb_aggressor_plan *plan,
                                  const struct sb_aggressor_result *res)
{
    if (plan->kind == SB_CONTENTION_NONE)
        return json_pack("{s:s}", "kind", "none");
    return json_pack("{s:s, s:i, s:I, s:i, s:s, s:b, s:s, s:I, s:f, s:f}", "kind",
                     sb_contention_names[plan->kind], "cpu", plan->cpu, "working_set_bytes",
                     (json_int_t)plan->working_set_bytes, "buffers", (int)plan->buffers,
                     "sized", plan->sized, "capped", plan->capped, "when",
                     "during each timed scan, with its settling pass when interleaved; paused "
                     "otherwise",
                     "bytes", (json_int_t)res->bytes, "seconds", res->seconds, "gbps",
                     res->gbps);
}

/* One figure the thread posted: its op and placement, the value as posted and in MB/s (from
 * the table's size when posted as seconds). */
static json_t *thread_figure_json(const struct sb_thread *t, const struct sb_thread_figure *f)
{
    char placement[64];
    double mbps = NAN;

    if (strcmp(f->unit, "MB/s") == 0)
        mbps = f->value;
    else if (t->table_size)
        mbps = (double)t->table_size / f->value / SB_MB_DECIMAL;
    return json_pack("{s:s, s:s, s:I, s:s, s:f, s:s, s:o}", "op", f->op, "policy",
                     f->placement.policy->name, "footprint", (json_int_t)f->placement.footprint,
                     "placement", sb_placement_name_format(&f->placement, placement,
                                                           sizeof placement),
                     "value", f->value, "unit", f->unit, "mbps",
                     isnan(mbps) ? json_null() : json_real(mbps));
}

json_t *sb_thread_json(const struct sb_thread *t)
{
    char slow[64], fast[64];
    json_t *figures = json_array();
    bool ok = figures != NULL;

    for (int i = 0; ok && i < t->nfigures; i++)
        ok = append(figures, thread_figure_json(t, &t->figures[i]));
    if (!ok) {
        json_decref(figures);
        return NULL;
    }
    return json_pack("{s:s, s:s, s:s, s:o, s:s, s:s, s:o, s:o, s:i, s:s}", "who", t->who,
                     "machine", t->machine, "table", t->table, "table_size",
                     t->table_size ? json_integer((json_int_t)t->table_size) : json_null(),
                     "slow", sb_placement_name_format(&t->slow, slow, sizeof slow), "fast",
                     sb_placement_name_format(&t->fast, fast, sizeof fast), "figures", figures,
                     "calibrate",
                     t->calibrate[0] ? json_string(t->calibrate) : json_null(), "scanners",
                     t->scanners ? (int)t->scanners : 1, "scanners_source", t->scanners_source);
}
