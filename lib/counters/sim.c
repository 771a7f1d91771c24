/* SPDX-License-Identifier: BSD-3-Clause */
/* sim.c: the `sim` counter backend: the scan's memory accesses replayed through the
 * cache model after each timed scan (see sim.h; the replay itself: sim_replay.c). */
#include "config.h"
#include "counters/sim.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cachesim/cachesim.h"
#include "core/core.h"
#include "counters/sim_replay.h"
#include "counters/sim_reuse.h"
#include "vocab/vocab.h"

#define MAX_SLICES (1u << SB_CACHESIM_MAX_SLICE_SHIFT)

struct sim_state {
    struct sb_machine model; /* the run's machine, with the prefetcher as the run asked */
    unsigned slices;
    struct sb_sim_model *sim; /* from the first replay to finish */
    /* the traced scans, replayed at finish unless a run with the same inputs was (sim_reuse.h);
     * their tables and buffer numbers live until then (interface.h) */
    struct sb_scan_trace pending[SB_SIM_REUSE_SCANS];
    unsigned npending;
};

/* The roles the model fills, and what each counts in it. */
static const struct {
    enum sb_role role;
    unsigned min_levels; /* the model must have this many levels */
    const char *what;
} model_roles[] = {
    {SB_ROLE_L1D_HIT, 1, "model: line accesses (copy loads and stores, op reads and writes) that "
                         "found their line in L1d"},
    {SB_ROLE_L1D_MISS, 1, "model: line accesses that missed L1d (a store miss reads the line "
                          "first: write-allocate)"},
    {SB_ROLE_L1D_WRITEBACK, 1, "model: dirty lines leaving L1d (evicted, or flushed by a "
                               "streaming store)"},
    {SB_ROLE_L2_HIT, 2, "model: L1d misses and prefetches found in L2"},
    {SB_ROLE_L2_MISS, 2, "model: L1d misses and prefetches not found in L2 (loads and "
                         "read-for-ownership; write-backs from L1d are not lookups)"},
    {SB_ROLE_L2_WRITEBACK, 2, "model: dirty lines leaving L2 (evicted to L3 or memory, or "
                              "flushed by a streaming store)"},
    {SB_ROLE_L3_HIT, 3, "model: L2 misses and prefetches found in L3"},
    {SB_ROLE_L3_MISS, 3, "model: L2 misses and prefetches not found in L3"},
    {SB_ROLE_L3_WRITEBACK, 3, "model: dirty lines leaving L3 (to memory)"},
    {SB_ROLE_MEM_READ_BYTES, 1, "model: bytes read from memory (line fills below the last "
                                "level: loads, read-for-ownership, prefetches)"},
    {SB_ROLE_MEM_WRITE_BYTES, 1, "model: bytes written to memory (dirty lines evicted from the "
                                 "last level, streaming-store lines, partial WC flushes' bytes)"},
};

int sb_sim_open(struct sb_counters *c, const struct sb_counting *run, struct sb_error *err)
{
    struct sim_state *s = NULL;
    unsigned slices;
    int status = SB_OK;

    c->simulated = true;
    if (!run->machine) {
        status = sb_fail(err, SB_ERR_INPUT, "%s: counters=sim: no machine model (machine=)",
                         run->name);
        goto out;
    }
    if (run->op->pass && run->op->kind == SB_OP_KIND_NONE) {
        c->status = "unavailable";
        snprintf(c->reason, sizeof c->reason, "the model does not know the accesses of op %s",
                 run->op->name);
        goto out;
    }
    status = sb_sim_slices_wanted(&slices, err);
    if (status != SB_OK)
        goto out;
    s = calloc(1, sizeof *s);
    if (!s) {
        status = sb_fail(err, SB_ERR_RUN, "out of memory for the cache model");
        goto out;
    }
    /* the counts split by phase (copy_in, op, writeback), beside values, as roles and whole
     * (the time model's input) (interface.c frees them) */
    c->phase_values = calloc(c->nreps ? c->nreps : 1, sizeof *c->phase_values);
    c->phase_counts = calloc((c->nreps ? c->nreps : 1) * SB_NPHASES, sizeof *c->phase_counts);
    if (!c->phase_values || !c->phase_counts) {
        status = sb_fail(err, SB_ERR_RUN, "out of memory for the cache model's phase counts");
        goto out;
    }
    s->model = *run->machine;
    s->slices = slices;
    if (run->prefetch >= 0)
        s->model.config.prefetch = run->prefetch != 0;
    c->state = s;
    c->machine = &s->model;
    c->line_size = s->model.config.level[0].line_size;
    c->status = "ok";
    snprintf(c->model, sizeof c->model, "%s (%s), prefetch %s", s->model.name, s->model.file,
             s->model.config.prefetch ? "on" : "off");
    for (size_t i = 0; i < sizeof model_roles / sizeof *model_roles; i++) {
        if (s->model.config.nlevels < model_roles[i].min_levels) {
            snprintf(c->role_reason[model_roles[i].role], sizeof c->role_reason[0],
                     "the model %s has no L%u", s->model.name, model_roles[i].min_levels);
            continue;
        }
        c->have[model_roles[i].role] = true;
        snprintf(c->events[model_roles[i].role], sizeof c->events[0], "%s", model_roles[i].what);
    }
    snprintf(c->role_reason[SB_ROLE_CYCLES], sizeof c->role_reason[0], "not modelled (the model "
             "counts cache events, not time)");
    snprintf(c->role_reason[SB_ROLE_INSTRUCTIONS], sizeof c->role_reason[0], "not modelled");
    s = NULL;
out:
    if (s) {
        sb_sim_model_destroy(s->sim);
        free(s);
    }
    return status;
}

void sb_sim_start(struct sb_counters *c, unsigned rep)
{
    (void)c;
    (void)rep;
}

void sb_sim_stop(struct sb_counters *c, unsigned rep)
{
    (void)c;
    (void)rep;
}

/* The model could not be made (out of memory): no counts, and why. */
static void unavailable(struct sb_counters *c, const char *why)
{
    c->status = "unavailable";
    snprintf(c->reason, sizeof c->reason, "the cache model could not be made for the replay: %s",
             why);
    memset(c->have, 0, sizeof c->have);
    c->have_phases = false;
}

/* The roles the model fills, from its counts n, into v (values[rep] or a phase's). */
static void roles_of(const struct sb_cachesim_counts *n, uint64_t *v)
{
    v[SB_ROLE_L1D_HIT] = n->level[0].hits;
    v[SB_ROLE_L1D_MISS] = n->level[0].misses;
    v[SB_ROLE_L1D_WRITEBACK] = n->level[0].writebacks;
    v[SB_ROLE_L2_HIT] = n->level[1].hits;
    v[SB_ROLE_L2_MISS] = n->level[1].misses;
    v[SB_ROLE_L2_WRITEBACK] = n->level[1].writebacks;
    v[SB_ROLE_L3_HIT] = n->level[2].hits;
    v[SB_ROLE_L3_MISS] = n->level[2].misses;
    v[SB_ROLE_L3_WRITEBACK] = n->level[2].writebacks;
    v[SB_ROLE_MEM_READ_BYTES] = n->mem_read_bytes;
    v[SB_ROLE_MEM_WRITE_BYTES] = n->mem_write_bytes;
}

/* The counts of scan rep into the report: whole (values) and by phase. */
static void take_counts(struct sb_counters *c, unsigned rep, const struct sb_cachesim_counts *n,
                        const struct sb_cachesim_counts *phases)
{
    roles_of(n, c->values[rep]);
    for (unsigned p = 0; p < SB_NPHASES; p++) {
        roles_of(&phases[p], c->phase_values[rep][p]);
        c->phase_counts[rep * SB_NPHASES + p] = phases[p];
    }
    c->have_phases = true;
}

/* Replays one traced scan through the run's model (made at the first), its counts into n and
 * phases[SB_NPHASES]; false with the counts unavailable, and why, if it cannot. */
static bool replay_scan(struct sb_counters *c, const struct sb_scan_trace *trace,
                        struct sb_cachesim_counts *n, struct sb_cachesim_counts *phases)
{
    struct sim_state *s = c->state;
    struct sb_error err = {0};
    uint64_t live;

    if (!s->sim && sb_sim_model_create(&s->model.config, s->slices, &s->sim, &err) != SB_OK) {
        unavailable(c, err.msg);
        return false;
    }
    if (sb_sim_model_replay_phases(s->sim, trace, n, phases, &live, &err) != SB_OK) {
        unavailable(c, err.msg);
        return false;
    }
    return true;
}

/* The pending scans' counts: those of an earlier run with the same inputs, else replayed (and
 * kept for a later run). */
static void replay_pending(struct sb_counters *c)
{
    struct sim_state *s = c->state;
    struct sb_cachesim_counts n[SB_SIM_REUSE_SCANS], phases[SB_SIM_REUSE_SCANS * SB_NPHASES];
    struct sb_sim_key key;
    unsigned rep;

    if (!s->npending)
        return;
    sb_sim_key_start(&key, &s->model.config);
    for (rep = 0; rep < s->npending; rep++)
        sb_sim_key_add(&key, &s->pending[rep]);
    if (!sb_sim_reuse_find(&key, s->npending, n, phases)) {
        for (rep = 0; rep < s->npending; rep++)
            if (!replay_scan(c, &s->pending[rep], &n[rep], &phases[rep * SB_NPHASES]))
                break;
        if (rep < s->npending) {
            s->npending = 0;
            return;
        }
        sb_sim_reuse_keep(&key, s->npending, n, phases);
    }
    for (rep = 0; rep < s->npending; rep++)
        take_counts(c, rep, &n[rep], &phases[rep * SB_NPHASES]);
    s->npending = 0;
}

/* Scans are traced in order from rep 0 and replayed at finish; one beyond what can be pending
 * (never, with the engine's TRACED_SCANS) is replayed now, after those pending. */
void sb_sim_replay(struct sb_counters *c, unsigned rep, const struct sb_scan_trace *trace)
{
    struct sim_state *s = c->state;
    struct sb_cachesim_counts n, phases[SB_NPHASES];

    if (!s || rep >= c->nreps || strcmp(c->status, "ok") != 0)
        return;
    if (rep == s->npending && rep < SB_SIM_REUSE_SCANS) {
        s->pending[s->npending++] = *trace;
        return;
    }
    replay_pending(c);
    if (strcmp(c->status, "ok") == 0 && replay_scan(c, trace, &n, phases))
        take_counts(c, rep, &n, phases);
}

void sb_sim_finish(struct sb_counters *c)
{
    struct sim_state *s = c->state;

    if (s) {
        replay_pending(c);
        sb_sim_model_destroy(s->sim);
        s->sim = NULL;
    }
}

void sb_sim_close(struct sb_counters *c)
{
    struct sim_state *s = c->state;

    if (s) {
        sb_sim_model_destroy(s->sim);
        free(s);
    }
    c->state = NULL;
    c->machine = NULL;
}

/* --- the slices the backend uses ------------------------------------------------------------ */

unsigned sb_sim_default_slices(void)
{
    cpu_set_t cpus;
    unsigned n = 1;
    int count;

    if (sched_getaffinity(0, sizeof cpus, &cpus) != 0)
        return 1;
    count = CPU_COUNT(&cpus);
    while (n * 2 <= (unsigned)count && n * 2 <= MAX_SLICES)
        n *= 2;
    return n;
}

int sb_sim_slices_wanted(unsigned *slices, struct sb_error *err)
{
    const char *v = getenv("SCANBENCH_SIM_THREADS");
    uint64_t n;

    *slices = sb_sim_default_slices();
    if (!v)
        return SB_OK;
    if (!sb_parse_uint(v, &n) || n < 1 || n > 64)
        return sb_fail(err, SB_ERR_INPUT, "SCANBENCH_SIM_THREADS=%s: not a number of threads "
                       "from 1 to 64", v);
    *slices = (unsigned)n;
    return SB_OK;
}
