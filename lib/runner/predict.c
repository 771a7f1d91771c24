/* SPDX-License-Identifier: BSD-3-Clause */
/* predict.c: a run's predicted seconds per timed scan on the machine it emulates (predict.h):
 * the time model over each phase's simulated counts, the op's CPU work measured here and scaled
 * by the machine's one core factor, combined by the time model's overlap rules. */
#include "config.h"
#include "runner/predict.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "host/host.h"

#define OP_ROUNDS 7      /* the best of these */
#define OP_PASSES 2000   /* passes over the page a round */

/* The best seconds of OP_ROUNDS rounds of OP_PASSES passes: a fresh copy of `state` into
 * `work`, then the op over it when op is not NULL. */
static double best_round(const struct sb_op *op, uint8_t *work, const uint8_t *state,
                         uint32_t size)
{
    double best = -1;

    for (int r = 0; r < OP_ROUNDS; r++) {
        double t0 = sb_timer_now(), t;
        for (int i = 0; i < OP_PASSES; i++) {
            memcpy(work, state, size);
            if (op)
                op->pass(work, size, NULL);
            __asm__ __volatile__("" : : "r"(work) : "memory");
        }
        t = sb_timer_now() - t0;
        if (best < 0 || t < best)
            best = t;
    }
    return best;
}

double sb_op_host_ns_per_page(const struct sb_op *op, const struct sb_heap_layout *layout)
{
    uint32_t size = layout->page_size;
    uint8_t *state = NULL, *work = NULL;
    double with_op, copy_only, ns = 0;

    if (!op || !op->pass || size == 0)
        return 0;
    if (posix_memalign((void **)&state, 64, size) != 0 ||
        posix_memalign((void **)&work, 64, size) != 0)
        goto out;
    /* the page as the timed scans see it: the op applied once already (the validation scan's
     * hint bits, or its vacuum), so each pass does a timed scan's work */
    sb_heap_fill_page(layout, state, 0);
    op->pass(state, size, NULL);
    copy_only = best_round(NULL, work, state, size);
    with_op = best_round(op, work, state, size);
    ns = with_op > copy_only ? (with_op - copy_only) / OP_PASSES * 1e9 : 0;
out:
    free(state);
    free(work);
    return ns;
}

/* The phase's stalls and bus seconds per pass (timemodel.h), averaged over the replayed scans,
 * with sharing scanners on the memory; false when none was. The op's L1d hits are its CPU
 * work, measured apart: not costed here. */
static bool phase_seconds(const struct sb_counters *c, const struct sb_machine_costs *costs,
                          uint64_t pages, unsigned sharing, double stalls[SB_NPHASES],
                          double bus[SB_NPHASES])
{
    unsigned replayed = 0;

    memset(stalls, 0, SB_NPHASES * sizeof *stalls);
    memset(bus, 0, SB_NPHASES * sizeof *bus);
    for (unsigned rep = 0; rep < c->nreps; rep++) {
        const struct sb_cachesim_counts *n = &c->phase_counts[rep * SB_NPHASES];
        if (n[SB_PHASE_COPY_IN].line_accesses == 0)
            continue; /* not replayed */
        replayed++;
        for (int p = 0; p < SB_NPHASES; p++) {
            struct sb_time_events ev;
            struct sb_time_parts parts;
            sb_time_events_from_counts(&n[p], pages, c->line_size, &ev);
            ev.sharing = sharing;
            if (p == SB_PHASE_OP)
                ev.hits[0] = 0;
            sb_time_model_parts(costs, &ev, &parts);
            stalls[p] += parts.hits + parts.fills;
            bus[p] += parts.bus_reads + parts.writebacks + parts.wc;
        }
    }
    for (int p = 0; p < SB_NPHASES && replayed; p++) {
        stalls[p] /= replayed;
        bus[p] /= replayed;
    }
    return replayed > 0;
}

/* The scan's time from its parts (timemodel.h rules 1 to 4). */
static void combine(struct sb_prediction *out, double bus_one)
{
    struct sb_time_scan t;

    sb_time_scan_combine(out->memory_seconds, out->cpu_seconds, bus_one, out->sharing, &t);
    out->bus_seconds = t.bus;
    out->memory_bound = t.memory_bound;
    out->seconds_per_scan = t.seconds;
}

int sb_predict_run(const struct sb_run_result *res, const struct sb_counters *c,
                   const struct sb_machine *m, double core_factor, unsigned scanners,
                   struct sb_prediction *out)
{
    double stalls[SB_NPHASES], bus[SB_NPHASES], bus_one = 0;
    double passes = res->passes ? res->passes : 1;
    unsigned controllers;

    memset(out, 0, sizeof *out);
    snprintf(out->machine, sizeof out->machine, "%s", m ? m->name : "");
    out->op_host_ns_per_page = res->op_host_ns_per_page;
    out->scanners = scanners ? scanners : 1;
    out->sharing = 1;
    if (!m || !m->costs.present) {
        snprintf(out->reason, sizeof out->reason, "the machine %s has no [costs]",
                 m ? m->name : "(none)");
        return SB_OK;
    }
    controllers = m->costs.memory_controllers ? m->costs.memory_controllers : 1;
    out->sharing = (out->scanners + controllers - 1) / controllers;
    if (!c->simulated || !c->have_phases || !c->phase_counts || !c->line_size ||
        !phase_seconds(c, &m->costs, res->pages_per_scan, out->sharing, stalls, bus)) {
        snprintf(out->reason, sizeof out->reason, "no simulated counts by phase (counters=sim)");
        return SB_OK;
    }
    out->have_memory = true;
    for (int p = 0; p < SB_NPHASES; p++) {
        out->seconds[p] = stalls[p] * passes / out->scanners;
        out->memory_seconds += out->seconds[p];
        bus_one += bus[p] * passes / out->scanners;
    }
    out->host_cpu_seconds = res->op_host_ns_per_page * 1e-9 * (double)res->pages_per_scan *
                            passes / out->scanners;
    combine(out, bus_one);
    if (core_factor <= 0) {
        snprintf(out->reason, sizeof out->reason, "no core factor for %s: no calibration "
                 "figure of this machine was run with it (calibrate = OP POLICY SIZE in an "
                 "experiment's [thread])", m->name);
        return SB_OK;
    }
    out->core_factor = core_factor;
    out->cpu_seconds = out->host_cpu_seconds * core_factor;
    combine(out, bus_one);
    if (out->seconds_per_scan > 0) {
        out->mbps = (double)res->bytes_per_scan / out->seconds_per_scan / 1e6;
        out->have = true;
    }
    return SB_OK;
}

bool sb_predict_calibrate(const struct sb_prediction *p, double thread_seconds, double *factor,
                          char *reason, size_t reason_len)
{
    double host_cpu = p->host_cpu_seconds;

    *factor = 0;
    if (!p->have_memory) {
        snprintf(reason, reason_len, "the calibration run has no predicted memory time: %s",
                 p->reason);
        return false;
    }
    if (p->memory_seconds >= thread_seconds || p->bus_seconds >= thread_seconds) {
        snprintf(reason, reason_len, "the %s alone (%.4g s a scan) is no faster than the "
                 "calibration figure (%.4g s a scan): no core factor can make it so",
                 p->memory_seconds >= thread_seconds ? "memory part" : "memory's bus",
                 p->memory_seconds >= thread_seconds ? p->memory_seconds : p->bus_seconds,
                 thread_seconds);
        return false;
    }
    if (!(host_cpu > 0)) {
        snprintf(reason, reason_len, "the op's CPU work was not measured (op none?)");
        return false;
    }
    *factor = (thread_seconds - p->memory_seconds) / host_cpu;
    return true;
}

/* --- a plan's predictions ------------------------------------------------------------------ */

const char *sb_predict_clock_verdict(double factor, double low, double high)
{
    if (!(low > 0) || !(high > 0))
        return "unknown";
    return factor > high ? "above" : factor < low ? "below" : "within";
}

/* The calibration's object: the figure, the factor and the clocks' band beside it. */
static json_t *calibration_json(const struct sb_prediction *p, bool is_calibration_run)
{
    const double low = p->calibration.clock_low, high = p->calibration.clock_high;
    json_t *clocks = low > 0
        ? json_pack("{s:f, s:f, s:f, s:f, s:f, s:s}", "host_ghz", p->calibration.host_clock_ghz,
                    "machine_ghz", p->calibration.machine_clock_ghz, "ratio", low,
                    "ipc_ratio_max", SB_PREDICT_IPC_RATIO_MAX, "factor_high", high, "verdict",
                    sb_predict_clock_verdict(p->calibration.factor, low, high))
        : json_null();

    return json_pack("{s:s, s:f, s:s, s:b, s:o}", "figure", p->calibration.figure, "factor",
                     p->calibration.factor, "experiment", p->calibration.experiment, "this_run",
                     is_calibration_run, "clocks", clocks);
}

/* The record's "predicted" block (doc/report-schema.md). */
json_t *sb_prediction_json(const struct sb_prediction *p, bool is_calibration_run)
{
    json_t *seconds = p->have_memory
                          ? json_pack("{s:f, s:f, s:f, s:o}", "copy_in",
                                      p->seconds[SB_PHASE_COPY_IN], "op", p->seconds[SB_PHASE_OP],
                                      "writeback", p->seconds[SB_PHASE_WRITEBACK], "cpu",
                                      p->have ? json_real(p->cpu_seconds) : json_null())
                          : json_null();
    json_t *calibration = p->calibrated ? calibration_json(p, is_calibration_run) : json_null();

    return json_pack("{s:s, s:s, s:o, s:s, s:o, s:o, s:o, s:o, s:f, s:o, s:i, s:i, s:o}",
                     "label", "predicted", "machine", p->machine, "mbps",
                     p->have ? json_real(p->mbps) : json_null(), "reason", p->reason,
                     "seconds_per_scan", seconds, "memory_seconds",
                     p->have_memory ? json_real(p->memory_seconds) : json_null(),
                     "bus_seconds", p->have_memory ? json_real(p->bus_seconds) : json_null(),
                     "bound", p->have ? json_string(p->memory_bound ? "memory" : "core")
                                      : json_null(),
                     "op_host_ns_per_page", p->op_host_ns_per_page, "core_factor",
                     p->core_factor > 0 ? json_real(p->core_factor) : json_null(), "scanners",
                     (int)p->scanners, "sharing", (int)p->sharing, "calibration", calibration);
}

static const struct sb_machine *emulated(const struct sb_run_params *p,
                                         const struct sb_run_result *res)
{
    const struct sb_machine *m = res->counters.machine ? res->counters.machine : p->machine;
    return res->counters.simulated && m && m->costs.present ? m : NULL;
}

/* Each predicted run's op measured here, once per op and page layout. */
static void measure_ops(const struct sb_plan *plan, struct sb_run_result *const *results)
{
    for (size_t i = 0; i < plan->nruns; i++) {
        const struct sb_run_params *p = &plan->runs[i];
        if (!results[i] || !emulated(p, results[i]))
            continue;
        for (size_t j = 0; j < i && !results[i]->op_host_ns_per_page; j++)
            if (results[j] && results[j]->op_host_ns_per_page > 0 && plan->runs[j].op == p->op &&
                memcmp(&plan->runs[j].layout, &p->layout, sizeof p->layout) == 0)
                results[i]->op_host_ns_per_page = results[j]->op_host_ns_per_page;
        if (!results[i]->op_host_ns_per_page)
            results[i]->op_host_ns_per_page = sb_op_host_ns_per_page(p->op, &p->layout);
    }
}

static bool is_calibration_run(const struct sb_plan_calibration *cal,
                               const struct sb_run_params *p, const struct sb_machine *m)
{
    uint64_t footprint = sb_policy_footprint(p->policy, p->pool_size, p->ring_size, p->page_size);
    return cal->present && m && strcmp(m->name, cal->machine) == 0 &&
           strcmp(p->op->name, cal->op) == 0 && strcmp(p->policy->name, cal->policy) == 0 &&
           footprint == cal->footprint;
}

/* The scans at once of a run emulating m: the thread's scanners on the thread's machine. */
static unsigned scanners_of(const struct sb_plan *plan, const struct sb_machine *m)
{
    return m && strcmp(m->name, plan->thread_scan.machine) == 0 ? plan->thread_scan.scanners : 1;
}

/* The plan's core factor from its calibration run; 0 and why when there is none. */
static double plan_factor(const struct sb_plan *plan, struct sb_run_result *const *results,
                          size_t *calibration_run, char *why, size_t why_len)
{
    const struct sb_plan_calibration *cal = &plan->calibration;
    double factor = 0;

    *calibration_run = plan->nruns;
    why[0] = '\0';
    if (!cal->present)
        return 0;
    for (size_t i = 0; i < plan->nruns && *calibration_run == plan->nruns; i++)
        if (results[i] && is_calibration_run(cal, &plan->runs[i], emulated(&plan->runs[i],
                                                                            results[i])))
            *calibration_run = i;
    if (*calibration_run == plan->nruns) {
        snprintf(why, why_len, "the calibration figure (%s on %s) was not among the runs "
                 "emulating it", cal->figure, cal->machine);
        return 0;
    }
    if (!(cal->thread_mbps > 0)) {
        snprintf(why, why_len, "the calibration figure %s is in seconds and the thread's table "
                 "size is not given", cal->figure);
        return 0;
    } else {
        const struct sb_run_result *res = results[*calibration_run];
        const struct sb_run_params *p = &plan->runs[*calibration_run];
        struct sb_prediction memory;
        char reason[384];
        const struct sb_machine *m = emulated(p, res);
        sb_predict_run(res, &res->counters, m, 0, scanners_of(plan, m), &memory);
        if (!sb_predict_calibrate(&memory, (double)res->bytes_per_scan /
                                               (cal->thread_mbps * SB_MB_DECIMAL),
                                  &factor, reason, sizeof reason))
            snprintf(why, why_len, "no calibration (%s on %s): %s", cal->figure, cal->machine,
                     reason);
    }
    return factor;
}

/* The clocks' band beside the calibration (predict.h): this host's clock measured once a
 * process (its add chain, best of 3 rounds of 20 ms), the machine's from its costs. */
static void clock_band(const struct sb_machine *m, struct sb_prediction *pred)
{
    static double host_ghz;

    if (!(host_ghz > 0))
        host_ghz = sb_probe_clock_ghz(3, 0.02);
    if (!(host_ghz > 0) || !(m->costs.clock_ghz > 0))
        return;
    pred->calibration.host_clock_ghz = host_ghz;
    pred->calibration.machine_clock_ghz = m->costs.clock_ghz;
    pred->calibration.clock_low = host_ghz / m->costs.clock_ghz;
    pred->calibration.clock_high = pred->calibration.clock_low * SB_PREDICT_IPC_RATIO_MAX;
}

void sb_predict_plan(const struct sb_plan *plan, struct sb_run_result *const *results,
                     json_t *const *records)
{
    size_t calibration_run;
    char why[512];
    double factor;

    measure_ops(plan, results);
    factor = plan_factor(plan, results, &calibration_run, why, sizeof why);
    for (size_t i = 0; i < plan->nruns; i++) {
        const struct sb_machine *m = results[i] ? emulated(&plan->runs[i], results[i]) : NULL;
        bool same = m && plan->calibration.present && strcmp(m->name, plan->calibration.machine) == 0;
        struct sb_prediction pred;

        if (!m || !records[i])
            continue;
        /* this host's own machine (a probe file): its core is the host's, factor 1 */
        sb_predict_run(results[i], &results[i]->counters, m,
                       same ? factor : sb_machine_is_this_host(m) ? 1 : 0, scanners_of(plan, m),
                       &pred);
        if (same && factor > 0) {
            pred.calibrated = true;
            snprintf(pred.calibration.figure, sizeof pred.calibration.figure, "%s",
                     plan->calibration.figure);
            snprintf(pred.calibration.experiment, sizeof pred.calibration.experiment, "%s",
                     plan->experiment);
            pred.calibration.factor = factor;
            clock_band(m, &pred);
        } else if (same && !pred.have)
            snprintf(pred.reason, sizeof pred.reason, "%s", why);
        json_object_set_new(records[i], "predicted",
                            sb_prediction_json(&pred, i == calibration_run));
    }
}
