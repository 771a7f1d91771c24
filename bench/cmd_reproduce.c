/* cmd_reproduce.c: `scanbench reproduce [NAME...|all] [--quick] [--pg] [-o DIR] [--set K=V]...`:
 * reruns the experiments of the 2007 thread (configs/experiments/NAME.ini with a [thread] section)
 * on this host, with the cache model's counters when it is built, and prints each in the
 * thread's layout beside the thread's figures, with a verdict; -o DIR (a new directory) keeps
 * one report per experiment and the printed text. Progress and an ETA go to stderr. With --pg,
 * each experiment also runs on a live PostgreSQL server (pg_runner.h), one throwaway cluster
 * for all of them: a `postgresql` column beside this host's figures. */
#include "config.h"

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "configs_path.h"
#include "counters.h"
#include "experiment.h"
#include "outdir.h"
#include "pg_jobs.h"
#include "pg_runner.h"
#include "plan.h"
#include "render_thread.h"
#include "report.h"
#include "run_args.h"
#include "runner.h"
#include "stop.h"
#include "timer.h"
#include "verdict.h"

#define MAX_EXPERIMENTS 64

struct reproduction {
    char names[MAX_EXPERIMENTS][64];
    int n;
    struct sb_experiment exps[MAX_EXPERIMENTS];
    struct sb_plan plans[MAX_EXPERIMENTS];
    int ready; /* experiments initialised (to free) */
    bool pg;   /* --pg: also on a live PostgreSQL server */
    struct sb_pg_jobs pg_jobs[MAX_EXPERIMENTS], pg_all;
};

/* The experiments that carry a [thread] section, by name, from the first configs directory
 * that has any, sorted. */
static int known_experiments(char names[][64], int max)
{
    const char *dirs[SB_CONFIGS_MAX_DIRS];
    int ndirs = sb_configs_dirs(dirs), n = 0;

    for (int d = 0; d < ndirs && n == 0; d++) {
        char path[1024];
        DIR *dir;
        struct dirent *e;
        snprintf(path, sizeof path, "%s/experiments", dirs[d]);
        if (!(dir = opendir(path)))
            continue;
        while ((e = readdir(dir)) != NULL && n < max) {
            size_t len = strlen(e->d_name);
            char file[1400];
            FILE *f;
            char line[256];
            bool thread = false;
            if (len < 5 || len >= 64 || strcmp(e->d_name + len - 4, ".ini") != 0)
                continue;
            snprintf(file, sizeof file, "%s/%s", path, e->d_name);
            if (!(f = fopen(file, "r")))
                continue;
            while (!thread && fgets(line, sizeof line, f))
                thread = strncmp(line, "[thread]", 8) == 0;
            fclose(f);
            if (thread) {
                memcpy(names[n], e->d_name, len - 4);
                names[n++][len - 4] = '\0';
            }
        }
        closedir(dir);
    }
    qsort(names, (size_t)n, sizeof names[0], (int (*)(const void *, const void *))strcmp);
    return n;
}

static int pick(struct reproduction *r, int argc, char **argv, const char **sets, int *nsets,
                bool *quick, const char **outdir, struct sb_error *err)
{
    char known[MAX_EXPERIMENTS][64];
    int nknown = known_experiments(known, MAX_EXPERIMENTS);
    bool all = false;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *assignment;
        if (sb_args_take_set(argc, argv, &i, &assignment))
            sets[(*nsets)++] = assignment;
        else if (strcmp(a, "--quick") == 0)
            *quick = true;
        else if (strcmp(a, "--pg") == 0)
            r->pg = true;
        else if (strcmp(a, "-o") == 0 && i + 1 < argc && *outdir)
            return sb_fail(err, SB_ERR_INPUT, "-o %s: -o given twice (already -o %s)",
                           argv[i + 1], *outdir);
        else if (strcmp(a, "-o") == 0 && i + 1 < argc)
            *outdir = argv[++i];
        else if (a[0] == '-')
            return sb_fail(err, SB_ERR_INPUT, "%s: unknown option (usage: scanbench reproduce "
                           SB_ARGS_REPRODUCE ")", a);
        else if (strcmp(a, "all") == 0)
            all = true;
        else {
            int k;
            char list[1024] = "";
            size_t used = 0;
            for (k = 0; k < nknown && strcmp(known[k], a) != 0; k++)
                ;
            if (k < nknown) {
                if (r->n < MAX_EXPERIMENTS)
                    snprintf(r->names[r->n++], sizeof r->names[0], "%s", a);
                continue;
            }
            for (k = 0; k < nknown; k++)
                used += (size_t)snprintf(list + used, used < sizeof list ? sizeof list - used : 0,
                                         "%s%s", k ? ", " : "", known[k]);
            return sb_fail(err, SB_ERR_INPUT, "%s: unknown experiment (known: %s)", a,
                           nknown ? list : "none found: no configs/experiments directory");
        }
    }
    if (all || r->n == 0) {
        if (nknown == 0)
            return sb_fail(err, SB_ERR_INPUT, "no experiments found (configs/experiments/NAME.ini "
                           "with a [thread] section)");
        r->n = nknown;
        memcpy(r->names, known, sizeof known[0] * (size_t)nknown);
    }
    return SB_OK;
}

/* Reads and plans every experiment before running any, so bad input stops everything. */
static int prepare(struct reproduction *r, const char **sets, int nsets, bool quick,
                   struct sb_error *err)
{
    static const char *quick_sets[] = {"table_size=64M", "repetitions=5", "warmup=0"};
    struct sb_mem_limit limit;
    int status = SB_OK;

    sb_mem_limit_read(&limit, "", "");
    for (int i = 0; i < r->n && status == SB_OK; i++) {
        char path[1024];
        status = sb_configs_find("experiments", r->names[i], path, sizeof path, err);
        if (status == SB_OK)
            status = sb_experiment_init(&r->exps[i], err);
        if (status != SB_OK)
            break;
        r->ready++;
        status = sb_experiment_read_file(&r->exps[i], path, err);
        for (size_t q = 0; status == SB_OK && quick && q < 3; q++)
            status = sb_experiment_set(&r->exps[i], quick_sets[q], err);
        if (status == SB_OK && sb_counter_backend_find("sim"))
            status = sb_experiment_set(&r->exps[i], "counters=sim", err);
        for (int s = 0; status == SB_OK && s < nsets; s++)
            status = sb_experiment_set(&r->exps[i], sets[s], err);
        if (status == SB_OK)
            status = sb_plan_build(&r->exps[i], &limit, &r->plans[i], err);
    }
    return status;
}

/* Writes text as DIR/name without replacing anything (outdir.h), saying on stderr when the
 * name appeared during the run or the files had to move to a new directory. */
static int save_text(struct sb_outdir *dir, const char *name, const char *text, const char *what,
                     struct sb_error *err)
{
    char used[SB_OUTFILE_MAX], asked[SB_OUTFILE_MAX + 64];
    int status = sb_outdir_write(dir, name, text, strlen(text), used, err);

    if (dir->note[0])
        fprintf(stderr, "scanbench: %s\n", dir->note);
    dir->note[0] = '\0';
    snprintf(asked, sizeof asked, "%s/%s", dir->path, name);
    if (status == SB_OK && strcmp(asked, used) != 0)
        fprintf(stderr, "scanbench: %s appeared during the run; the %s is kept as %s\n", asked,
                what, used);
    return status;
}

/* The experiment's report as DIR/NAME.json. */
static int save_report(struct sb_outdir *dir, const char *name, json_t *report,
                       struct sb_error *err)
{
    char file[128], *text = sb_report_text(report);
    int status;

    if (!text)
        return sb_fail(err, SB_ERR_RUN, "%s: out of memory for the report", name);
    snprintf(file, sizeof file, "%s.json", name);
    status = save_text(dir, file, text, "report", err);
    free(text);
    return status;
}

/* --pg: the server measurements of every experiment (pools below PostgreSQL's minimum left out
 * with a note), and the cluster that makes them, opened before any run. */
static int open_pg(struct reproduction *r, struct sb_pg_session **session, struct sb_error *err)
{
    char why[256];
    int status = SB_OK;

    if (!sb_pg_built(why, sizeof why))
        return sb_fail(err, SB_ERR_INPUT, "--pg: %s", why);
    for (int i = 0; i < r->n && status == SB_OK; i++) {
        status = sb_pg_jobs_build(&r->plans[i], &r->exps[i], false, &r->pg_jobs[i], err);
        if (status == SB_OK)
            status = sb_pg_jobs_append(&r->pg_all, &r->pg_jobs[i], err);
    }
    if (status != SB_OK)
        return status;
    return sb_pg_session_open(session, &r->pg_all, false, err);
}

/* The experiment's server runs, as the report's `postgresql` block (when stopped, the runs
 * finished). */
static int add_pg_runs(struct reproduction *r, int i, struct sb_pg_session *session,
                       json_t *report, struct sb_error *err)
{
    json_t *runs = json_array();
    int status = sb_pg_session_run(session, &r->pg_jobs[i], runs, true, err);

    if (status == SB_OK || sb_stop_requested())
        json_object_set_new(report, "postgresql",
                            json_pack("{s:o, s:o, s:s}", "server", sb_pg_session_json(session),
                                      "runs", runs, "notes", r->pg_jobs[i].notes));
    else
        json_decref(runs);
    return status;
}

int sb_cmd_reproduce(int argc, char **argv)
{
    struct sb_pg_session *session = NULL;
    static struct reproduction r;
    static struct sb_outdir dir;
    const char *sets[256];
    int nsets = 0, status, compared = 0, faster = 0, lowered = 0, with_counters = 0;
    bool quick = false, stopped = false;
    const char *outdir = NULL;
    struct sb_error err = {0};
    char *text = NULL;
    size_t text_len = 0, total_runs = 0, done_runs = 0;
    FILE *out = NULL;
    double t0 = sb_timer_now();

    memset(&r, 0, sizeof r);
    if (argc > 256) {
        status = sb_fail(&err, SB_ERR_INPUT, "too many arguments");
        goto out;
    }
    status = pick(&r, argc, argv, sets, &nsets, &quick, &outdir, &err);
    if (status == SB_OK)
        status = prepare(&r, sets, nsets, quick, &err);
    if (status == SB_OK && outdir)
        status = sb_outdir_create(&dir, outdir, &err);
    /* a signal (INT, TERM, HUP, QUIT) and the watchdog stop the reproduction between scans
     * (lib/stop.h), with --pg also the server's statement in flight */
    if (status == SB_OK)
        sb_stop_install();
    if (status == SB_OK && r.pg)
        status = open_pg(&r, &session, &err);
    if (status != SB_OK)
        goto out;
    out = open_memstream(&text, &text_len);
    if (!out) {
        status = sb_fail(&err, SB_ERR_RUN, "out of memory");
        goto out;
    }
    for (int i = 0; i < r.n; i++)
        total_runs += r.plans[i].nruns;

    for (int i = 0; i < r.n && status == SB_OK; i++) {
        struct sb_topology topo;
        json_t *report;
        const json_t *cmp;
        size_t k;
        double elapsed = sb_timer_now() - t0;

        fprintf(stderr, "scanbench: experiment %d/%d: %s (%zu runs)", i + 1, r.n, r.names[i],
                r.plans[i].nruns);
        if (done_runs)
            fprintf(stderr, ", about %.0f s left",
                    elapsed / (double)done_runs * (double)(total_runs - done_runs));
        fprintf(stderr, "\n");
        sb_runner_topology(&r.plans[i], &topo);
        report = sb_report_new(&r.plans[i], &topo, "scanbench reproduce");
        if (!report) {
            status = sb_fail(&err, SB_ERR_RUN, "cannot build the report");
            break;
        }
        status = sb_runner_run(&r.plans[i], report, true, &err);
        if (status == SB_OK && session)
            status = add_pg_runs(&r, i, session, report, &err);
        stopped = status != SB_OK && sb_stop_requested();
        if (status == SB_OK && i == r.n - 1)
            sb_stop_work_done(); /* a signal from now on changes nothing */
        if (stopped) {
            /* the experiment's report keeps its runs finished, marked incomplete */
            char why[320];
            if (!json_is_true(json_object_get(report, "incomplete")))
                sb_report_mark_interrupted(report, sb_stop_reason(why, sizeof why),
                                           "postgresql runs", r.plans[i].nruns + 1,
                                           r.plans[i].nruns);
            json_object_set_new(report, "thread", sb_thread_json(&r.exps[i].thread));
            fprintf(out, "%s== %s: interrupted: %s\n", i ? "\n" : "", r.names[i], err.msg);
            fflush(out);
        }
        if (status == SB_OK) {
            json_object_set_new(report, "thread", sb_thread_json(&r.exps[i].thread));
            json_object_set_new(report, "verdict", sb_verdict_build(report));
            if (i)
                fprintf(out, "\n");
            sb_render_reproduction(out, report);
            fflush(out);
            json_array_foreach(json_object_get(json_object_get(report, "verdict"), "comparisons"),
                               k, cmp) {
                const json_t *ev = json_object_get(cmp, "counters");
                compared++;
                faster += json_is_true(json_object_get(cmp, "significant")) &&
                          json_number_value(json_object_get(cmp, "ratio_here")) > 1.0;
                if (json_is_boolean(json_object_get(ev, "writebacks_lowered"))) {
                    with_counters++;
                    lowered += json_is_true(json_object_get(ev, "writebacks_lowered"));
                }
            }
        }
        if (status == SB_OK && outdir) {
            status = save_report(&dir, r.names[i], report, &err);
        } else if (stopped && outdir) {
            struct sb_error write_err = {0};
            if (save_report(&dir, r.names[i], report, &write_err) != SB_OK)
                fprintf(stderr, "scanbench: %s\n", write_err.msg);
        }
        json_decref(report);
        done_runs += r.plans[i].nruns;
    }
    if (status == SB_OK) {
        fprintf(out, "\n== overall: in %d of %d slow/fast comparisons the L2-confined placement "
                     "was significantly faster on this host", faster, compared);
        if (with_counters)
            fprintf(out, "; it had fewer L2 write-backs per page in %d of %d (see each "
                         "experiment for measured or simulated)", lowered, with_counters);
        else
            fprintf(out, "; no counters were available to say why");
        fprintf(out, ".\n");
        fflush(out);
        fputs(text, stdout);
        if (outdir)
            status = save_text(&dir, "reproduction.txt", text, "text", &err);
        fprintf(stderr, "scanbench: reproduced %d experiments in %.0f s%s%s\n", r.n,
                sb_timer_now() - t0, outdir ? ", reports in " : "", outdir ? dir.path : "");
    } else if (stopped) {
        /* what was reproduced before the stop, printed and saved as it stands */
        struct sb_error write_err = {0};
        fflush(out);
        fputs(text, stdout);
        if (outdir && save_text(&dir, "reproduction.txt", text, "text", &write_err) != SB_OK)
            fprintf(stderr, "scanbench: %s\n", write_err.msg);
    }
out:
    sb_pg_session_close(session);
    if (status != SB_OK)
        fprintf(stderr, "scanbench: %s\n", err.msg);
    if (out)
        fclose(out);
    free(text);
    for (int i = 0; i < r.ready; i++) {
        sb_plan_free(&r.plans[i]);
        sb_experiment_free(&r.exps[i]);
        sb_pg_jobs_free(&r.pg_jobs[i]);
    }
    sb_pg_jobs_free(&r.pg_all);
    sb_stop_finish(); /* after every cleanup: a signal received ends the process here */
    return status;
}
