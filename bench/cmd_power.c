/* cmd_power.c: `scanbench power [--quick] [--trials N] [--set KEY=VALUE]... [-o DIR] [-q]`: how
 * often this host's rounds find a difference of known size, and how often they call identical
 * configurations different. Each trial is a run of its own (its own plan: a fresh table and
 * fresh pools) of two arms, COUNT(*) into a 256KB ring over a 64MB table, repetitions auto
 * within a short time_budget, analysed as `run` analyses (the second arm against the first, the
 * first timed twice a round for the noise floor). A-A trials: both arms alike (they differ in
 * `seed`, which only the random policy reads: the plan needs two runs). The other trials: one
 * arm has extra_copy = 0.02, 0.05 or 0.10 (--quick: 0.05, 0.10), real extra work that MB/s does
 * not credit, and which arm is the trial's seed's coin. The kinds take turns, so the host's
 * drift over the minutes lands on all of them. Printed: each kind's share detected (the call
 * says the extra-copy arm is slower) or, for A-A, called different (faster or slower), with its
 * Wilson interval, the true ratio (the extra-copy arm's MB/s over the other's, the median over
 * the kind's trials), the seconds of rounds, and one sentence; -o DIR (a new directory) keeps
 * power.json (every trial) and power.txt (the text). Stopped by a signal, it prints and writes
 * the trials done. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "core/core.h"
#include "plan/plan.h"
#include "report/report.h"
#include "run_args.h"
#include "runner/runner.h"
#include "runner/runner_setup.h"
#include "stats/stats.h"

#define POWER_TRIALS 5        /* trials of each kind */
#define POWER_QUICK_TRIALS 3
#define POWER_MAX_TRIALS 10000
#define POWER_MAX_SETS (SB_RUN_ARGS_MAX_SETS + 16)

/* The trials' experiment: the embedded default's ring and op over a table a trial builds in a
 * fraction of a second; then the budget, the command line's --set, the trial's own sets. */
static const char *const base_sets[] = {
    "name=power", "description=scanbench power: two arms alike but for extra_copy",
    "op=count", "policy=ring", "ring_size=256K", "table_size=64M", "repetitions=auto"};
static const char *const sizes_full[] = {"0", "0.02", "0.05", "0.10"};
static const char *const sizes_quick[] = {"0", "0.05", "0.10"};

struct trial {
    uint64_t seed;         /* the trial's schedule_seed; its coin picks the arm */
    int kind;              /* index into the sizes (0: A-A) */
    int arm;               /* the run with the extra copy: 0 first, 1 second; -1 A-A */
    char call[16];         /* the analysis' call of the second run against the first */
    char by_level[2][16];  /* its quiet and busy thirds' calls where it is called by the host's
                              level (analysis.h's sb_level_call), else "" */
    double ratio, lo, hi;  /* the second run's MB/s over the first's, its interval */
    double floor, bound;   /* the trial's noise floor and its A-A pair's bound */
    int rounds;
    double seconds;        /* of its rounds */
    char stopped_by[16];
};

struct power {
    bool quick, quiet;
    unsigned per_kind;          /* --trials */
    const char *outdir;         /* -o DIR, or NULL */
    const char *user_sets[SB_RUN_ARGS_MAX_SETS];
    int nuser;
    const char *const *sizes;
    int nkinds;
    const char *budget;         /* "time_budget=..." */
    uint64_t master_seed;       /* the trials' seeds come from it */
    char what[256];             /* a trial's experiment, in words */
    struct trial *trials;
    unsigned ntrials, done;
    json_t *context;            /* the first trial's host */
};

/* --- the command line ------------------------------------------------------------------------ */

static int parse_trials(const char *text, unsigned *n, struct sb_error *err)
{
    uint64_t v;

    if (!text || !sb_parse_uint(text, &v) || v < 1 || v > POWER_MAX_TRIALS)
        return sb_fail(err, SB_ERR_INPUT, "--trials %s: want a whole number from 1 to %d",
                       text ? text : "(missing)", POWER_MAX_TRIALS);
    *n = (unsigned)v;
    return SB_OK;
}

static int parse(int argc, char **argv, struct power *pw, struct sb_error *err)
{
    bool trials_set = false;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *assignment;
        int status = SB_OK;
        if (sb_args_take_set(argc, argv, &i, &assignment)) {
            if (pw->nuser == SB_RUN_ARGS_MAX_SETS)
                return sb_fail(err, SB_ERR_INPUT, "more than %d --set", SB_RUN_ARGS_MAX_SETS);
            pw->user_sets[pw->nuser++] = assignment;
        } else if (strcmp(a, "--quick") == 0) {
            pw->quick = true;
        } else if (strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0) {
            pw->quiet = true;
        } else if (strcmp(a, "--trials") == 0) {
            status = parse_trials(i + 1 < argc ? argv[++i] : NULL, &pw->per_kind, err);
            trials_set = true;
        } else if (strcmp(a, "-o") == 0 && i + 1 < argc && !pw->outdir) {
            pw->outdir = argv[++i];
        } else {
            bool o = strcmp(a, "-o") == 0;
            return sb_fail(err, SB_ERR_INPUT, "%s: %s (usage: scanbench power " SB_ARGS_POWER
                           ")", a, !o ? "unknown argument" : pw->outdir ? "-o given twice"
                                                                        : "no DIR after it");
        }
        if (status != SB_OK)
            return status;
    }
    if (!trials_set)
        pw->per_kind = pw->quick ? POWER_QUICK_TRIALS : POWER_TRIALS;
    pw->sizes = pw->quick ? sizes_quick : sizes_full;
    pw->nkinds = pw->quick ? (int)(sizeof sizes_quick / sizeof *sizes_quick)
                           : (int)(sizeof sizes_full / sizeof *sizes_full);
    pw->budget = pw->quick ? "time_budget=3" : "time_budget=4";
    return SB_OK;
}

/* --- one trial ------------------------------------------------------------------------------- */

/* Trial i's seed (from the master seed) and arm (the seed's coin; -1 for A-A). */
static void trial_draw(const struct power *pw, unsigned i, struct trial *t)
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
static int trial_setup(const struct power *pw, const struct trial *t, struct sb_setup *s,
                       struct sb_error *err)
{
    const char *sets[POWER_MAX_SETS];
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
static void trial_read(const json_t *report, struct trial *t)
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
static int trial_run(struct power *pw, struct trial *t, struct sb_error *err)
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

/* --- what the trials say --------------------------------------------------------------------- */

/* Whether a call finds what t was set: the extra-copy arm slower (the second run slower, or
 * the first, the reference, made the second faster). */
static bool found(const struct trial *t, const char *call)
{
    return (t->arm == 1 && strcmp(call, "slower") == 0) ||
           (t->arm == 0 && strcmp(call, "faster") == 0);
}

static bool different(const char *call)
{
    return strcmp(call, "faster") == 0 || strcmp(call, "slower") == 0;
}

/* Whether t found what it was set: its call did; called by the host's level, one third did and
 * the other did not call the other way. */
static bool detected(const struct trial *t)
{
    if (t->by_level[0][0])
        return (found(t, t->by_level[0]) || found(t, t->by_level[1])) &&
               !(different(t->by_level[0]) && !found(t, t->by_level[0])) &&
               !(different(t->by_level[1]) && !found(t, t->by_level[1]));
    return found(t, t->call);
}

/* A call of a difference (by either third, where called by the host's level): A-A's false
 * call; an injected arm called faster is the wrong way. */
static bool called_different(const struct trial *t)
{
    return different(t->call) || different(t->by_level[0]) || different(t->by_level[1]);
}

/* The extra-copy arm's MB/s over the other's (A-A: the second's over the first's). */
static double extra_over_clean(const struct trial *t)
{
    return t->arm == 0 ? 1.0 / t->ratio : t->ratio;
}

struct kind_summary {
    unsigned n, hits, wrong;  /* trials; detected (A-A: called different); called the wrong way */
    double lo, hi;            /* the Wilson interval of hits / n */
    double ratio;             /* the median of extra_over_clean */
    double median_s, max_s;   /* seconds of rounds */
};

static void summarise(const struct power *pw, int kind, struct kind_summary *k)
{
    double *ratios = malloc((pw->done + 1) * sizeof *ratios);
    double *secs = malloc((pw->done + 1) * sizeof *secs);
    unsigned nr = 0;

    memset(k, 0, sizeof *k);
    k->ratio = k->median_s = NAN;
    for (unsigned i = 0; ratios && secs && i < pw->done; i++) {
        const struct trial *t = &pw->trials[i];
        if (t->kind != kind)
            continue;
        k->hits += kind == 0 ? called_different(t) : detected(t);
        k->wrong += kind != 0 && called_different(t) && !detected(t);
        secs[k->n++] = t->seconds;
        k->max_s = fmax(k->max_s, t->seconds);
        if (isfinite(t->ratio) && t->ratio > 0)
            ratios[nr++] = extra_over_clean(t);
    }
    sb_wilson_interval(k->hits, k->n, SB_CONFIDENCE, &k->lo, &k->hi);
    if (nr)
        k->ratio = sb_median(ratios, nr);
    if (k->n)
        k->median_s = sb_median(secs, k->n);
    free(ratios);
    free(secs);
}

/* --- the text and power.json ----------------------------------------------------------------- */

static const char *kind_name(const struct power *pw, int kind, char *buf, size_t len)
{
    if (kind == 0)
        snprintf(buf, len, "A-A");
    else
        snprintf(buf, len, "extra_copy %s", pw->sizes[kind]);
    return buf;
}

/* One line per kind: trials, calls, the share with its interval, the true ratio, seconds. */
static void print_kinds(FILE *out, const struct power *pw)
{
    fprintf(out, "%-16s %6s  %-30s %-22s %-16s %s\n", "kind", "trials", "calls",
            "share [95% Wilson]", "true ratio", "seconds of rounds");
    for (int kind = 0; kind < pw->nkinds; kind++) {
        struct kind_summary k;
        char name[32], calls[64], share[48], ratio[32];
        summarise(pw, kind, &k);
        if (kind == 0)
            snprintf(calls, sizeof calls, "%u called different", k.hits);
        else
            snprintf(calls, sizeof calls, "%u detected, %u the wrong way", k.hits, k.wrong);
        snprintf(share, sizeof share, "%.0f%% [%.0f%%, %.0f%%]", k.n ? 100.0 * k.hits / k.n : 0.0,
                 100.0 * k.lo, 100.0 * k.hi);
        if (kind == 0 || isnan(k.ratio))
            snprintf(ratio, sizeof ratio, "-");
        else
            snprintf(ratio, sizeof ratio, "%.3f (%+.1f%%)", k.ratio, 100.0 * (k.ratio - 1.0));
        fprintf(out, "%-16s %6u  %-30s %-22s %-16s ", kind_name(pw, kind, name, sizeof name),
                k.n, calls, share, ratio);
        if (k.n)
            fprintf(out, "median %.1f, max %.1f\n", k.median_s, k.max_s);
        else
            fprintf(out, "(no trials)\n");
    }
}

/* 'on this host a difference of X% is found in Y% of runs within Z s; identical
 * configurations were called different in W%': X the size's true difference, Z its longest
 * trial's rounds. */
static void sentence_of(const struct power *pw, char *buf, size_t len)
{
    size_t used = (size_t)snprintf(buf, len, "on this host");
    struct kind_summary k;
    int said = 0;

    for (int kind = 1; kind < pw->nkinds && used < len; kind++) {
        summarise(pw, kind, &k);
        if (!k.n)
            continue;
        used += (size_t)snprintf(buf + used, len - used, said++ ? ", one of %.1f%% (extra_copy "
                                 "%s) in %.0f%% within %.1f s" : " a difference of %.1f%% "
                                 "(extra_copy %s) is found in %.0f%% of runs within %.1f s",
                                 100.0 * (1.0 - k.ratio), pw->sizes[kind], 100.0 * k.hits / k.n,
                                 k.max_s);
    }
    summarise(pw, 0, &k);
    if (used < len && k.n)
        snprintf(buf + used, len - used, "%sidentical configurations were called different in "
                 "%.0f%% (%u of %u)", said ? "; " : " ", 100.0 * k.hits / k.n, k.hits, k.n);
}

/* The noise floor every trial measured on its A-A pair: median and largest. */
static void print_floors(FILE *out, const struct power *pw)
{
    double *floors = malloc((pw->done + 1) * sizeof *floors), most = 0.0;
    unsigned n = 0;

    for (unsigned i = 0; floors && i < pw->done; i++)
        if (isfinite(pw->trials[i].floor)) {
            floors[n++] = pw->trials[i].floor;
            most = fmax(most, pw->trials[i].floor);
        }
    if (n)
        fprintf(out, "noise floor (the first arm timed twice a round, in every trial): median "
                "%.1f%%, largest %.1f%%\n", 100.0 * sb_median(floors, n), 100.0 * most);
    free(floors);
}

static void print_text(FILE *out, const struct power *pw, const char *sentence,
                       const char *stopped)
{
    fprintf(out, "scanbench power: %u trials, %u of each kind, each its own run of two arms: %s\n"
            "a trial's call: the second arm against the first (timed twice a round: the noise "
            "floor); an arm with extra_copy F copies F more pages than MB/s credits, which arm "
            "by the trial's seed; A-A: both arms alike\n", pw->done, pw->per_kind, pw->what);
    if (stopped)
        fprintf(out, "interrupted after %u of %u trials: %s\n", pw->done, pw->ntrials, stopped);
    fprintf(out, "\n");
    print_kinds(out, pw);
    print_floors(out, pw);
    fprintf(out, "\ndetected: the extra-copy arm called slower; the wrong way: called faster; "
            "true ratio: its MB/s over the other's, the median over the kind's trials\n\n%s\n",
            sentence);
}

static json_t *number(double v) { return isfinite(v) ? json_real(v) : json_null(); }

static json_t *trial_json(const struct power *pw, const struct trial *t, unsigned i)
{
    json_t *by_level = t->by_level[0][0] ? json_pack("{s:s, s:s}", "quiet", t->by_level[0],
                                                     "busy", t->by_level[1])
                                         : json_null();

    return json_pack("{s:i, s:I, s:s, s:f, s:o, s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:b, s:o, "
                     "s:o, s:i, s:f, s:s}", "trial", (int)i + 1, "seed", (json_int_t)t->seed,
                     "kind", t->kind ? "extra_copy" : "A-A", "size", atof(pw->sizes[t->kind]),
                     "arm", t->arm < 0 ? json_null() : json_string(t->arm ? "second" : "first"),
                     "call", t->call, "by_level", by_level, "ratio", number(t->ratio), "lo",
                     number(t->lo), "hi", number(t->hi), "extra_over_clean",
                     t->arm < 0 ? json_null() : number(extra_over_clean(t)), "detected",
                     t->arm < 0 ? json_null() : json_boolean(detected(t)), "called_different",
                     called_different(t), "floor", number(t->floor), "bound", number(t->bound),
                     "rounds", t->rounds,
                     "seconds", t->seconds, "stopped_by", t->stopped_by);
}

static json_t *kinds_json(const struct power *pw)
{
    json_t *list = json_array();

    for (int kind = 0; list && kind < pw->nkinds; kind++) {
        struct kind_summary k;
        summarise(pw, kind, &k);
        json_array_append_new(list, json_pack(
            "{s:s, s:f, s:i, s:i, s:i, s:o, s:f, s:f, s:o, s:o, s:o}", "kind",
            kind ? "extra_copy" : "A-A", "size", atof(pw->sizes[kind]), "trials", (int)k.n,
            kind ? "detected" : "called_different", (int)k.hits, "wrong_way", (int)k.wrong,
            "share", k.n ? json_real((double)k.hits / k.n) : json_null(), "lo", k.lo, "hi",
            k.hi, "true_ratio", number(k.ratio), "median_seconds", number(k.median_s),
            "max_seconds", k.n ? json_real(k.max_s) : json_null()));
    }
    return list;
}

static json_t *power_json(const struct power *pw, const char *command, const char *sentence,
                          bool incomplete)
{
    json_t *trials = json_array(), *sets = json_array();

    for (unsigned i = 0; trials && i < pw->done; i++)
        json_array_append_new(trials, trial_json(pw, &pw->trials[i], i));
    for (int u = 0; sets && u < pw->nuser; u++)
        json_array_append_new(sets, json_string(pw->user_sets[u]));
    return json_pack("{s:s, s:i, s:s, s:o, s:{s:b, s:i, s:I, s:s, s:o}, s:o, s:o, s:s, s:b, "
                     "s:s}", "schema", "scanbench-power", "schema_version", 1, "command",
                     command ? command : "scanbench power", "context",
                     pw->context ? json_incref(pw->context) : json_null(), "settings", "quick",
                     pw->quick, "trials_per_kind", (int)pw->per_kind, "master_seed",
                     (json_int_t)pw->master_seed, "trial", pw->what, "sets", sets, "trials",
                     trials, "kinds", kinds_json(pw), "sentence", sentence, "incomplete",
                     incomplete, "rule",
                     "call, ratio, lo, hi: the analysis' (report analysis.comparisons[0]: the "
                     "second run's MB/s over the first's); extra_over_clean: the extra-copy "
                     "arm's over the other's; detected: the call says the extra-copy arm is "
                     "slower (arm second: slower; arm first: faster); A-A called "
                     "different: faster or slower; share with its 95% Wilson score interval; "
                     "true_ratio: the median over the kind's trials of the extra-copy arm's MB/s "
                     "over the other's; seconds: of the trial's rounds");
}

/* Writes text as DIR/name, saying on stderr where it went when not there. */
static int save(struct sb_outdir *dir, const char *name, const char *text, struct sb_error *err)
{
    char used[SB_OUTFILE_MAX];
    int status = sb_outdir_write(dir, name, text, strlen(text), used, err);

    if (dir->note[0])
        fprintf(stderr, "scanbench: %s\n", dir->note);
    dir->note[0] = '\0';
    if (status == SB_OK && !strstr(used, name))
        fprintf(stderr, "scanbench: %s/%s appeared during the run; kept as %s\n", dir->path,
                name, used);
    return status;
}

/* The text on stdout and, with -o, power.txt and power.json in DIR. status: the trials' (a
 * stop's stands over a failed write, said on stderr). */
static int conclude(const struct power *pw, const char *command, struct sb_outdir *dir,
                    int status, const struct sb_error *stop, struct sb_error *err)
{
    char sentence[2048], *text = NULL, *json_text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    json_t *doc;
    struct sb_error write_err = {0};
    int written = SB_OK;

    sentence_of(pw, sentence, sizeof sentence);
    if (!out)
        return sb_fail(err, SB_ERR_RUN, "out of memory");
    print_text(out, pw, sentence, status == SB_OK ? NULL : stop->msg);
    fclose(out);
    fputs(text, stdout);
    doc = dir ? power_json(pw, command, sentence, status != SB_OK) : NULL;
    json_text = doc ? json_dumps(doc, JSON_INDENT(2) | JSON_ENSURE_ASCII) : NULL;
    if (dir && !json_text)
        written = sb_fail(&write_err, SB_ERR_RUN, "out of memory for power.json");
    if (dir && written == SB_OK)
        written = save(dir, "power.json", json_text, &write_err);
    if (dir && written == SB_OK)
        written = save(dir, "power.txt", text, &write_err);
    if (dir && written == SB_OK && !pw->quiet)
        fprintf(stderr, "scanbench: power.json and power.txt written to %s\n", dir->path);
    json_decref(doc);
    free(json_text);
    free(text);
    return sb_setup_settle_write(status, written, &write_err, err);
}

/* --- the command ----------------------------------------------------------------------------- */

/* The keys the trials set themselves are not the command line's to set. */
static int refuse_own_keys(const struct power *pw, struct sb_error *err)
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
static void describe(struct power *pw, const struct sb_plan *plan)
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

/* Before any trial: the command line's keys, the master seed (schedule_seed as the command
 * line sets it, else the clock's), and an extra-copy trial's plan checked: two runs. */
static int prepare(struct power *pw, struct sb_error *err)
{
    static struct sb_setup s;
    struct trial t;
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
    trial_draw(pw, 1, &t);
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
    return status;
}

/* Trial i done: one line on stderr. */
static void progress(const struct power *pw, const struct trial *t, unsigned i)
{
    char name[32], by_level[48] = "";

    if (pw->quiet)
        return;
    if (t->by_level[0][0])
        snprintf(by_level, sizeof by_level, " (%s when quiet, %s when busy)", t->by_level[0],
                 t->by_level[1]);
    fprintf(stderr, "scanbench: trial %u/%u (%s%s): %s%s, %.3fx [%.3f, %.3f], %d rounds, "
            "%.1f s\n", i + 1, pw->ntrials, kind_name(pw, t->kind, name, sizeof name),
            t->arm < 0 ? "" : t->arm ? ", second arm" : ", first arm", t->call, by_level,
            t->ratio, t->lo, t->hi, t->rounds, t->seconds);
}

/* -o DIR: trial i appended to DIR/trials.jsonl as it ends (one JSON line each), so that a run
 * killed outright (SIGKILL, a crash) keeps the trials done; power.json, at the end, has them
 * all. A failed append is said once and changes nothing else. */
static void keep_trial(const struct power *pw, const struct sb_outdir *dir, unsigned i)
{
    static bool said;
    char path[SB_OUTFILE_MAX + 16];
    json_t *doc = trial_json(pw, &pw->trials[i], i);
    char *line = doc ? json_dumps(doc, JSON_COMPACT | JSON_ENSURE_ASCII) /* as power.json */ : NULL;
    int fd = -1;
    bool ok = false;

    snprintf(path, sizeof path, "%s/trials.jsonl", dir->path);
    if (line && (fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0666)) >= 0) {
        size_t len = strlen(line);
        line[len] = '\n'; /* json_dumps' NUL becomes the line's end; write len + 1 */
        ok = write(fd, line, len + 1) == (ssize_t)(len + 1) && fsync(fd) == 0;
    }
    if (fd >= 0)
        close(fd);
    if (!ok && !said) {
        fprintf(stderr, "scanbench: cannot append to %s (%s): the trials are kept in memory "
                "for power.json only\n", path, strerror(errno));
        said = true;
    }
    free(line);
    json_decref(doc);
}

/* Every trial in turn (the kinds taking turns), each kept in dir (NULL: none) as it ends; a
 * stop or a failure ends them. */
static int run_trials(struct power *pw, const struct sb_outdir *dir, struct sb_error *err)
{
    int status = SB_OK;

    for (unsigned i = 0; i < pw->ntrials && status == SB_OK; i++) {
        struct trial *t = &pw->trials[i];
        char name[32];
        trial_draw(pw, i, t);
        status = trial_run(pw, t, err);
        if (status != SB_OK && !sb_stop_requested())
            sb_error_prefix(err, "trial %u/%u (%s, seed %llu)", i + 1, pw->ntrials,
                            kind_name(pw, t->kind, name, sizeof name),
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

int sb_cmd_power(int argc, char **argv)
{
    static struct power pw;
    static struct sb_outdir dir;
    struct sb_error err = {0}, stop;
    char *command = NULL;
    int status;

    memset(&pw, 0, sizeof pw);
    status = parse(argc, argv, &pw, &err);
    if (status == SB_OK)
        status = prepare(&pw, &err);
    if (status == SB_OK && pw.outdir)
        status = sb_outdir_create(&dir, pw.outdir, &err);
    pw.ntrials = pw.per_kind * (unsigned)pw.nkinds;
    if (status == SB_OK && !(pw.trials = calloc(pw.ntrials, sizeof *pw.trials)))
        status = sb_fail(&err, SB_ERR_RUN, "out of memory for %u trials", pw.ntrials);
    if (status != SB_OK)
        goto out;
    command = sb_args_command_line(argc, argv);
    /* a signal (INT, TERM, HUP, QUIT) stops the trial in progress between scans (core/stop.h):
     * the trials done are printed and written */
    sb_stop_install();
    status = run_trials(&pw, pw.outdir ? &dir : NULL, &err);
    stop = err;
    if (status == SB_OK || sb_stop_requested())
        status = conclude(&pw, command, pw.outdir ? &dir : NULL, status, &stop, &err);
    if (status == SB_OK && pw.outdir && dir.kept)
        status = sb_fail(&err, SB_ERR_RUN, "%s could not be written into: the results are kept "
                         "in %s", dir.asked, dir.path);
out:
    if (status != SB_OK)
        fprintf(stderr, "scanbench: %s\n", err.msg);
    free(pw.trials);
    json_decref(pw.context);
    free(command);
    sb_stop_finish(); /* after every cleanup: a signal received ends the process here */
    return status;
}
