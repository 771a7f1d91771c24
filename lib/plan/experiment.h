/* SPDX-License-Identifier: BSD-3-Clause */
/* experiment.h: experiments: the keys scanbench knows (a const registry with type, default and
 * help, the table the core INI reader reads [experiment] by: core/ini_keys.h), reading them from
 * INI files or the embedded default, and `--set KEY=VALUE` overrides. Every value may be a comma-separated list where the key allows one: lists make
 * sweeps (see plan.h). Each value remembers where it came from ("file.ini:12" or
 * "--set pool_size=16M") so that errors found later still name the input. */
#ifndef SB_EXPERIMENT_H
#define SB_EXPERIMENT_H

#include <stdbool.h>
#include <stdint.h>

#include "core/core.h"
#include "plan/thread.h"

struct sb_op; /* vocab/op.h */

enum sb_key_id {
    SB_K_NAME, SB_K_DESCRIPTION, SB_K_SOURCE, SB_K_BIGTABLE, SB_K_DATA_DIR, SB_K_TABLE_SIZE,
    SB_K_PAGE_SIZE, SB_K_ROW_WIDTH,
    SB_K_DEAD_PCT, SB_K_OP, SB_K_EXECUTOR, SB_K_KERNEL, SB_K_POOL_SIZE, SB_K_POLICY, SB_K_RING_SIZE,
    SB_K_STATEMENTS,
    SB_K_WRITEBACK, SB_K_CHECKPOINT_PAGES, SB_K_WRITEBACK_KERNEL, SB_K_HINT_BITS,
    SB_K_IOCACHE_NODE, SB_K_POOL_NODE,
    SB_K_THREADS, SB_K_SHARED_TABLE, SB_K_SHARED_POOL, SB_K_OVERSUBSCRIBE, SB_K_CONTENTION,
    SB_K_SCHEDULE, SB_K_REPETITIONS, SB_K_TIME_BUDGET, SB_K_MIN_SCAN_MS, SB_K_SLICE_MS,
    SB_K_SCHEDULE_SEED, SB_K_LAYOUT, SB_K_LAYOUT_ROUNDS,
    SB_K_WARMUP, SB_K_SEED, SB_K_EXTRA_COPY, SB_K_COUNTERS, SB_K_EVENTS,
    SB_K_REQUIRE_COUNTERS, SB_K_MACHINE, SB_K_PREFETCH, SB_K_L1D_SIZE,
    SB_K_L2_SIZE, SB_K_L3_SIZE, SB_K_LINE_SIZE, SB_K_RUN_TIMEOUT, SB_K_PLAN_LIMIT,
    /* a PostgreSQL server's settings, for scanbench pg (plan.h, struct sb_pg_knobs) */
    SB_K_BUFFER_USAGE_LIMIT, SB_K_IO_COMBINE_LIMIT, SB_K_EFFECTIVE_IO_CONCURRENCY, SB_K_IO_METHOD,
    SB_K_IO_WORKERS, SB_K_IO_WORKER_CPU, SB_K_HUGE_PAGES,
    SB_NKEYS
};

/* Key layout: the memory behind each run's pools (doc/statistics.md, Layouts). random: drawn
 * anew every layout_rounds rounds, all runs at once in a shuffled order, each pool's pages
 * copied into a fresh mapping before the old one is unmapped (so that the kernel hands out other
 * frames); fixed: one allocation per run; hugepages: random on 2MB pages. */
enum sb_layout_kind { SB_LAYOUT_RANDOM, SB_LAYOUT_FIXED, SB_LAYOUT_HUGEPAGES };
extern const char *const sb_layout_names[]; /* "random", "fixed", "hugepages", NULL */

/* The number a server key's value `default` has (buffer_usage_limit, effective_io_concurrency,
 * io_combine_limit, io_workers: the server's own value, nothing set). */
#define SB_SERVER_DEFAULT UINT64_MAX
/* Key io_method's and huge_pages' names, `default` first (index 0: nothing set). */
extern const char *const sb_io_method_names[];  /* default, sync, worker, io_uring, NULL */
extern const char *const sb_huge_pages_names[]; /* default, off, on, try, NULL */
/* Key io_worker_cpu: default (nothing pinned), same (the I/O workers on the backend's CPU),
 * other (on another CPU than the backend's). */
extern const char *const sb_io_worker_cpu_names[]; /* default, same, other, NULL */

/* The key registry: each key's descriptor for the INI reader (core/ini_keys.h: name, type,
 * list or not, range, `auto`, default, help), indexed by enum sb_key_id and ended by a NULL name,
 * so that it is the [experiment] section's table itself. The types: TEXT free text; SIZE a size
 * (8192, 256K, 16MB), with or_word "auto" (number 0) for the topology overrides; UINT a whole
 * number within [min, max], "auto" where or_word says; YESNO yes/no; WORD a name from a registry
 * (kernel, policy, op, executor, source, counters, machine, prefetch, schedule, writeback,
 * writeback_kernel, hint_bits, contention; extra_copy, a fraction from 0 to 0.5 whose number is in
 * millionths), checked here: kernel also
 * takes `all` (every kernel this CPU can run), the NUMA placements (iocache_node, pool_node) take
 * local, remote, interleave or a node number. */
extern const struct sb_ini_key sb_keys[SB_NKEYS + 1];

#define SB_MAX_LIST 64
#define SB_MAX_THREADS 256 /* the most scanners a run may have (key threads) */
/* The longest name and description (with the NUL), in bytes of UTF-8: longer ones are refused
 * when read, never cut. */
#define SB_NAME_MAX 256
#define SB_DESCRIPTION_MAX 1024
#define SB_DATA_DIR_MAX 512 /* data_dir, resolved ($TMPDIR, /tmp) */

struct sb_setting {
    int nvalues;
    char *values[SB_MAX_LIST];    /* the text of each list element */
    uint64_t numbers[SB_MAX_LIST]; /* parsed SIZE/UINT values (AUTO_SIZE: 0 = auto) */
    char *origin;                 /* "file:line" or "--set key=value" or "default" */
};

struct sb_experiment {
    struct sb_setting settings[SB_NKEYS];
    char source[1024]; /* the file read (SB_PATH_MAX), or "embedded default" */
    char notes[512];  /* what the reader decided for the user, e.g. kernels `all` skipped */
    struct sb_thread thread;
};

/* The embedded default experiment (configs/experiments/default.ini, compiled in). */
extern const char sb_default_experiment_ini[];

/* Starts an experiment with every key at its registry default. */
int sb_experiment_init(struct sb_experiment *exp, struct sb_error *err);

/* Reads an INI file (or, with path NULL, the embedded default) over the current values. The
 * file must have an [experiment] section; [thread] is the only other. An indented line goes on
 * with the value of the key above (joined with a blank). Every value must be UTF-8; name,
 * description and the [thread] texts must fit their fields. */
int sb_experiment_read_file(struct sb_experiment *exp, const char *path, struct sb_error *err);
int sb_experiment_read_string(struct sb_experiment *exp, const char *text, const char *label,
                              struct sb_error *err);

/* Applies one "KEY=VALUE" (the argument of --set), read as a line of the [experiment] section
 * of a file is (sb_ini_split_line: blanks around '=', ':' for '=', an inline "; comment") and
 * checked by the same code; a line break in it is refused. */
int sb_experiment_set(struct sb_experiment *exp, const char *assignment, struct sb_error *err);

/* The server keys (buffer_usage_limit ... huge_pages) are scanbench pg's: SB_ERR_INPUT naming
 * the first one set to anything but `default`, its origin and `command` (e.g. "scanbench run"),
 * which has no server to give it to. */
int sb_experiment_check_no_server_keys(const struct sb_experiment *exp, const char *command,
                                       struct sb_error *err);

/* Sets the list of a SIZE key (pool_size...) to the n sizes in bytes, in order, without text
 * read back: a size already in the list keeps the words it was given (16M or 16384K, which the
 * run names show), another is named as keys write it (sb_format_size_word); origin (NULL: the
 * list's own) is what errors about the list name. SB_ERR_INPUT for no size, more than
 * SB_MAX_LIST, a size twice or out of the key's range; the list unchanged then. */
int sb_experiment_set_sizes(struct sb_experiment *exp, enum sb_key_id key, const uint64_t *bytes,
                            int n, const char *origin, struct sb_error *err);

/* Sets key's list to the n values given as words, each checked as one element of a list read
 * from a file is ("0", "default", a size, a name; a text key takes one, its whole text), with
 * no text split or parsed as a line; the values that are numbers get their numbers. origin is
 * what errors about the list name. SB_ERR_INPUT for a bad value, a value twice, more than one
 * for a key that takes one, or kernel and statements (whose words expand: sb_experiment_set);
 * the setting unchanged then. */
int sb_experiment_set_values(struct sb_experiment *exp, enum sb_key_id key,
                             const char *const *values, int n, const char *origin,
                             struct sb_error *err);

/* dst (not initialised) as a copy of src, its values its own (sb_experiment_free frees them). */
int sb_experiment_copy(struct sb_experiment *dst, const struct sb_experiment *src,
                       struct sb_error *err);

/* Keeps only the first value of key's list (its origin unchanged). */
void sb_experiment_keep_first(struct sb_experiment *exp, enum sb_key_id key);

void sb_experiment_free(struct sb_experiment *exp);

/* Finds a key by name; SB_NKEYS when unknown. */
enum sb_key_id sb_key_find(const char *name);

/* The ops of `statements` ("select, vacuum"), in order, into ops (room for SB_MAX_STATEMENTS);
 * *n = 0 for an empty text. SB_ERR_INPUT naming a statement that is no op. */
int sb_statements_parse(const char *text, const struct sb_op **ops, uint32_t *n,
                        struct sb_error *err);

#endif
