/* SPDX-License-Identifier: BSD-3-Clause */
/* predict.h: a run's predicted seconds per timed scan on the machine it emulates (counters=sim
 * with a machine that has [costs]): each phase's events (copy_in, op, writeback: the cache
 * model's counts, kept per phase by the sim backend) costed by the time model
 * (cachesim/timemodel.h) into what the core waits for (hits, demand fills) and what the memory
 * is busy with (fills, write-backs, WC flushes), the op's CPU work besides: its time per page
 * on this host with the page in L1 (sb_op_host_ns_per_page) times ONE factor per machine (its
 * clock and slower core), fitted to ONE figure of the thread (an experiment's
 * `calibrate = OP POLICY SIZE`, sb_predict_calibrate). The scan takes max(stalls + CPU work,
 * bus): write-backs drain behind the core's work until the memory is the bound. Every other
 * figure is then a prediction.
 *
 * A thread whose figures ran N scans at once ([thread] scanners: GPDB's segments, each its own
 * server with its own shared_buffers on a core of its own) is predicted for N: each scans 1/N
 * of the table on a core of its own (its stalls and CPU work at one core's costs), and the
 * k = ceil(N / memory_controllers) that share one memory share its bus: each takes k times its
 * own bus time. The whole table then takes one scanner's time over its share. */
#ifndef SB_RUNNER_PREDICT_H
#define SB_RUNNER_PREDICT_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "cachesim/cachesim.h"
#include "counters/counters.h"
#include "engine/engine.h"
#include "plan/plan.h"
#include "vocab/vocab.h"

struct sb_prediction {
    bool have_memory;          /* the phases were costed (seconds[] valid) */
    bool have;                 /* mbps predicted (memory and a core factor) */
    char reason[384];          /* why not (have false), else "" */
    char machine[64];          /* the emulated machine */
    double seconds[SB_NPHASES]; /* per timed scan: copy_in, op (its memory part), writeback:
                                   the hits and demand fills the core waits for */
    double cpu_seconds;        /* per timed scan: the op's CPU work on the machine */
    double host_cpu_seconds;   /* per timed scan: the op's CPU work on this host (L1-resident) */
    double memory_seconds;     /* the phases' sum (the stalls) */
    double bus_seconds;        /* per timed scan: the memory's busy time, the sharing scanners'
                                  together (timemodel.h rule 3) */
    bool memory_bound;         /* bus_seconds is the larger */
    double seconds_per_scan;   /* max(memory_seconds + cpu_seconds, bus_seconds) */
    double mbps;               /* bytes_per_scan / seconds_per_scan / 1e6 */
    double op_host_ns_per_page; /* the op's time per L1-resident page on this host */
    double core_factor;        /* the machine's time per host time for the op (0: none) */
    unsigned scanners;         /* scans at once (1: one) */
    unsigned sharing;          /* of them on one memory (its bandwidths divided by this) */
    bool calibrated;           /* calibration below is set */
    struct {
        char figure[64];       /* "count clock 16MB" */
        char experiment[64];   /* the experiment file's name that names it */
        double factor;
        /* what the clocks and cores alone suggest (sb_predict_clock_band): this host's clock
           (its add chain), the machine's (clock_ghz), their ratio and the band of factors
           an IPC ratio from 1 to SB_PREDICT_IPC_RATIO_MAX gives; 0 where unknown */
        double host_clock_ghz, machine_clock_ghz, clock_low, clock_high;
    } calibration;
};

/* The band of core factors the clocks and cores alone give: host clock / machine clock times
 * the host core's instructions per clock over the machine's, from 1 (no better per clock) to
 * SB_PREDICT_IPC_RATIO_MAX. Assumed: no published measurement compares these cores' IPC on
 * one workload (the machines are 2005-2007 K8, P6 and NetBurst parts; SPEC CPU2006 and 2017
 * share no benchmark run on both); 4 is the bound taken, a factor beyond it absorbs work the
 * model lacks (doc/cache-model.md, Calibration). */
#define SB_PREDICT_IPC_RATIO_MAX 4.0

/* "within", "above" (absorbs work the model lacks) or "below" (the model charges work the
 * machine did not do) the clock band of a calibration; "unknown" without clocks. */
const char *sb_predict_clock_verdict(double factor, double low, double high);

/* The op's time per page on this host with the page already in L1d: the best of several
 * rounds of many passes over an L1-resident copy of one page of the table's layout (a fresh
 * copy before each pass, whose own time is taken off), in ns. 0 for op none. */
double sb_op_host_ns_per_page(const struct sb_op *op, const struct sb_heap_layout *layout);

/* The prediction for one run: res its result (res->op_host_ns_per_page, bytes_per_scan,
 * pages_per_scan), c its counters (counters=sim with per-phase counts), m the emulated machine
 * (its costs), core_factor the machine's factor (<= 0: memory parts only, have false with the
 * reason), scanners the scans at once (0 or 1: one). Every time in out is the whole table's
 * (with N scanners, each scanner's share). Returns SB_OK; out->reason says what could not be
 * predicted. */
int sb_predict_run(const struct sb_run_result *res, const struct sb_counters *c,
                   const struct sb_machine *m, double core_factor, unsigned scanners,
                   struct sb_prediction *out);

/* The core factor that makes p's seconds per scan equal thread_seconds (the calibration
 * figure's time per timed scan at this run's bytes): (thread_seconds - memory) / host CPU.
 * false with the reason when the memory part or the bus alone is no faster than the figure (no
 * factor can make it so) or p has no memory part or no CPU work. */
bool sb_predict_calibrate(const struct sb_prediction *p, double thread_seconds, double *factor,
                          char *reason, size_t reason_len);

/* The record's "predicted" block (doc/report-schema.md): label "predicted", machine, mbps (null
 * with the reason when not predicted), seconds_per_scan by phase and cpu, memory_seconds,
 * bus_seconds, bound ("memory" or "core"),
 * op_host_ns_per_page, core_factor, scanners and sharing, calibration (figure, factor,
 * experiment, this_run, clocks) or null. */
json_t *sb_prediction_json(const struct sb_prediction *p, bool is_calibration_run);

/* A whole plan's predictions, after its runs: each run that emulates a machine with [costs]
 * (counters=sim) has its op measured here (once per op and layout, into
 * results[i]->op_host_ns_per_page), the plan's calibration (plan->calibration: its run among
 * these) gives the machine's core factor, and records[i] gains its "predicted" block. Runs of
 * another machine than the calibration's, or of a plan without one, are predicted without the
 * CPU work (mbps null, the reason said). results[i] and records[i] may be NULL (not recorded). */
void sb_predict_plan(const struct sb_plan *plan, struct sb_run_result *const *results,
                     json_t *const *records);

#endif
