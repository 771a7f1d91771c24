/* experiment.h: experiments: the keys scanbench knows (a const registry with type, default and
 * help), reading them from INI files (inih) or the embedded default, and `--set KEY=VALUE`
 * overrides. Every value may be a comma-separated list where the key allows one: lists make
 * sweeps (see plan.h). Each value remembers where it came from ("file.ini:12" or
 * "--set pool_size=16M") so that errors found later still name the input. */
#ifndef SB_EXPERIMENT_H
#define SB_EXPERIMENT_H

#include <stdbool.h>
#include <stdint.h>

#include "error.h"

enum sb_key_type {
    SB_KEY_TEXT,  /* free text */
    SB_KEY_SIZE,  /* a size: 8192, 256K, 16MB */
    SB_KEY_UINT,  /* a whole number within [min, max] */
    SB_KEY_NAME,  /* a name from a registry (kernel, policy, op, source, counters);
                     kernel also takes `all`: every kernel this CPU can run */
    SB_KEY_AUTO_SIZE, /* `auto` or a size (topology overrides) */
};

enum sb_key_id {
    SB_K_NAME, SB_K_DESCRIPTION, SB_K_SOURCE, SB_K_TABLE_SIZE, SB_K_PAGE_SIZE, SB_K_ROW_WIDTH,
    SB_K_DEAD_PCT, SB_K_OP, SB_K_KERNEL, SB_K_POOL_SIZE, SB_K_POLICY, SB_K_RING_SIZE,
    SB_K_THREADS, SB_K_REPETITIONS, SB_K_WARMUP, SB_K_SEED, SB_K_COUNTERS, SB_K_L1D_SIZE,
    SB_K_L2_SIZE, SB_K_L3_SIZE, SB_K_LINE_SIZE,
    SB_NKEYS
};

struct sb_key {
    const char *name;
    enum sb_key_type type;
    const char *default_value;
    bool listable;
    uint64_t min, max;  /* for SB_KEY_UINT and SB_KEY_SIZE */
    const char *help;
};

extern const struct sb_key sb_keys[SB_NKEYS];

#define SB_MAX_LIST 64

struct sb_setting {
    int nvalues;
    char *values[SB_MAX_LIST];    /* the text of each list element */
    uint64_t numbers[SB_MAX_LIST]; /* parsed SIZE/UINT values (AUTO_SIZE: 0 = auto) */
    char origin[256];             /* "file:line" or "--set key=value" or "default" */
};

struct sb_experiment {
    struct sb_setting settings[SB_NKEYS];
    char source[256]; /* the file read, or "embedded default" */
    char notes[512];  /* what the reader decided for the user, e.g. kernels `all` skipped */
};

/* The embedded default experiment (configs/experiments/default.ini, compiled in). */
extern const char sb_default_experiment_ini[];

/* Starts an experiment with every key at its registry default. */
int sb_experiment_init(struct sb_experiment *exp, struct sb_error *err);

/* Reads an INI file (or, with path NULL, the embedded default) over the current values. */
int sb_experiment_read_file(struct sb_experiment *exp, const char *path, struct sb_error *err);
int sb_experiment_read_string(struct sb_experiment *exp, const char *text, const char *label,
                              struct sb_error *err);

/* Applies one "KEY=VALUE" (the argument of --set). */
int sb_experiment_set(struct sb_experiment *exp, const char *assignment, struct sb_error *err);

void sb_experiment_free(struct sb_experiment *exp);

/* Finds a key by name; SB_NKEYS when unknown. */
enum sb_key_id sb_key_find(const char *name);

#endif
