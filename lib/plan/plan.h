/* SPDX-License-Identifier: BSD-3-Clause */
/* plan.h: expands an experiment into the list of runs it asks for (the Cartesian product of
 * every key given as a list, in registry order, the first key outermost) and checks each run
 * as a whole: sizes that must be multiples of the page size, a ring that must fit in the pool,
 * rows that must fit on a page, and the memory the host can give. */
#ifndef SB_PLAN_H
#define SB_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/core.h"
#include "counters/counters.h"
#include "host/host.h"
#include "plan/experiment.h"
#include "plan/scaling.h"
#include "vocab/vocab.h"

struct sb_machine; /* cachesim.h */

/* Memory a run may need beyond table + pool (checksums, descriptors, the process itself). */
#define SB_RUN_OVERHEAD_BYTES (16ull << 20)
/* Disk a source file run leaves free beyond its files. */
#define SB_DISK_MARGIN_BYTES (64ull << 20)
#define SB_MAX_RUNS 10000

/* The longest run name (with its NUL): "run 10000/10000 NAME", as the watchdog names a run,
 * still fits its 256 bytes. Longer names are shortened, and the plan's notes say so. */
#define SB_RUN_NAME_MAX 240

/* A PostgreSQL server's settings the experiment asks for (keys buffer_usage_limit,
 * io_combine_limit, effective_io_concurrency, io_method, io_workers, io_worker_cpu (where the
 * I/O worker processes run: not a setting, scanbench pins them), huge_pages), for scanbench
 * pg: -1 (and index 0 of the names) leaves the server's own value, nothing set. */
struct sb_pg_knobs {
    int64_t buffer_usage_limit;       /* VACUUM's ring, bytes (0: none) */
    int64_t io_combine_limit;         /* bytes */
    int64_t effective_io_concurrency; /* reads in flight */
    int io_method;                    /* index into sb_io_method_names */
    int64_t io_workers;
    int io_worker_cpu;                /* index into sb_io_worker_cpu_names */
    int huge_pages;                   /* index into sb_huge_pages_names */
};

/* true when two runs ask a server for the same settings. */
bool sb_pg_knobs_same(const struct sb_pg_knobs *a, const struct sb_pg_knobs *b);

struct sb_run_params {
    char name[SB_RUN_NAME_MAX];
    const struct sb_source *source;
    bool bigtable;                /* the table does not fit in the IO cache (source.h) */
    char data_dir[SB_DATA_DIR_MAX]; /* source file: the scratch directory, resolved */
    struct sb_placement iocache_node, pool_node; /* NUMA placement (placement.h) */
    bool shared_table;            /* threads > 1: all scan one table, dividing its pages */
    bool shared_pool;             /* one clock-swept pool shared by every scanner */
    uint64_t table_size, pool_size, ring_size;
    uint32_t page_size;
    struct sb_heap_layout layout; /* page_size, row_width, dead_pct and rows per page */
    const struct sb_op *op;
    /* key statements: the sequence every scan runs in order on the pool (statements[0] first,
     * the last is op, the one measured); nstatements 0: just op */
    const struct sb_op *statements[SB_MAX_STATEMENTS];
    uint32_t nstatements;
    const struct sb_kernel *kernel;
    const struct sb_policy *policy;
    /* issue 18: the write-back of dirtied buffers (vocab/writeback.h) and the table's hint bits */
    enum sb_writeback_mode writeback;
    uint32_t checkpoint_pages;                /* checkpoint: pages read between checkpoints
                                                 (auto: the pool's buffers; 0: the same) */
    const struct sb_kernel *writeback_kernel; /* the write-back's copy: NULL with writeback
                                                 none (and NULL: the copy-in kernel's, pwrite
                                                 for source file) */
    bool hint_bits_set;                       /* the table built with its hint bits (the plan
                                                 copies it into layout.hint_bits_set, which
                                                 the table is built by) */
    uint32_t threads, repetitions, warmup; /* repetitions: the timed scans a run alone makes
                                              (sb_scan_run, a server run); a schedule makes its
                                              rounds' (auto: SB_AUTO_ROUNDS_MIN here) */
    double min_scan_seconds;               /* a timed scan's passes last at least this long */
    double slice_seconds;                  /* key slice_ms: a timed scan covers a slice of the
                                              table lasting about this long (0: whole passes;
                                              the engine slices only where slice_off is NULL
                                              and a pass lasts at least SB_SLICES_PER_PASS
                                              slices) */
    const char *slice_off;                 /* why slice_ms asked for slices and the run makes
                                              whole passes (static text; NULL: it did not ask,
                                              or it slices) */
    uint64_t settle_cap_pages;             /* a slice's settling pass covers at most this many
                                              pages: enough to evict the last-level cache twice
                                              over (0: the pool's footprint, uncapped) */
    uint64_t seed;
    uint32_t extra_ppm;                    /* extra_copy in millionths: extra pages fetched
                                              (into a spare buffer) per million of a pass,
                                              never credited in bytes (engine/scanner.h) */
    const struct sb_counter_backend *counters;
    const struct sb_events_choice *events; /* the plan's events map (key events) */
    bool require_counters;                 /* unavailable counters are an error (exit 3) */
    const struct sb_machine *machine;      /* counters=sim: the cache model's machine (owned
                                              by the plan; NULL for other backends) */
    int prefetch;                          /* the model's prefetcher: -1 the machine's, 0, 1 */
    double run_timeout;                    /* seconds before the watchdog stops the run
                                              (core/stop.h): the key, or computed from the run */
    enum sb_layout_kind pool_layout;       /* key layout (the plan's, one for every run) */
    struct sb_pg_knobs server;             /* scanbench pg: the server's settings asked for */
};

/* How the runs of a plan are timed (rounds.h). */
enum sb_schedule_kind { SB_SCHEDULE_INTERLEAVED, SB_SCHEDULE_BLOCKED };
extern const char *const sb_schedule_names[]; /* "interleaved", "blocked" */

/* A run slices its timed scans only where a whole pass lasts at least this many slices. */
#define SB_SLICES_PER_PASS 2

#define SB_AUTO_ROUNDS_MIN 10
#define SB_AUTO_ROUNDS_MAX 1000
#define SB_AUTO_PRECISION 0.01
/* time_budget = auto: seconds per run of the plan, and the least (the default experiment's four
 * runs: 20 s) */
#define SB_AUTO_BUDGET_PER_RUN 5.0
#define SB_AUTO_BUDGET_MIN 10.0

struct sb_schedule_params {
    enum sb_schedule_kind kind;
    uint32_t rounds;           /* repetitions; 0: auto */
    double time_budget;        /* repetitions = auto: seconds the run may take */
    bool time_budget_auto;     /* time_budget = auto: SB_AUTO_BUDGET_PER_RUN per run */
    bool budget_rounds_only;   /* time_budget counts the rounds alone, not the preparing before
                                  them (reproduce plans the time outside the rounds itself) */
    uint64_t seed;             /* the shuffles' seed */
    bool seed_auto;            /* the seed came from the clock */
    enum sb_layout_kind layout; /* key layout */
    uint32_t layout_rounds;    /* rounds between two draws (even); 0: auto */
};

/* Whether the schedule draws its runs' layouts anew between rounds (key layout random or
 * hugepages, interleaved; blocked and fixed keep one per run). */
bool sb_schedule_draws_layouts(const struct sb_schedule_params *s);

/* The experiment's `calibrate` ([thread], issue 19): the one figure of the thread its machine's
 * core factor is fitted to (runner/predict.h). */
struct sb_plan_calibration {
    bool present;
    char machine[64];    /* the thread's machine */
    char figure[64];     /* "count clock 16MB" */
    char op[16], policy[16];
    uint64_t footprint;  /* the pool (or ring) the figure was measured with */
    double thread_mbps;  /* the figure in MB/s (0: posted in seconds without the table's size) */
};

/* The thread's machine and how many scans its figures ran at once ([thread] machine and
 * scanners): the runs emulating that machine are predicted for that many (runner/predict.h). */
struct sb_plan_thread_scan {
    char machine[64];
    unsigned scanners; /* 1 when the thread says nothing */
};

struct sb_plan {
    struct sb_schedule_params schedule;
    struct sb_plan_calibration calibration;
    struct sb_plan_thread_scan thread_scan;
    char experiment[SB_NAME_MAX];
    char description[SB_DESCRIPTION_MAX];
    char config_source[1024];     /* the experiment's file (SB_PATH_MAX), or what stands for it */
    char notes[1024];
    bool names_shortened;         /* a run's name was shortened (said in notes) */
    struct sb_run_params *runs;
    size_t nruns;
    uint64_t override_size[3]; /* l1d, l2, l3: 0 = auto */
    uint64_t override_line;    /* 0 = auto */
    struct sb_events_choice events; /* read at plan time when counters=papi or events is set */
    struct sb_machine *machines;    /* one per value of `machine`, read at plan time when
                                       counters=sim or a model is named */
    struct sb_aggressor_plan contention; /* key contention: the aggressor the timed scans run
                                            beside, its CPU and buffers (host/aggressor.h;
                                            kind none: no aggressor) */
};

int sb_plan_build(const struct sb_experiment *exp, const struct sb_mem_limit *limit,
                  struct sb_plan *plan, struct sb_error *err);

/* A plan built from exp, edited as a value: exp's pool list set to the n sizes in bytes
 * (sb_experiment_set_sizes, origin naming them in errors) and the plan's runs made again from
 * it, as sb_plan_build would make them from that list (the same runs, order, names and checks),
 * with the events map and machine models the plan holds (not read again) and its header (seed
 * included) kept. On error the plan is freed. */
int sb_plan_set_pools(struct sb_plan *plan, struct sb_experiment *exp, const uint64_t *bytes,
                      int n, const char *origin, const struct sb_mem_limit *limit,
                      struct sb_error *err);

/* The tables a run scans (one per scanner, or one shared) and its pools. */
uint32_t sb_run_tables(const struct sb_run_params *run);
uint32_t sb_run_pools(const struct sb_run_params *run);
/* Whether the run has a team of scanner threads (engine.h, team.h) rather than one scanner. */
bool sb_run_concurrent(const struct sb_run_params *run);
/* Whether runs a and b scan the same table (a schedule builds it once for both). */
bool sb_plan_same_table(const struct sb_run_params *a, const struct sb_run_params *b);
/* What the run's counter backend is told of it (counters.h). */
void sb_run_counting(const struct sb_run_params *run, struct sb_counting *counting);
void sb_plan_free(struct sb_plan *plan);

/* The least seconds the plan's scans take on any host (estimate.c): every run's validation and
 * warm-up passes and its timed scans (whole passes of at least min_scan_ms, or the shorter of
 * those and a slice where slice_ms allows: a host fast enough makes whole passes), each pass at
 * a rate no core reaches (1 TB/s), over its rounds (into *rounds: repetitions, or auto's least,
 * SB_AUTO_ROUNDS_MIN). A floor that holds on the fastest host, not a forecast. */
double sb_plan_least_seconds(const struct sb_plan *plan, uint32_t *rounds);

/* "4 runs, repetitions auto: the scans take at least 0.5 s on any host (10 rounds), and up to
 * the time budget of 20 s", for the line before the first round. */
void sb_plan_estimate_text(const struct sb_plan *plan, char *buf, size_t len);

/* Key plan_limit (limit seconds; 0: none): SB_ERR_INPUT, naming origin, when the plan's least
 * seconds, or with repetitions = auto its time budget, pass it. */
int sb_plan_check_limit(const struct sb_plan *plan, double limit, const char *origin,
                        struct sb_error *err);

#endif
