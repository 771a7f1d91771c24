/* SPDX-License-Identifier: BSD-3-Clause */
/* output.c: a power check's text and power.json (see power.h). */
#include "config.h"
#include "power/power.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "runner/runner_setup.h"
#include "stats/stats.h"

/* One line per kind: trials, calls, the share with its interval, the true ratio, seconds. */
static void print_kinds(FILE *out, const struct sb_power *pw)
{
    fprintf(out, "%-16s %6s  %-30s %-22s %-16s %s\n", "kind", "trials", "calls",
            "share [95% Wilson]", "true ratio", "seconds of rounds");
    for (int kind = 0; kind < pw->nkinds; kind++) {
        struct sb_power_kind k;
        char name[32], calls[64], share[48], ratio[32];
        sb_power_summarise(pw, kind, &k);
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
        fprintf(out, "%-16s %6u  %-30s %-22s %-16s ",
                sb_power_kind_name(pw, kind, name, sizeof name), k.n, calls, share, ratio);
        if (k.n)
            fprintf(out, "median %.1f, max %.1f\n", k.median_s, k.max_s);
        else
            fprintf(out, "(no trials)\n");
    }
}

/* The noise floor every trial measured on its A-A pair: median and largest. */
static void print_floors(FILE *out, const struct sb_power *pw)
{
    double *floors = malloc((pw->done + 1) * sizeof *floors), most = 0.0;
    unsigned n = 0;

    for (unsigned i = 0; floors && i < pw->done; i++)
        if (isfinite(pw->trials[i].floor)) {
            floors[n++] = pw->trials[i].floor;
            most = fmax(most, pw->trials[i].floor);
        }
    if (n)
        fprintf(out, "noise floor (the first arm against a second instance of it, in every "
                "trial): median "
                "%.1f%%, largest %.1f%%\n", 100.0 * sb_median(floors, n), 100.0 * most);
    free(floors);
}

void sb_power_text(FILE *out, const struct sb_power *pw, const char *sentence,
                       const char *stopped)
{
    fprintf(out, "scanbench power: %u trials, %u of each kind, each its own run of two arms: %s\n"
            "a trial's call: the second arm against the first (and the first against a second "
            "instance of it: the noise floor), each on layouts of its own; an arm with "
            "extra_copy F copies F more pages than MB/s credits, which arm by the trial's seed; "
            "A-A: both arms alike\n", pw->done, pw->per_kind, pw->what);
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

json_t *sb_power_trial_json(const struct sb_power *pw, const struct sb_power_trial *t,
                            unsigned i)
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
                     t->arm < 0 ? json_null() : number(sb_power_extra_over_clean(t)),
                     "detected", t->arm < 0 ? json_null() : json_boolean(sb_power_detected(t)),
                     "called_different", sb_power_called_different(t), "floor",
                     number(t->floor), "bound", number(t->bound), "rounds", t->rounds,
                     "seconds", t->seconds, "stopped_by", t->stopped_by);
}

static json_t *kinds_json(const struct sb_power *pw)
{
    json_t *list = json_array();

    for (int kind = 0; list && kind < pw->nkinds; kind++) {
        struct sb_power_kind k;
        sb_power_summarise(pw, kind, &k);
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

json_t *sb_power_json(const struct sb_power *pw, const char *command, const char *sentence,
                          bool incomplete)
{
    json_t *trials = json_array(), *sets = json_array();

    for (unsigned i = 0; trials && i < pw->done; i++)
        json_array_append_new(trials, sb_power_trial_json(pw, &pw->trials[i], i));
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

/* The text on stdout and, with -o, power.txt and power.json in DIR. status: the trials' (a
 * stop's stands over a failed write, said on stderr). */
int sb_power_conclude(const struct sb_power *pw, const char *command, struct sb_outdir *dir,
                    int status, const struct sb_error *stop, struct sb_error *err)
{
    char sentence[2048], *text = NULL, *json_text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    json_t *doc;
    struct sb_error write_err = {0};
    int written = SB_OK;

    sb_power_sentence(pw, sentence, sizeof sentence);
    if (!out)
        return sb_fail(err, SB_ERR_RUN, "out of memory");
    sb_power_text(out, pw, sentence, status == SB_OK ? NULL : stop->msg);
    fclose(out);
    fputs(text, stdout);
    doc = dir ? sb_power_json(pw, command, sentence, status != SB_OK) : NULL;
    json_text = doc ? json_dumps(doc, JSON_INDENT(2) | JSON_ENSURE_ASCII) : NULL;
    if (dir && !json_text)
        written = sb_fail(&write_err, SB_ERR_RUN, "out of memory for power.json");
    if (dir && written == SB_OK)
        written = sb_setup_save(dir, "power.json", json_text, "power report", &write_err);
    if (dir && written == SB_OK)
        written = sb_setup_save(dir, "power.txt", text, "text", &write_err);
    if (dir && written == SB_OK && !pw->quiet)
        fprintf(stderr, "scanbench: power.json and power.txt written to %s\n", dir->path);
    json_decref(doc);
    free(json_text);
    free(text);
    return sb_setup_settle_write(status, written, &write_err, err);
}
