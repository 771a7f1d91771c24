/* SPDX-License-Identifier: BSD-3-Clause */
/* passes.c: a reproduction run (see reproduce.h): every thread machine emulated first, then
 * each experiment's schedule (twice with --twice) on its share of the budget, with its server
 * runs, analysis and verdict, printed in the thread's layout, counted, and its report kept;
 * before anything runs, what it needs (estimate.h), made again at each experiment with the
 * rates measured. A stop during the emulations keeps each experiment emulated so far as a
 * report with no runs, marked incomplete, and says exactly that. */
#include "config.h"
#include "reproduce/reproduce.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reproduce/pg_runs.h"
#include "report/report.h"
#include "runner/runner.h"

/* The experiment's report as DIR/NAME.json. */
static int save_report(struct sb_outdir *dir, const char *name, json_t *report,
                       struct sb_error *err)
{
    char file[128], *text = sb_report_text(report);
    int status;

    if (!text)
        return sb_fail(err, SB_ERR_RUN, "%s: out of memory for the report", name);
    snprintf(file, sizeof file, "%s.json", name);
    status = sb_setup_save(dir, file, text, "report", err);
    free(text);
    return status;
}

/* Experiment i's thread machine emulated (its prediction and the attribution), once: when its
 * plan names no calibration of its own, an experiment that calibrates the same machine is
 * emulated first, so that i can borrow its machine's core factor (one per machine). */
static int emulate(struct sb_reproduction *r, int i, struct sb_error *err)
{
    const struct sb_setup *s = &r->setups[i];
    int status = SB_OK;
    json_t *holder;

    if (r->emulations[i])
        return SB_OK;
    for (int j = 0; j < r->n && status == SB_OK && !s->plan.calibration.present; j++)
        if (j != i && r->setups[j].plan.calibration.present &&
            strcmp(r->setups[j].exp.thread.machine, s->exp.thread.machine) == 0)
            status = emulate(r, j, err);
    if (status != SB_OK)
        return status;
    if (!(holder = json_object()))
        return sb_fail(err, SB_ERR_RUN, "out of memory");
    json_object_set_new(holder, "thread", sb_thread_json(&s->exp.thread));
    if (s->exp.thread.machine[0])
        fprintf(stderr, "scanbench: emulating %s for %s\n", s->exp.thread.machine, r->names[i]);
    status = sb_reproduce_emulate(r->quick, s, &r->factors, holder, err);
    if (status == SB_OK)
        r->emulations[i] = json_incref(json_object_get(holder, "emulation"));
    json_decref(holder);
    return status;
}

/* Experiment i's report before its runs (pass 1: --twice's second, another seed): its setup,
 * its thread and the thread scaled to this host; NULL when out of memory. */
static json_t *new_report(struct sb_reproduction *r, int i, int pass, double budget)
{
    struct sb_setup *s = &r->setups[i];
    json_t *report;

    s->plan.schedule.time_budget = budget;
    s->plan.schedule.budget_rounds_only = true; /* the share left out the time outside them */
    s->plan.schedule.seed += (uint64_t)pass;
    report = sb_setup_report(s, "scanbench reproduce");
    if (!report)
        return NULL;
    json_object_set_new(report, "thread", sb_thread_json(&s->exp.thread));
    json_object_set_new(json_object_get(report, "thread"), "scaled",
                        sb_reproduce_scaled_json(&s->exp.thread, r->has_scaled[i], r->scaled[i],
                                                 r->scaled_why[i]));
    return report;
}

/* The analysis and the verdict, for what the report holds. */
static void judge(json_t *report)
{
    json_object_set_new(report, "analysis", sb_analysis_build(report));
    json_object_set_new(report, "verdict",
                        sb_verdict_build(report, json_object_get(report, "analysis")));
}

/* One schedule of experiment i (pass 1: --twice's second, another seed): runs, its --pg server
 * runs, the analysis and the verdict. The report is set even when it fails. */
static int reproduce_one(struct sb_reproduction *r, int i, int pass, double budget,
                         json_t **out, struct sb_error *err)
{
    json_t *report = *out = new_report(r, i, pass, budget);
    int status;

    if (!report)
        return sb_fail(err, SB_ERR_RUN, "cannot build the report");
    status = sb_runner_run(&r->setups[i].plan, report, true, err);
    /* the thread's machine emulated (before any rounds, once: it has no noise to show twice) */
    if (pass == 0 && r->emulations[i])
        json_object_set(report, "emulation", r->emulations[i]);
    if (status == SB_OK && json_object_get(report, "thread"))
        json_object_set_new(report, "buffer_search", sb_reproduce_buffer_search(report));
    if (status == SB_OK && r->nsessions && pass == 0)
        status = sb_reproduce_pg_runs(r, i, report, err);
    judge(report);
    return status;
}

/* Saves a report as DIR/NAME.json (NAME.2.json for --twice's second); a failure after a stop
 * is said, not returned (the stop's status stands). */
static int keep_report(struct sb_outdir *dir, const char *name, int pass, json_t *report,
                       int status, struct sb_error *err)
{
    char file[96];
    struct sb_error write_err = {0};

    if (!dir)
        return status;
    snprintf(file, sizeof file, "%s%s", name, pass ? ".2" : "");
    return sb_setup_settle_write(status, save_report(dir, file, report, &write_err), &write_err,
                                 err);
}

/* --twice: whether experiment name's two schedules agree (sb_reproducibility_judge, which
 * keeps it in the second report), said in out. */
static void say_reproducible(FILE *out, const char *name, const json_t *first, json_t *second)
{
    const json_t *r = sb_reproducibility_judge(first, second);

    if (json_is_true(json_object_get(r, "vacuous")))
        fprintf(out, "\n%s: REPRODUCIBLE only vacuously: neither schedule decided anything "
                     "(every call inconclusive, no clear knee)\n", name);
    else if (json_is_true(json_object_get(r, "reproducible")))
        fprintf(out, "\n%s: REPRODUCIBLE (its two schedules agree on every comparison and "
                     "knee)\n", name);
    else
        fprintf(out, "\n%s: NOT REPRODUCIBLE: %s\n", name,
                json_string_value(json_object_get(r, "why")));
}

/* Where the reproduction stands: the runs left and done, and the seconds spent outside the
 * rounds so far (for each experiment's share of the budget). */
struct progress {
    size_t runs_left, runs_done;
    unsigned questions_left;
    double t0, outside;
};

/* One schedule of experiment i (pass 1: --twice's second): run, printed into out with its
 * verdict (and, after the second, whether the two agree), counted into t, its report kept. */
static int reproduce_pass(struct sb_reproduction *r, int i, int pass, double budget, FILE *out,
                          struct sb_outdir *dir, json_t *reports[2],
                          struct sb_reproduction_tally *t, struct sb_error *err)
{
    int status = reproduce_one(r, i, pass, budget, &reports[pass], err);
    bool stopped = status != SB_OK && sb_stop_requested();

    if (status == SB_OK && i == r->n - 1 && pass == (r->twice ? 1 : 0))
        sb_stop_work_done(); /* a signal from now on changes nothing */
    if (status == SB_OK || stopped) {
        fprintf(out, "%s", i || pass ? "\n" : "");
        if (stopped)
            fprintf(out, "== %s: interrupted: %s\n", r->names[i], err->msg);
        sb_render_reproduction(out, reports[pass]);
    }
    if (pass == 1 && status == SB_OK)
        say_reproducible(out, r->names[i], reports[0], reports[1]);
    if (status == SB_OK || stopped)
        sb_reproduction_tally_add(t, reports[pass]);
    fflush(out);
    if (reports[pass] && (status == SB_OK || stopped))
        status = keep_report(dir, r->names[i], pass, reports[pass], status, err);
    return status;
}

/* A stop while experiment i's thread machine was emulated, before any experiment's runs:
 * each experiment whose emulation had finished, and i, get a report with no runs, marked
 * incomplete (i's emulation: the reason it has none), printed into out and kept in dir; err
 * says what happened and what is kept, nothing more. Returns the stop's status. */
static int emulation_stopped(struct sb_reproduction *r, int i, FILE *out, struct sb_outdir *dir,
                             struct sb_reproduction_tally *t, int status, struct sb_error *err)
{
    char sig[64], why[256];
    int kept = 0;

    sb_stop_reason(sig, sizeof sig);
    snprintf(why, sizeof why, "interrupted (%s) while emulating %s for %s, before any run", sig,
             r->setups[i].exp.thread.machine, r->names[i]);
    for (int k = 0; k < r->n; k++) {
        const struct sb_thread *th = &r->setups[k].exp.thread;
        json_t *report = r->emulations[k] || k == i
                             ? new_report(r, k, 0, r->setups[k].plan.schedule.time_budget)
                             : NULL;
        struct sb_error write_err = {0};
        if (!report)
            continue;
        json_object_set_new(report, "emulation", k == i
                            ? sb_emulation_build(json_object_get(report, "thread"), th->machine,
                                                 NULL, NULL, why)
                            : json_incref(r->emulations[k]));
        json_object_set_new(report, "schedule", sb_report_schedule_json(&r->setups[k].plan,
                                                                         NULL, 0, 0, NULL,
                                                                         sb_timer_now()));
        sb_report_mark_interrupted(report, sig, "", 0, r->setups[k].plan.nruns);
        json_object_set_new(json_object_get(report, "interrupted"), "rounds_done",
                            json_integer(0));
        judge(report);
        fprintf(out, "%s== %s: %s: no runs\n", kept ? "\n" : "", r->names[k], why);
        sb_render_reproduction(out, report);
        sb_reproduction_tally_add(t, report);
        if (dir && keep_report(dir, r->names[k], 0, report, SB_OK, &write_err) == SB_OK)
            kept++;
        else if (dir)
            fprintf(stderr, "scanbench: %s\n", write_err.msg);
        json_decref(report);
    }
    fflush(out);
    if (kept)
        return sb_fail(err, status, "%s: %d report%s with no runs, marked incomplete, in %s",
                       why, kept, kept > 1 ? "s" : "", dir->path);
    return sb_fail(err, status, "%s: nothing measured", why);
}

/* Before anything runs: what the reproduction needs at the prior rates, and whether that is
 * within its budget (estimate.h). */
static void say_estimate(const struct sb_reproduction *r)
{
    struct sb_reproduce_estimate e;
    char line[1024];

    sb_reproduce_estimate(r->work, r->n, r->twice, &r->rates, &e);
    sb_reproduce_estimate_text(&e, r->twice, r->budget, r->budget_from, line, sizeof line);
    fprintf(stderr, "scanbench: %s\n", line);
}

/* The seconds experiments i on will take at the rates measured so far (their emulations
 * done). */
static double still_to_take(const struct sb_reproduction *r, int i)
{
    struct sb_reproduce_estimate e;

    sb_reproduce_estimate(&r->work[i], r->n - i, r->twice, &r->rates, &e);
    return e.total - e.emulations;
}

/* Every thread machine emulated, first: its cost (the x4500's took 3.5 s a run of its
 * experiments against 1 s for the rest of what lies outside the rounds) is then spent, not
 * estimated, when the rounds' shares are made; the seconds they took per byte of their tables
 * kept for the estimate. */
static int emulate_all(struct sb_reproduction *r, int *failed_at, struct sb_error *err)
{
    double start = sb_timer_now(), bytes = 0.0;
    int status = SB_OK;

    for (int i = 0; i < r->n && status == SB_OK; i++) {
        status = emulate(r, i, err);
        bytes += r->work[i].emulation_bytes;
        *failed_at = i;
    }
    if (status == SB_OK && bytes > 0)
        r->rates.emulation_s_per_byte = (sb_timer_now() - start) / bytes;
    return status;
}

/* What a pass of experiment i that took elapsed seconds measured, into the rates. */
static void learn(struct sb_reproduction *r, int i, const json_t *report, double elapsed)
{
    const json_t *schedule = json_object_get(report, "schedule");
    double rounds = json_number_value(sb_field(schedule, "seconds.rounds"));
    json_int_t done = json_integer_value(json_object_get(schedule, "rounds"));

    sb_reproduce_rates_learn(&r->rates, &r->work[i], rounds, done > 0 ? (uint32_t)done : 0,
                             sb_reproduce_outside_rounds(report, elapsed));
}

int sb_reproduce_all(struct sb_reproduction *r, FILE *out, struct sb_outdir *dir,
                     struct sb_reproduction_tally *t, struct sb_error *err)
{
    struct progress p = {0, 0, 0, sb_timer_now(), 0.0};
    unsigned questions[SB_REPRODUCE_MAX_EXPERIMENTS];
    int status = SB_OK, failed_at = 0;

    for (int i = 0; i < r->n; i++) {
        questions[i] = sb_reproduce_questions(&r->setups[i].plan, &r->setups[i].exp.thread,
                                              r->has_scaled[i]);
        p.runs_left += r->setups[i].plan.nruns;
        p.questions_left += questions[i];
    }
    say_estimate(r);
    status = emulate_all(r, &failed_at, err);
    if (status != SB_OK && sb_stop_requested())
        return emulation_stopped(r, failed_at, out, dir, t, status, err);
    for (int i = 0; i < r->n && status == SB_OK; i++) {
        json_t *reports[2] = {NULL, NULL};
        size_t nruns = r->setups[i].plan.nruns;
        double budget = sb_reproduce_budget_share(r->budget, r->twice, sb_timer_now() - p.t0,
                                                  questions[i], p.questions_left, p.runs_left,
                                                  p.runs_done ? p.outside / p.runs_done : 0.0);
        fprintf(stderr, "scanbench: experiment %d/%d: %s (%zu runs, %u questions, up to %.0f s "
                "of rounds%s; about %.0f s in all)\n", i + 1, r->n, r->names[i], nruns,
                questions[i], budget, r->twice ? ", twice" : "",
                sb_timer_now() - p.t0 + still_to_take(r, i));
        for (int pass = 0; pass < (r->twice ? 2 : 1) && status == SB_OK; pass++) {
            double start = sb_timer_now();
            status = reproduce_pass(r, i, pass, budget, out, dir, reports, t, err);
            if (reports[pass]) {
                p.outside += sb_reproduce_outside_rounds(reports[pass], sb_timer_now() - start);
                p.runs_done += nruns;
                learn(r, i, reports[pass], sb_timer_now() - start);
            }
        }
        json_decref(reports[0]);
        json_decref(reports[1]);
        p.runs_left -= nruns;
        p.questions_left -= questions[i];
    }
    return status;
}
