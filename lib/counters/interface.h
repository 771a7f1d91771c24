/* SPDX-License-Identifier: BSD-3-Clause */
/* interface.h: the counter interface. The code speaks of roles (what is measured), never of
 * event names; backends (rows of a const table) map roles to whatever they can read. Counters
 * are started and read only at region boundaries (one timed repetition), never per page.
 * A value that could not be read is absent (reported as null), never 0. */
#ifndef SB_COUNTERS_INTERFACE_H
#define SB_COUNTERS_INTERFACE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/core.h"
#include "vocab/vocab.h"

enum sb_role {
    SB_ROLE_CYCLES,
    SB_ROLE_INSTRUCTIONS,
    SB_ROLE_L2_MISS,
    SB_ROLE_L2_WRITEBACK,
    SB_ROLE_MEM_READ_BYTES,
    SB_ROLE_MEM_WRITE_BYTES,
    /* per-level counts (the cache model fills them; PAPI where an events map names them) */
    SB_ROLE_L1D_HIT,
    SB_ROLE_L1D_MISS,
    SB_ROLE_L1D_WRITEBACK,
    SB_ROLE_L2_HIT,
    SB_ROLE_L3_HIT,
    SB_ROLE_L3_MISS,
    SB_ROLE_L3_WRITEBACK,
    SB_NROLES
};

extern const char *const sb_role_names[SB_NROLES];

/* The phases of a page's way through the pool, for the counts a backend can split by phase
 * (the cache model): the copy into the buffer (and a bigtable's DMA fill), the op's pass, and
 * the write-back of a dirty buffer to the IO cache (key writeback). */
enum sb_phase { SB_PHASE_COPY_IN, SB_PHASE_OP, SB_PHASE_WRITEBACK, SB_NPHASES };
extern const char *const sb_phase_names[SB_NPHASES]; /* "copy_in", "op", "writeback" */

#define SB_COUNTERS_MAX_REPS 1000

struct sb_events_choice; /* events_map.h */
struct sb_machine;       /* machine.h */
struct sb_op;            /* op.h */
struct sb_kernel;        /* kernel.h */
struct sb_cachesim_counts; /* cachesim/model.h */

/* What a backend is told of the run it counts (plan.h's sb_run_counting makes it from a run's
 * parameters): a backend knows no run type. */
struct sb_counting {
    const char *name;                      /* the run's name, for messages */
    bool require;                          /* require_counters: unavailable is an error */
    const struct sb_events_choice *events; /* the plan's events map (key events) */
    const struct sb_machine *machine;      /* counters=sim: the cache model's machine */
    int prefetch;                          /* the model's prefetcher: -1 the machine's, 0, 1 */
    const struct sb_op *op;                /* the op run over each page */
};

struct sb_counters {
    const struct sb_counter_backend *backend;
    const char *status;   /* "not requested", "ok", "estimated", "unavailable" */
    char reason[512];     /* why unavailable, or what "estimated" means here (empty otherwise) */
    unsigned nreps;
    unsigned passes;      /* passes over the table each value counts (a timed scan's, or 1 for
                             a backend that replays the first pass) */
    bool have[SB_NROLES];                 /* role was read (else reported as null) */
    uint64_t (*values)[SB_NROLES];        /* values[rep][role], valid where have[role] */
    void *state;                          /* the backend's own (freed by its close) */
    char events[SB_NROLES][640];          /* what each role resolved to (native event names,
                                             or the model's counter); "" when none */
    char role_reason[SB_NROLES][384];     /* why a role has no values ("no event on this
                                             architecture", PAPI's error...); "" when read */
    double multiplex_ratio;               /* counters / events of a multiplexed set (each
                                             event's nominal share of the time); 0: none */
    char model[1152];                     /* the machine model a simulating backend used: its
                                             name (64), file (1024) and prefetch */
    const struct sb_machine *machine;     /* that model's geometry (machine.h), else NULL */
    bool simulated;                       /* values come from a model, not from hardware */
    bool have_phases;                     /* phase_values were filled (the cache model) */
    uint64_t (*phase_values)[SB_NPHASES][SB_NROLES]; /* values split by phase: [rep][phase][role],
                                             valid where have[role]; sum over the phases =
                                             values[rep][role] */
    struct sb_cachesim_counts *phase_counts; /* the model's whole counts by phase:
                                             [rep * SB_NPHASES + phase] (NULL but with sim) */
    uint32_t line_size;                   /* the model's line size (sim), else 0 */
};

/* What a tracing backend (the cache model) is handed after each timed scan: the exact buffers
 * the policy chose, so it can replay the scan's memory accesses in order, untimed. */
struct sb_scan_trace {
    const uint8_t *pages;          /* the table: npages pages of page_size bytes */
    uint64_t npages;
    uint32_t page_size;
    const struct sb_op *op;        /* the op run over each page after its copy */
    bool temporal;                 /* the copy kernel's stores go through the caches (not nt) */
    bool bigtable;                 /* each page arrived by a device's DMA before its copy */
    const uint8_t *pool;           /* the pool's first buffer */
    const uint32_t *victims;       /* victims[block]: the buffer page `block` was copied into */
    /* The write-back (vocab/writeback.h): how dirty buffers went back to the IO cache, every
     * how many pages a checkpoint wrote them, and the kernel that copied them (NULL with
     * writeback none). The replay tracks each buffer's page and whether it is dirty (the op's
     * walk says: vacuum always, count where it set hint bits), starting from the buffers' last
     * pages in victims (what a scan leaves for the next). */
    enum sb_writeback_mode writeback;
    uint32_t checkpoint_pages;
    const struct sb_kernel *writeback_kernel;
    uint32_t nbuffers;             /* the pool's buffers */
    enum sb_kernel_side side;      /* a copy, or its read or write side */
};

struct sb_counter_backend {
    const char *name;
    const char *description;
    /* Prepares the backend for a run; sets status and reason. An error is returned only for
     * what makes the run impossible (bad input, out of memory), never for missing counters. */
    int (*open)(struct sb_counters *c, const struct sb_counting *run, struct sb_error *err);
    void (*start)(struct sb_counters *c, unsigned rep);
    void (*stop)(struct sb_counters *c, unsigned rep);
    /* NULL, or called with a timed scan's trace (the scan loop records one buffer number per
     * page of its first pass, outside the timed region's critical path), after the last timed
     * scan, for the first scans in order. */
    void (*replay)(struct sb_counters *c, unsigned rep, const struct sb_scan_trace *trace);
    /* NULL, or called after the last replay: what only the replays needed can go. */
    void (*finish)(struct sb_counters *c);
    void (*close)(struct sb_counters *c);
};

extern const struct sb_counter_backend sb_counter_backends[]; /* NULL-name terminated */

const struct sb_counter_backend *sb_counter_backend_find(const char *name);

int sb_counters_open(struct sb_counters *c, const struct sb_counter_backend *backend,
                     const struct sb_counting *run, unsigned nreps, struct sb_error *err);
void sb_counters_close(struct sb_counters *c);

#endif
