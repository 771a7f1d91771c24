/* SPDX-License-Identifier: BSD-3-Clause */
/* emulation.c: the thread's machine emulated, each mechanism switched off in turn
 * (see emulation.h). Each configuration is a small plan of its own: the thread's two
 * pools (one buffer for the footprint's), two timed scans each (the cache model's state carries
 * from the first to the second, as the hardware's would; the timed figures are not used), no
 * warm-up. A configuration that would replay exactly what another did (a machine with no
 * prefetcher, an experiment already without write-back or with its hint bits set) is not run
 * again: its predictions are the other's, and a note says so. */
#include "config.h"
#include "reproduce/emulation.h"

#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "cachesim/cachesim.h"
#include "plan/plan.h"
#include "report/report.h"
#include "runner/runner.h"
#include "runner/runner_setup.h"

/* --quick: the emulation's table, 32MB: twice the thread's largest pool but Kirkwood's */
#define QUICK_TABLE (32ull << 20)

/* The pool of a placement (clock 16MB: its footprint in bytes, whole KB); false if none. */
static bool pool_of(const struct sb_placement_name *placement, uint64_t *bytes)
{
    *bytes = placement->footprint;
    return placement->policy && placement->footprint % 1024 == 0;
}

int sb_emulation_variants(const struct sb_setup *s, const struct sb_machine *m,
                          struct sb_emulation_variant v[SB_EMULATION_VARIANTS_MAX])
{
    const struct sb_run_params *run = &s->plan.runs[0];
    int n = 0;

    v[n++] = (struct sb_emulation_variant){.mechanism = "all"};
    v[n++] = (struct sb_emulation_variant){.mechanism = "l2_deferral", .set = "kernel=nt"};
    v[n] = (struct sb_emulation_variant){.mechanism = "writeback_copy",
                                         .set = "writeback=none"};
    if (run->writeback == SB_WRITEBACK_NONE) {
        v[n].same_as = "all";
        snprintf(v[n].note, sizeof v[n].note, "writeback = none already: the same replay");
    }
    n++;
    v[n] = (struct sb_emulation_variant){.mechanism = "hint_bits", .set = "hint_bits=set"};
    if (run->hint_bits_set) {
        v[n].same_as = "all";
        snprintf(v[n].note, sizeof v[n].note, "hint_bits = set already: the same replay");
    }
    n++;
    v[n++] = (struct sb_emulation_variant){
        .mechanism = "footprint", .set = "pool_size=8K",
        .note = "both placements one 8KB buffer: the same run"};
    v[n] = (struct sb_emulation_variant){.mechanism = "prefetch", .set = "prefetch=off"};
    if (!m->config.prefetch) {
        v[n].same_as = "all";
        snprintf(v[n].note, sizeof v[n].note, "%s models no prefetcher (prefetch = no): the "
                 "same replay", m->name);
    }
    n++;
    return n;
}

/* A run's predicted memory seconds per scan (its phases), CPU seconds and MB/s, from its
 * runs[].predicted (runner/predict.h). Returns 2 with all three; 1 with the memory part only
 * (no core factor: mbps and cpu NaN); 0 with nothing. */
static int predicted_parts(const json_t *run, double *memory, double *cpu, double *mbps)
{
    const json_t *p = json_object_get(run, "predicted");
    const json_t *sec = json_object_get(p, "seconds_per_scan");

    *mbps = *cpu = NAN;
    if (!json_is_number(json_object_get(p, "memory_seconds")) && !json_is_object(sec))
        return 0;
    *memory = json_is_number(json_object_get(p, "memory_seconds"))
                  ? json_number_value(json_object_get(p, "memory_seconds"))
                  : json_number_value(json_object_get(sec, "copy_in")) +
                        json_number_value(json_object_get(sec, "op")) +
                        json_number_value(json_object_get(sec, "writeback"));
    if (!json_is_number(json_object_get(p, "mbps")))
        return 1;
    *mbps = json_number_value(json_object_get(p, "mbps"));
    *cpu = json_number_value(json_object_get(sec, "cpu"));
    return 2;
}

/* A run's predicted bus seconds (the memory's busy time, its sharing scanners' together); 0 in
 * a report from before the overlapping time model, whose memory seconds held it. */
static double bus_of(const json_t *run)
{
    const json_t *b = sb_field(run, "predicted.bus_seconds");
    return json_is_number(b) ? json_number_value(b) : 0.0;
}

/* MB/s of a scan of bytes with those parts, under the time model's overlap rules (timemodel.h:
 * max(stalls + core, bus)). */
static double scan_mbps(double bytes, double memory, double cpu, double bus)
{
    struct sb_time_scan t;

    sb_time_scan_combine(memory, cpu, bus, 1, &t);
    return bytes / t.seconds / 1e6;
}

/* What every configuration of an emulation shares: the settings (sets), the table (0: the
 * experiment's), the thread's slow and fast pools. */
struct emulation_base {
    const char *const *sets;
    int nsets;
    uint64_t table;
    uint64_t pools[2];
};

/* Runs configuration v into *out: experiment exp (as the reproduction read it) copied and
 * edited as a value: the emulation's settings, table and two pools (b), then v's switch. */
static int run_variant(const struct sb_experiment *exp, const struct emulation_base *b,
                       const struct sb_emulation_variant *v, json_t **out, struct sb_error *err)
{
    struct sb_setup vs;
    int status;

    memset(&vs, 0, sizeof vs);
    status = sb_experiment_copy(&vs.exp, exp, err);
    vs.exp_ready = status == SB_OK;
    for (int k = 0; k < b->nsets && status == SB_OK; k++)
        status = sb_experiment_set(&vs.exp, b->sets[k], err);
    if (status == SB_OK && b->table)
        status = sb_experiment_set_sizes(&vs.exp, SB_K_TABLE_SIZE, &b->table, 1,
                                         "scanbench reproduce --quick: the emulation's table",
                                         err);
    if (status == SB_OK)
        status = sb_experiment_set_sizes(&vs.exp, SB_K_POOL_SIZE, b->pools,
                                         b->pools[1] == b->pools[0] ? 1 : 2,
                                         "the thread's slow and fast pools", err);
    if (status == SB_OK && v->set[0])
        status = sb_experiment_set(&vs.exp, v->set, err);
    if (status == SB_OK)
        status = sb_setup_plan(&vs, NULL, err);
    if (status == SB_OK && !(*out = sb_setup_report(&vs, "scanbench reproduce (emulation)")))
        status = sb_fail(err, SB_ERR_RUN, "out of memory for the emulation's report");
    if (status == SB_OK)
        status = sb_runner_run(&vs.plan, *out, true, err);
    sb_setup_free(&vs);
    return status;
}

/* The factor of machine found by another experiment's calibration, or 0 (its experiment's name
 * into from). */
static double borrowed_factor(const struct sb_machine_factors *f, const char *machine,
                              const char **from)
{
    for (int k = 0; f && k < f->n; k++)
        if (strcmp(f->machine[k], machine) == 0) {
            *from = f->experiment[k];
            return f->factor[k];
        }
    return 0.0;
}

/* Keeps the factor the base configuration's calibration run found for machine. */
static void keep_factor(struct sb_machine_factors *f, const char *machine, const char *name,
                        const json_t *base)
{
    size_t i;
    const json_t *run;
    const char *from;

    if (!f || f->n >= SB_MAX_FACTORS || borrowed_factor(f, machine, &from) > 0)
        return;
    json_array_foreach(json_object_get(base, "runs"), i, run) {
        const json_t *cal = sb_field(run, "predicted.calibration");
        if (json_is_number(json_object_get(cal, "factor"))) {
            snprintf(f->machine[f->n], sizeof f->machine[0], "%s", machine);
            snprintf(f->experiment[f->n], sizeof f->experiment[0], "%s", name);
            f->factor[f->n++] = json_number_value(json_object_get(cal, "factor"));
            return;
        }
    }
}

/* A run predicted in its memory part only, completed with a factor another experiment's
 * calibration found for its machine: its CPU seconds (the op's host time per page times the
 * pages per scan times the factor, over the scanners that share the table) and MB/s. */
static void complete_with(const json_t *run, double factor, double memory, double *cpu,
                          double *mbps)
{
    const json_t *p = json_object_get(run, "predicted");
    double bytes = (double)json_integer_value(json_object_get(run, "bytes_per_scan"));
    double page = (double)json_integer_value(json_object_get(run, "page_size"));
    json_int_t scanners = json_integer_value(json_object_get(p, "scanners"));

    *cpu = json_number_value(json_object_get(p, "op_host_ns_per_page")) * 1e-9 * bytes / page *
           factor / (double)(scanners > 0 ? scanners : 1);
    *mbps = scan_mbps(bytes, memory, *cpu, bus_of(run));
}

/* The CPU seconds of op at placement in the configuration with every mechanism (0 when it has
 * none: the memory part only). */
static double base_cpu(const json_t *base, const char *op, const char *placement,
                       double factor)
{
    size_t j;
    const json_t *b;

    json_array_foreach(json_object_get(base, "runs"), j, b) {
        char bp[64];
        double m, c, x;
        int have;
        sb_run_placement(b, bp, sizeof bp);
        if (strcmp(sb_field_text(b, "op"), op) != 0 || strcmp(bp, placement) != 0)
            continue;
        have = predicted_parts(b, &m, &c, &x);
        if (have == 1 && factor > 0)
            complete_with(b, factor, m, &c, &x);
        if (have == 2 || (have == 1 && factor > 0))
            return c;
    }
    return 0.0;
}

/* The predictions of configuration v from its report: per run its placement (the footprint's
 * one buffer stands for both placements) and MB/s; a variant's MB/s is the bytes per scan over
 * the time model's combination of its own memory and bus seconds with the CPU seconds of the
 * configuration with every mechanism (the one core factor, never fitted again). A run predicted in its memory part only (the machine could
 * not be calibrated) gives bytes / memory seconds, marked memory_only; why gets the first
 * run's reason for not predicting MB/s. */
static void add_predictions(json_t *preds, const json_t *vreport,
                            const struct sb_emulation_variant *v,
                            const char *slow, const char *fast, const json_t *base,
                            double factor, char *why, size_t len)
{
    size_t i;
    const json_t *run;
    bool footprint = strcmp(v->mechanism, "footprint") == 0;

    json_array_foreach(json_object_get(vreport, "runs"), i, run) {
        char placement[64];
        double memory, cpu, mbps, bytes = (double)json_integer_value(json_object_get(
                                                        run, "bytes_per_scan"));
        const char *op = sb_field_text(run, "op");
        int have = predicted_parts(run, &memory, &cpu, &mbps);
        sb_run_placement(run, placement, sizeof placement);
        if (have == 1 && factor > 0) { /* the machine's factor from another experiment */
            complete_with(run, factor, memory, &cpu, &mbps);
            have = 3;
        }
        if (have == 1 && !why[0])
            snprintf(why, len, "%s: no prediction: %s", sb_field_text(run, "name"),
                     json_is_object(json_object_get(run, "predicted"))
                         ? sb_field_text(run, "predicted.reason")
                         : "the run has no runs[].predicted");
        if (have == 0) {
            if (!why[0])
                snprintf(why, len, "%s: no prediction: the run has no runs[].predicted",
                         sb_field_text(run, "name"));
            continue;
        }
        for (int k = 0; k < (footprint ? 2 : 1); k++) {
            const char *pl = footprint ? (k ? fast : slow) : placement;
            if (have == 1)
                mbps = scan_mbps(bytes, memory, 0.0, bus_of(run));
            else if (strcmp(v->mechanism, "all") != 0)
                mbps = scan_mbps(bytes, memory, base_cpu(base, op, pl, factor), bus_of(run));
            json_array_append_new(preds, json_pack("{s:s, s:s, s:s, s:f, s:s, s:b, s:O*}", "op",
                                                   op, "placement", pl, "variant",
                                                   v->mechanism, "mbps", mbps, "note", v->note,
                                                   "memory_only", have == 1, "predicted",
                                                   json_object_get(run, "predicted")));
        }
    }
}

/* A configuration that replays the same as another: its predictions are the other's. */
static void copy_predictions(json_t *preds, const struct sb_emulation_variant *v)
{
    size_t n = json_array_size(preds);

    for (size_t i = 0; i < n; i++) {
        const json_t *p = json_array_get(preds, i);
        if (strcmp(sb_field_text(p, "variant"), v->same_as) == 0)
            json_array_append_new(preds, json_pack("{s:O, s:O, s:s, s:O, s:s, s:O}", "op",
                                                   json_object_get(p, "op"), "placement",
                                                   json_object_get(p, "placement"), "variant",
                                                   v->mechanism, "mbps",
                                                   json_object_get(p, "mbps"), "note", v->note,
                                                   "memory_only",
                                                   json_object_get(p, "memory_only")));
    }
}

/* Why the thread's machine cannot be emulated, or "" when it can; m loaded. */
static void check_machine(const struct sb_thread *th, const char *counters,
                          struct sb_machine *m, char *why, size_t len)
{
    struct sb_error err = {0};

    why[0] = '\0';
    if (!th->machine[0] || !th->slow.policy || !th->fast.policy)
        snprintf(why, len, "the [thread] section names no machine, or no slow and fast");
    else if (!sb_counter_backend_find("sim"))
        snprintf(why, len, "this scanbench was built without the cache model (counters=sim)");
    else if (strcmp(counters, "sim") != 0)
        snprintf(why, len, "counters = %s was asked: the emulation replays the cache model",
                 counters);
    else if (sb_machine_load(th->machine, m, &err) != SB_OK)
        snprintf(why, len, "machine %s: %s", th->machine, err.msg);
    else if (!m->costs.present)
        snprintf(why, len, "machine %s has no [costs] section: no time model for it",
                 th->machine);
}

unsigned sb_reproduce_emulation_work(bool quick, const struct sb_setup *s, double *bytes)
{
    const struct sb_thread *th = &s->exp.thread;
    const struct sb_setting *pools = &s->exp.settings[SB_K_POOL_SIZE];
    const struct sb_setting *tables = &s->exp.settings[SB_K_TABLE_SIZE];
    struct sb_machine m;
    struct sb_emulation_variant v[SB_EMULATION_VARIANTS_MAX];
    char why[512];
    uint64_t slow, fast, table = 0;
    unsigned n = 0;
    int nv;

    *bytes = 0.0;
    memset(&m, 0, sizeof m);
    check_machine(th, s->plan.nruns ? s->plan.runs[0].counters->name : "none", &m, why,
                  sizeof why);
    if (why[0] || !pool_of(&th->slow, &slow) || !pool_of(&th->fast, &fast))
        return 0;
    nv = sb_emulation_variants(s, &m, v);
    for (int k = 0; k < nv; k++)
        n += !v[k].same_as;
    for (int t = 0; t < tables->nvalues; t++)
        table = tables->numbers[t] > table ? tables->numbers[t] : table;
    if (quick)
        table = QUICK_TABLE;
    /* a configuration's runs: the plan's, its pool list made the two placements' pools */
    *bytes = (double)n * (double)table * 2.0 * (double)s->plan.nruns /
             (double)(pools->nvalues ? pools->nvalues : 1);
    return n;
}

int sb_reproduce_emulate(bool quick, const struct sb_setup *s,
                         struct sb_machine_factors *factors, json_t *report,
                         struct sb_error *err)
{
    const struct sb_thread *th = &s->exp.thread;
    struct sb_machine m;
    struct sb_emulation_variant v[SB_EMULATION_VARIANTS_MAX];
    char why[512] = "", machine_set[96], slow_name[64], fast_name[64];
    const char *common[] = {machine_set, "counters=sim", "repetitions=2", "warmup=0",
                            "min_scan_ms=0"};
    struct emulation_base b = {common, sizeof common / sizeof common[0],
                               quick ? QUICK_TABLE : 0, {0, 0}};
    json_t *preds = json_array(), *base = NULL;
    int nv, status = SB_OK;
    double factor = 0.0;
    const char *from = "";

    memset(&m, 0, sizeof m);
    check_machine(th, s->plan.nruns ? s->plan.runs[0].counters->name : "none", &m, why,
                  sizeof why);
    sb_placement_name_format(&th->slow, slow_name, sizeof slow_name);
    sb_placement_name_format(&th->fast, fast_name, sizeof fast_name);
    if (!why[0] && (!pool_of(&th->slow, &b.pools[0]) || !pool_of(&th->fast, &b.pools[1])))
        snprintf(why, sizeof why, "%s / %s: not pool sizes", slow_name, fast_name);
    if (why[0])
        goto out;
    snprintf(machine_set, sizeof machine_set, "machine=%s", th->machine);
    nv = sb_emulation_variants(s, &m, v);
    if (!s->plan.calibration.present)
        factor = borrowed_factor(factors, th->machine, &from);
    for (int k = 0; k < nv && status == SB_OK; k++) {
        json_t *vr = NULL;
        if (v[k].same_as) {
            copy_predictions(preds, &v[k]);
            continue;
        }
        status = run_variant(&s->exp, &b, &v[k], &vr, err);
        if (status == SB_OK)
            add_predictions(preds, vr, &v[k], slow_name, fast_name, k ? base : vr, factor, why,
                            sizeof why);
        if (k == 0 && status == SB_OK)
            keep_factor(factors, th->machine, s->exp.settings[SB_K_NAME].values[0], vr);
        if (k == 0)
            base = vr;
        else
            json_decref(vr);
        if (!json_array_size(preds)) /* nothing predicted with every mechanism: nor without */
            break;
    }
    json_array_append_new(preds, json_pack("{s:s, s:s}", "mechanism", "tlb", "absent",
                                           "no machine file gives a TLB (configs/machines has "
                                           "none): not modelled"));
out:
    json_object_set_new(report, "emulation", sb_emulation_build(
        json_object_get(report, "thread"), th->machine, status == SB_OK ? preds : NULL,
        th->calibrate[0] ? th->calibrate : NULL, why));
    if (factor > 0) /* said: the factor is another experiment's calibration */
        json_object_set_new(json_object_get(report, "emulation"), "calibration_borrowed",
                            json_pack("{s:s, s:f}", "experiment", from, "factor", factor));
    json_decref(preds);
    json_decref(base);
    return status;
}
