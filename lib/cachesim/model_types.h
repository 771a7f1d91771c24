/* SPDX-License-Identifier: BSD-3-Clause */
/* model_types.h: what the cache model is built from and what it counts, for everyone who
 * names a geometry or reads counts without driving the model (machine files, the time model,
 * the plan, the reports' builders): the limits, replacement and inclusion policies, a
 * hierarchy's configuration and its check, the per-level and whole counts and their sums, the
 * machine code a model may run, and the model itself as an opaque type. Driving a model
 * (creating it, feeding it accesses) is model.h's. */
#ifndef SB_CACHESIM_MODEL_TYPES_H
#define SB_CACHESIM_MODEL_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SB_CACHESIM_MAX_LEVELS 3
#define SB_CACHESIM_MAX_WAYS 64     /* pseudo-LRU */
#define SB_CACHESIM_MAX_LRU_WAYS 16 /* LRU */
#define SB_CACHESIM_MAX_WC_BUFFERS 64
#define SB_CACHESIM_MIN_LINE 16u
#define SB_CACHESIM_MAX_LINE 128u
#define SB_CACHESIM_MAX_SLICE_SHIFT 3 /* a model in at most 8 slices (model.h) */

enum sb_replacement {
    SB_REPL_LRU,  /* true least-recently-used */
    SB_REPL_PLRU, /* tree pseudo-LRU (power-of-two associativity) */
    SB_REPL_PAIRS, /* the AMD K8 L2's: LRU over pairs of ways, then a random one of the least
                      recent pair (Hennessy and Patterson 4th ed. 5.6); the random choice a
                      seeded per-set generator, so counts are exact and slices add up; L2 and
                      L3 only, an even number of ways, at most 16 */
};

/* How a level relates to the levels above it (closer to the core); ignored for L1d. */
enum sb_inclusion {
    SB_INCL_NON_INCLUSIVE, /* filled on a miss alongside the level above; evicts silently */
    SB_INCL_INCLUSIVE,     /* holds every line above it: an eviction back-invalidates them */
    SB_INCL_EXCLUSIVE,     /* victim cache: filled only by the level above's evictions; a hit
                              moves the line up and out (AMD K8/K10 L2, Zen L3) */
};

/* What a store that misses every level does before writing its line (write-allocate, and how
 * a machine evades it: Laukemann, Gruber, Hager et al., IPDPS 2024, arXiv 2311.04797):
 * non-temporal stores go through the WC buffers without reading under every rule. */
enum sb_write_allocate {
    SB_WA_NT_STORES,        /* every temporal store miss reads its line first (AMD K8 to Zen
                               4: only streaming stores avoid it) */
    SB_WA_FULL_LINE_LOADED, /* a store of a whole line may claim it without the read when
                               memory is heavily loaded (Intel's SpecI2M, Ice Lake SP and
                               later): the cache model reads it, the time model evades a share
                               of those reads above a load (costs.h) */
    SB_WA_FULL_LINE,        /* a store of a whole line never reads it (Arm Neoverse V2 Grace) */
};

extern const char *const sb_replacement_names[]; /* "lru", "plru", "pairs" */
extern const char *const sb_write_allocate_names[]; /* "nt_stores", "full_line_loaded",
                                                       "full_line" */
extern const char *const sb_inclusion_names[];   /* "non-inclusive", "inclusive", "exclusive" */
extern const char *const sb_cache_level_names[SB_CACHESIM_MAX_LEVELS]; /* "L1d", "L2", "L3" */

struct sb_cachesim_level_config {
    uint64_t size;          /* bytes */
    uint32_t line_size;     /* bytes; the same at every level */
    uint32_t associativity; /* ways */
    enum sb_replacement replacement;
    enum sb_inclusion inclusion;
};

struct sb_cachesim_config {
    unsigned nlevels; /* 1..3: level[0] is L1d */
    struct sb_cachesim_level_config level[SB_CACHESIM_MAX_LEVELS];
    unsigned wc_buffers; /* write-combining buffers for non-temporal stores (1..64) */
    bool prefetch;       /* tagged next-line prefetcher into L1d */
    enum sb_write_allocate write_allocate; /* what a whole-line store miss reads (above) */
};

/* What is wrong with a configuration: the level (-1: the whole hierarchy) and the key. */
struct sb_cachesim_problem {
    int level;
    const char *key; /* "size", "line_size", "associativity", "replacement", "inclusion",
                        "wc_buffers" */
    char what[256];
};

/* SB_OK, or SB_ERR_INPUT with the problem filled in: a line size that is not a power of two
 * from 16 to 128 bytes or differs between levels, zero ways or more than 64, a size that does
 * not make a power-of-two number of sets, pseudo-LRU on a non-power-of-two associativity, an
 * inclusive level no larger than the level above it, a WC buffer count out of range. */
int sb_cachesim_config_check(const struct sb_cachesim_config *cfg,
                             struct sb_cachesim_problem *problem);

struct sb_cachesim_level_counts {
    uint64_t hits;          /* lookups from above (demand and prefetch) that found the line */
    uint64_t misses;        /* lookups from above that did not */
    uint64_t fills;         /* lines placed into this level (from below, from above's
                               evictions into a victim cache, write-back allocations) */
    uint64_t writebacks;    /* dirty lines evicted from this level (to the level below or
                               memory), and dirty copies flushed by a non-temporal store */
    uint64_t invalidations; /* lines removed by an inclusive level's back-invalidation or by a
                               non-temporal store */
};

struct sb_cachesim_counts {
    struct sb_cachesim_level_counts level[SB_CACHESIM_MAX_LEVELS];
    uint64_t line_accesses;      /* lines fed to the model: access() lines + stream-store lines */
    uint64_t prefetches;         /* lines the prefetcher brought into L1d */
    uint64_t nta_prefetches;     /* lines prefetchnta brought into L1d from memory (marked) */
    uint64_t mem_read_bytes;     /* bytes read from memory (line fills, RFOs, prefetches) */
    uint64_t full_line_rfos;     /* stores of a whole line that missed every level and read it
                                    from memory first (in mem_read_bytes): what SB_WA_FULL_LINE
                                    would skip and SB_WA_FULL_LINE_LOADED may */
    uint64_t rfos_evaded;        /* such stores that did not read it (SB_WA_FULL_LINE) */
    uint64_t mem_write_bytes;    /* bytes written to memory (write-backs, WC flushes) */
    uint64_t wc_full_lines;      /* WC buffers written as whole lines (no RFO) */
    uint64_t wc_partial_flushes; /* WC buffers flushed partly filled (eviction or fence) */
    uint64_t wc_partial_bytes;   /* bytes those partial flushes wrote */
};

/* sum += more, count by count (the slices' counts into the whole model's). */
void sb_cachesim_counts_add(struct sb_cachesim_counts *sum, const struct sb_cachesim_counts *more);

/* diff = a - b, count by count (a read after b: what happened in between). */
void sb_cachesim_counts_sub(struct sb_cachesim_counts *diff, const struct sb_cachesim_counts *a,
                            const struct sb_cachesim_counts *b);

/* The machine code the batch entries (sb_cachesim_copy, sb_cachesim_access_lines) run: built
 * for the baseline instruction set and, where the compiler can (x86-64), again for AVX2 and
 * BMI1/2 (shifts by a register without flags, three-operand vector compares: fewer
 * instructions), which a new model uses where the CPU has them. The same steps, the same
 * counts; sb_cachesim_use_code picks one (for tests and comparisons), false if this build or
 * CPU has no such code. */
enum sb_cachesim_code { SB_CACHESIM_CODE_BASELINE, SB_CACHESIM_CODE_AVX2_BMI2, SB_CACHESIM_NCODES };
extern const char *const sb_cachesim_code_names[SB_CACHESIM_NCODES]; /* "baseline", "avx2+bmi2" */

/* The state bytes a model of cfg (a checked configuration) will take, before building it: what
 * the plan counts against the memory the host can give. */
uint64_t sb_cachesim_config_state_bytes(const struct sb_cachesim_config *cfg);

/* A model (model.h builds and drives it). */
struct sb_cachesim;

#endif
