/* SPDX-License-Identifier: BSD-3-Clause */
/* power.h: `scanbench power`: how often this host's rounds find a difference of known size,
 * and how often they call identical configurations different. Each trial is a run of its own
 * (its own plan: a fresh table and fresh pools) of two arms, COUNT(*) into a 256KB ring over a
 * 64MB table, repetitions auto within a short time_budget, analysed as `run` analyses (the
 * second arm against the first, the first timed twice a round for the noise floor). A-A
 * trials: both arms alike (they differ in `seed`, which only the random policy reads: the plan
 * needs two runs). The other trials: one arm has extra_copy = 0.02, 0.05 or 0.10 (quick: 0.05,
 * 0.10), real extra work that MB/s does not credit, and which arm is the trial's seed's coin.
 * The kinds take turns, so the host's drift over the minutes lands on all of them (trials.c).
 * What the trials say: each kind's share detected (the call says the extra-copy arm is slower)
 * or, for A-A, called different, with its Wilson interval, the true ratio, the seconds of
 * rounds, and one sentence (tally.c); the text, power.json and each trial's line of
 * trials.jsonl (output.c). */
#ifndef SB_POWER_H
#define SB_POWER_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "core/core.h"

#define SB_POWER_TRIALS 5        /* trials of each kind */
#define SB_POWER_QUICK_TRIALS 3
#define SB_POWER_MAX_TRIALS 10000
#define SB_POWER_USER_SETS 256   /* the command line's --set */
#define SB_POWER_MAX_SETS (SB_POWER_USER_SETS + 16)

struct sb_power_trial {
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

/* A power check: zeroed, its options set (quick, quiet, per_kind, user_sets, outdir), then
 * sb_power_settle, prepared, run, concluded, freed. */
struct sb_power {
    bool quick, quiet;
    unsigned per_kind;          /* --trials */
    const char *outdir;         /* -o DIR, or NULL */
    const char *user_sets[SB_POWER_USER_SETS];
    int nuser;
    const char *const *sizes;
    int nkinds;
    const char *budget;         /* "time_budget=..." */
    uint64_t master_seed;       /* the trials' seeds come from it */
    char what[256];             /* a trial's experiment, in words */
    struct sb_power_trial *trials;
    unsigned ntrials, done;
    json_t *context;            /* the first trial's host */
    struct {                    /* -o DIR's trials.jsonl, once made: the file it must stay */
        char path[SB_OUTFILE_MAX + 16];
        bool made, refused;
        dev_t dev;
        ino_t ino;
    } trials_file;
};

/* The kinds (quick's or the full ones), their budget, and per_kind unless trials_given. */
void sb_power_settle(struct sb_power *pw, bool trials_given);

/* Before any trial: the command line's keys (extra_copy and seed are the trials' own), the
 * master seed (schedule_seed as the command line sets it, else the clock's), an extra-copy
 * trial's plan checked (two runs), the trials allocated. */
int sb_power_prepare(struct sb_power *pw, struct sb_error *err);

/* Trial i's seed (from the master seed), kind (the kinds take turns) and arm (the seed's coin;
 * -1 for A-A). */
void sb_power_draw(const struct sb_power *pw, unsigned i, struct sb_power_trial *t);

/* Every trial in turn, each kept in dir/trials.jsonl (dir NULL: none) as it ends, progress on
 * stderr unless quiet; a stop or a failure ends them (pw->done: the trials done). */
int sb_power_run(struct sb_power *pw, const struct sb_outdir *dir, struct sb_error *err);

void sb_power_free(struct sb_power *pw);

/* --- what the trials say (tally.c) --- */

/* Whether t found what it was set: its call said the extra-copy arm is slower; called by the
 * host's level, one third did and the other did not call the other way. */
bool sb_power_detected(const struct sb_power_trial *t);

/* A call of a difference (by either third, where called by the host's level): A-A's false
 * call; an injected arm called faster is the wrong way. */
bool sb_power_called_different(const struct sb_power_trial *t);

/* The extra-copy arm's MB/s over the other's (A-A: the second's over the first's). */
double sb_power_extra_over_clean(const struct sb_power_trial *t);

/* What the trials of one kind found. */
struct sb_power_kind {
    unsigned n, hits, wrong;  /* trials; detected (A-A: called different); called the wrong way */
    double lo, hi;            /* the Wilson interval of hits / n */
    double ratio;             /* the median of extra_over_clean */
    double median_s, max_s;   /* seconds of rounds */
};

/* The done trials of kind (0: A-A) summarised. */
void sb_power_summarise(const struct sb_power *pw, int kind, struct sb_power_kind *k);

/* "A-A", "extra_copy 0.05". */
const char *sb_power_kind_name(const struct sb_power *pw, int kind, char *buf, size_t len);

/* 'on this host a difference of X% is found in Y% of runs within Z s; identical
 * configurations were called different in W%'. */
void sb_power_sentence(const struct sb_power *pw, char *buf, size_t len);

/* --- the text and power.json (output.c) --- */

/* The text: the trials, each kind's line, the noise floors, how to read it, the sentence;
 * stopped: why the trials ended early (NULL: they did not). */
void sb_power_text(FILE *out, const struct sb_power *pw, const char *sentence,
                   const char *stopped);

/* Trial i as power.json and trials.jsonl hold it. */
json_t *sb_power_trial_json(const struct sb_power *pw, const struct sb_power_trial *t,
                            unsigned i);

/* power.json: every trial done, each kind, the sentence; command: the command line. */
json_t *sb_power_json(const struct sb_power *pw, const char *command, const char *sentence,
                      bool incomplete);

/* The text on stdout and, with dir, power.txt and power.json in it. status: the trials' (a
 * stop's, stop its error, stands over a failed write, said on stderr). */
int sb_power_conclude(const struct sb_power *pw, const char *command, struct sb_outdir *dir,
                      int status, const struct sb_error *stop, struct sb_error *err);

#endif
