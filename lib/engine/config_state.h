/* SPDX-License-Identifier: BSD-3-Clause */
/* config_state.h: the state of one configuration (struct sb_config): its scanners' slots,
 * pools and team, the page hand-out of a shared table, the validation's page reads and the
 * traces of a replaying backend; shared by engine.c (prepared, released) and phases.c (run).
 * Internal to engine. */
#ifndef SB_ENGINE_CONFIG_STATE_H
#define SB_ENGINE_CONFIG_STATE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "engine/scanner.h"
#include "engine/shared_pool.h"
#include "engine/team.h"

/* A tracing backend (the cache model) replays the first pass of this many timed scans, after
 * the last one: its counts repeat from scan to scan once the model is warm, and each replay
 * costs as much as several scans. */
#define TRACED_SCANS 3

enum phase_kind { PHASE_VALIDATE, PHASE_SCAN, PHASE_SETTLE };

struct phase {
    enum phase_kind kind;
    uint32_t passes;
    bool timed;        /* note the CPUs the scanners ran on */
    uint32_t *trace;   /* NULL, or where to record the buffer of every block of the first pass */
    const struct sb_op *op; /* the statement run (NULL: the run's op) */
    uint32_t *record;  /* NULL, or where scanner 0 records the buffer of every block of the last
                          pass (statements) */
    uint64_t first, end; /* one scanner's pages of each pass: [first, end) (end 0: the table's,
                            or the settling pass's from page 0) */
};

/* One scanner's pool, policy, loop state and what it did in the last phase. */
struct slot {
    struct sb_pool pool;
    struct sb_policy_state ps;
    bool ps_ready;
    struct sb_scanner scanner;
    struct sb_scanner_record *rec;
    struct sb_validation v;
    uint64_t rows, pages, visits, acquisitions, drops;
    uint64_t extra;                             /* extra_copy's fetches in the last phase */
    uint64_t written_evict, written_checkpoint; /* pages written back in the last phase */
    double t_start, t_end;
    int status;
    struct sb_error err;
};

struct sb_config {
    const struct sb_run_params *p;
    struct sb_iocache *tables;
    uint32_t ntables, nworkers;
    bool use_shared;
    struct sb_shared_pool shared;
    struct slot *slots;
    struct sb_team *team;
    _Atomic uint64_t next_page; /* shared table: the next page handed out (over all passes) */
    uint64_t handout_limit;     /* shared table: pages handed out in this phase */
    uint64_t settle_pages;      /* a scanner's settling pass */
    uint64_t slice_pages;       /* a timed scan's slice of the table (0: whole passes) */
    uint64_t slice_at;          /* where the next slice starts (after its settling pages) */
    uint64_t want_pages, want_rows; /* a pass of the last phase run: each scanner's pages (its
                                       rows on a table of its own), or all scanners' on one */
    _Atomic uint32_t *seen;     /* validation: reads of each page of each table */
    uint32_t *victims[TRACED_SCANS]; /* tracing backend: the buffer of every block of the first
                                        pass of the first timed scans (one scanner) */
    uint32_t *statement_seq[SB_MAX_STATEMENTS]; /* statements: scanner 0's buffer of every
                                                   block in each statement's last pass of the
                                                   last timed scan (NULL: not recorded) */
    struct sb_run_result res;
    uint32_t scans_warm;        /* warm-up scans done */
    uint32_t scans_total;       /* every scan the row check has numbered */
};

/* A scanner's part of a phase, run on the team's worker `worker` (ctx: the struct sb_config;
 * arg: the struct phase): the team's work function (phases.c). */
void sb_config_work(void *ctx, uint32_t worker, const void *arg);

#endif
