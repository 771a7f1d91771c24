/* SPDX-License-Identifier: BSD-3-Clause */
/* trials.c: a power check's trials drawn, set up and run (see power.h). */
#include "config.h"
#include "power/power.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "plan/plan.h"
#include "report/report.h"
#include "runner/runner.h"
#include "runner/runner_setup.h"
#include "stats/stats.h"

/* The trials' experiment: the embedded default's ring and op over a table a trial builds in a
 * fraction of a second; then the budget, the command line's --set, the trial's own sets. */
static const char *const base_sets[] = {
    "name=power", "description=scanbench power: two arms alike but for extra_copy",
    "op=count", "policy=ring", "ring_size=256K", "table_size=64M", "repetitions=auto"};
static const char *const sizes_full[] = {"0", "0.02", "0.05", "0.10"};
static const char *const sizes_quick[] = {"0", "0.05", "0.10"};

void sb_power_settle(struct sb_power *pw, bool trials_given)
{
    if (!trials_given)
        pw->per_kind = pw->quick ? SB_POWER_QUICK_TRIALS : SB_POWER_TRIALS;
    pw->sizes = pw->quick ? sizes_quick : sizes_full;
    pw->nkinds = pw->quick ? (int)(sizeof sizes_quick / sizeof *sizes_quick)
                           : (int)(sizeof sizes_full / sizeof *sizes_full);
    pw->budget = pw->quick ? "time_budget=3" : "time_budget=4";
}

void sb_power_free(struct sb_power *pw)
{
    free(pw->trials);
    pw->trials = NULL;
    json_decref(pw->context);
    pw->context = NULL;
}

void sb_power_draw(const struct sb_power *pw, unsigned i, struct sb_power_trial *t)
{
    struct sb_rng rng;

    sb_rng_seed(&rng, pw->master_seed + i);
    t->seed = sb_rng_next(&rng) >> 11; /* 53 bits: exact in any JSON reader */
    t->kind = (int)(i % (unsigned)pw->nkinds);
    sb_rng_seed(&rng, t->seed);
    t->arm = t->kind == 0 ? -1 : (int)(sb_rng_next(&rng) & 1);
}

/* The trial's experiment read into s: the base, the budget, the user's --set, then the
 * trial's schedule_seed and its arms (a list of two). t NULL: those of the command line alone,
 * one run. */
static int trial_setup(const struct sb_power *pw, const struct sb_power_trial *t,
                       struct sb_setup *s, struct sb_error *err)
{
    const char *sets[SB_POWER_MAX_SETS];
    char seed[64], arms[64];
    const char *size = t ? pw->sizes[t->kind] : "0";
    int n = 0;

    for (size_t b = 0; b < sizeof base_sets / sizeof *base_sets; b++)
        sets[n++] = base_sets[b];
    sets[n++] = pw->budget;
    for (int u = 0; u < pw->nuser; u++)
        sets[n++] = pw->user_sets[u];
    if (t) {
        snprintf(seed, sizeof seed, "schedule_seed=%llu", (unsigned long long)t->seed);
        if (t->arm < 0)
            snprintf(arms, sizeof arms, "seed=1,2");
        else
            snprintf(arms, sizeof arms, "extra_copy=%s,%s", t->arm == 0 ? size : "0",
                     t->arm == 0 ? "0" : size);
        sets[n++] = seed;
        sets[n++] = arms;
    }
    return sb_setup_read(s, NULL, sets, n, err);
}

/* A number of o, NaN where there is none (a comparison without rounds has nulls). */
static double number_of(const json_t *o, const char *key)
{
    const json_t *v = json_object_get(o, key);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

/* The trial's figures from its report: the comparison's call and interval, the rounds. */
static void trial_read(const json_t *report, struct sb_power_trial *t)
{
    const json_t *analysis = json_object_get(report, "analysis");
    const json_t *c = json_array_get(json_object_get(analysis, "comparisons"), 0);
    const json_t *schedule = json_object_get(report, "schedule");
    const json_t *stopped = json_object_get(schedule, "stopped_by");
    const json_t *call = json_object_get(c, "call");
    const char *quiet, *busy;

    snprintf(t->call, sizeof t->call, "%s", json_is_string(call) ? json_string_value(call)
                                                                 : "inconclusive");
    if (!sb_level_call(c, &quiet, &busy))
        quiet = busy = "";
    snprintf(t->by_level[0], sizeof t->by_level[0], "%s", quiet);
    snprintf(t->by_level[1], sizeof t->by_level[1], "%s", busy);
    t->ratio = number_of(c, "ratio");
    t->lo = number_of(c, "lo");
    t->hi = number_of(c, "hi");
    t->floor = number_of(json_object_get(analysis, "noise"), "floor");
    t->bound = number_of(json_object_get(analysis, "noise"), "bound");
    t->rounds = (int)json_integer_value(json_object_get(schedule, "rounds"));
    t->seconds = number_of(json_object_get(schedule, "seconds"), "rounds");
    snprintf(t->stopped_by, sizeof t->stopped_by, "%s",
             json_is_string(stopped) ? json_string_value(stopped) : "");
}

/* Trial t run: its own plan (fresh tables and pools), its rounds, its analysis. The first
 * trial's report lends the summary its host (pw->context). */
static int trial_run(struct sb_power *pw, struct sb_power_trial *t, struct sb_error *err)
{
    static struct sb_setup s;
    json_t *report = NULL;
    int status;

    memset(&s, 0, sizeof s);
    status = trial_setup(pw, t, &s, err);
    if (status == SB_OK)
        status = sb_setup_plan(&s, NULL, err);
    if (status == SB_OK && !(report = sb_setup_report(&s, "scanbench power")))
        status = sb_fail(err, SB_ERR_RUN, "cannot build the report");
    if (status == SB_OK)
        status = sb_runner_run(&s.plan, report, true, err);
    if (status == SB_OK) {
        json_object_set_new(report, "analysis", sb_analysis_build(report));
        trial_read(report, t);
        if (!pw->context)
            pw->context = json_incref(json_object_get(report, "context"));
    }
    json_decref(report);
    sb_setup_free(&s);
    return status;
}

/* The keys the trials set themselves are not the command line's to set. */
static int refuse_own_keys(const struct sb_power *pw, struct sb_error *err)
{
    for (int u = 0; u < pw->nuser; u++) {
        char line[256], *name, *value;
        snprintf(line, sizeof line, "%s", pw->user_sets[u]);
        if (sb_ini_split_line(line, &name, &value) == SB_INI_KEY &&
            (strcmp(name, "extra_copy") == 0 || strcmp(name, "seed") == 0))
            return sb_fail(err, SB_ERR_INPUT, "--set %s: power sets %s itself, in each trial "
                           "(the arms)", pw->user_sets[u], name);
    }
    return SB_OK;
}

/* What a trial is, in words: its op, placement, table and rounds. */
static void describe(struct sb_power *pw, const struct sb_plan *plan)
{
    const struct sb_run_params *r = &plan->runs[0];
    char table[32], place[32];

    sb_format_size(r->table_size, table, sizeof table);
    sb_format_size(strcmp(r->policy->name, "ring") == 0 ? r->ring_size : r->pool_size, place,
                   sizeof place);
    snprintf(pw->what, sizeof pw->what, "op %s, policy %s %s, table %s, repetitions %s, "
             "time_budget %.0f s", r->op->name, r->policy->name, place, table,
             plan->schedule.rounds ? "fixed" : "auto", plan->schedule.time_budget);
}

int sb_power_prepare(struct sb_power *pw, struct sb_error *err)
{
    static struct sb_setup s;
    struct sb_power_trial t;
    int status = refuse_own_keys(pw, err);

    memset(&s, 0, sizeof s);
    if (status == SB_OK)
        status = trial_setup(pw, NULL, &s, err);
    if (status == SB_OK)
        status = sb_setup_plan(&s, NULL, err);
    /* 53 bits: a seed any JSON reader keeps exact */
    pw->master_seed = s.plan.schedule.seed & ((1ull << 53) - 1);
    sb_setup_free(&s);
    memset(&s, 0, sizeof s);
    sb_power_draw(pw, 1, &t);
    if (status == SB_OK)
        status = trial_setup(pw, &t, &s, err);
    if (status == SB_OK)
        status = sb_setup_plan(&s, NULL, err);
    if (status == SB_OK && s.plan.nruns != 2)
        status = sb_fail(err, SB_ERR_INPUT, "--set: a trial has two runs, its arms; the lists "
                         "of --set make %zu", s.plan.nruns);
    if (status == SB_OK)
        describe(pw, &s.plan);
    sb_setup_free(&s);
    pw->ntrials = pw->per_kind * (unsigned)pw->nkinds;
    if (status == SB_OK && !(pw->trials = calloc(pw->ntrials, sizeof *pw->trials)))
        status = sb_fail(err, SB_ERR_RUN, "out of memory for %u trials", pw->ntrials);
    return status;
}

/* Trial i done: one line on stderr. */
static void progress(const struct sb_power *pw, const struct sb_power_trial *t, unsigned i)
{
    char name[32], by_level[48] = "";

    if (pw->quiet)
        return;
    if (t->by_level[0][0])
        snprintf(by_level, sizeof by_level, " (%s when quiet, %s when busy)", t->by_level[0],
                 t->by_level[1]);
    fprintf(stderr, "scanbench: trial %u/%u (%s%s): %s%s, %.3fx [%.3f, %.3f], %d rounds, "
            "%.1f s\n", i + 1, pw->ntrials, sb_power_kind_name(pw, t->kind, name, sizeof name),
            t->arm < 0 ? "" : t->arm ? ", second arm" : ", first arm", t->call, by_level,
            t->ratio, t->lo, t->hi, t->rounds, t->seconds);
}

/* DIR/trials.jsonl opened to append: made new (O_EXCL) by the first trial, reopened as that
 * same file by the later ones (in a directory the files moved to, made there anew); never
 * through a link (O_NOFOLLOW). The directory is ours, but under a loose umask anyone may put a
 * link or a file there meanwhile: it is refused (EEXIST, ELOOP, or EXDEV for another file in
 * its place), so nothing is written through it. */
static int open_trials_file(struct sb_power *pw, const char *path)
{
    int flags = O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC;
    struct stat st;
    int fd;

    if (strcmp(path, pw->trials_file.path) != 0) { /* the first, or the files moved (outdir.h) */
        snprintf(pw->trials_file.path, sizeof pw->trials_file.path, "%s", path);
        pw->trials_file.made = pw->trials_file.refused = false;
    }
    if (pw->trials_file.refused) {
        errno = EEXIST;
        return -1;
    }
    fd = open(path, pw->trials_file.made ? flags : flags | O_CREAT | O_EXCL, 0666);
    if (fd >= 0 && fstat(fd, &st) != 0) {
        close(fd);
        fd = -1;
    } else if (fd >= 0 && pw->trials_file.made &&
               (st.st_dev != pw->trials_file.dev || st.st_ino != pw->trials_file.ino)) {
        close(fd);
        fd = -1;
        errno = EXDEV;
    } else if (fd >= 0 && !pw->trials_file.made) {
        pw->trials_file.made = true;
        pw->trials_file.dev = st.st_dev;
        pw->trials_file.ino = st.st_ino;
    }
    if (fd < 0 && (errno == EEXIST || errno == ELOOP || errno == EXDEV))
        pw->trials_file.refused = true; /* not ours: never written, not even later */
    return fd;
}

/* -o DIR: trial i appended to DIR/trials.jsonl as it ends (one JSON line each), so that a run
 * killed outright (SIGKILL, a crash) keeps the trials done; power.json, at the end, has them
 * all. A failed append is said once and changes nothing else. */
static void keep_trial(struct sb_power *pw, const struct sb_outdir *dir, unsigned i)
{
    static bool said;
    char path[SB_OUTFILE_MAX + 16];
    json_t *doc = sb_power_trial_json(pw, &pw->trials[i], i);
    char *line = doc ? json_dumps(doc, JSON_COMPACT | JSON_ENSURE_ASCII) /* as power.json */ : NULL;
    int fd = -1;
    bool ok = false;

    snprintf(path, sizeof path, "%s/trials.jsonl", dir->path);
    if (line && (fd = open_trials_file(pw, path)) >= 0) {
        size_t len = strlen(line);
        line[len] = '\n'; /* json_dumps' NUL becomes the line's end; write len + 1 */
        ok = write(fd, line, len + 1) == (ssize_t)(len + 1) && fsync(fd) == 0;
    }
    if (fd >= 0)
        close(fd);
    if (!ok && !said) {
        fprintf(stderr, "scanbench: cannot append to %s (%s): the trials are kept in memory "
                "for power.json only\n", path,
                pw->trials_file.refused ? "a file or link that scanbench did not make is there"
                                        : strerror(errno));
        said = true;
    }
    free(line);
    json_decref(doc);
}

int sb_power_run(struct sb_power *pw, const struct sb_outdir *dir, struct sb_error *err)
{
    int status = SB_OK;

    for (unsigned i = 0; i < pw->ntrials && status == SB_OK; i++) {
        struct sb_power_trial *t = &pw->trials[i];
        char name[32];
        sb_power_draw(pw, i, t);
        status = trial_run(pw, t, err);
        if (status != SB_OK && !sb_stop_requested())
            sb_error_prefix(err, "trial %u/%u (%s, seed %llu)", i + 1, pw->ntrials,
                            sb_power_kind_name(pw, t->kind, name, sizeof name),
                            (unsigned long long)t->seed);
        if (status != SB_OK)
            break;
        pw->done++;
        if (dir)
            keep_trial(pw, dir, i);
        if (pw->done == pw->ntrials)
            sb_stop_work_done(); /* a signal from now on changes nothing */
        progress(pw, t, i);
    }
    return status;
}
