/* SPDX-License-Identifier: BSD-3-Clause */
/* costs.h: what a machine's events cost in time: the `[costs]` section of a machine file
 * (machine.h). Every value comes with its source (`key_source = text`): a value without one is
 * refused (SB_ERR_INPUT "file:line: key: no key_source"). The time model (timemodel.h) turns a
 * phase's events into seconds with these figures.
 *
 *     [costs]
 *     clock_ghz = 2.6
 *     clock_ghz_source = AMD Opteron 285 data sheet: 2.6GHz
 *     l1d_hit_cycles = 3           ; load-to-use, cycles (l3_hit_cycles only with an [L3])
 *     l2_hit_cycles = 12
 *     mem_latency_ns = 60          ; an isolated fill from memory
 *     mem_read_gbps = 5.0          ; a stream of fills (GB/s = 1e9 bytes a second)
 *     mem_write_gbps = 3.0         ; write-backs of dirty lines to memory
 *     nt_write_gbps = 4.0          ; WC (non-temporal) streaming stores
 *     prefetch_hidden = 0.5        ; the fraction of a sequential fill's latency hidden
 *     mlp = 6                      ; fills in flight one stream keeps
 *     memory_controllers = 2       ; optional (1): memories each with the bandwidths above
 *     l2_read_gbps = 60            ; optional: a stream of hits in L2 (l3_read_gbps: in L3)
 * each followed (or preceded) by its KEY_source. memory_controllers matters only to a thread
 * that ran several scanners at once (experiment.h: [thread] scanners): runner/predict.h. */
#ifndef SB_COSTS_H
#define SB_COSTS_H

#include <stdbool.h>

#include "cachesim/model_types.h"

/* The keys of [costs], in this order (sb_cost_key_names). */
enum sb_cost_key {
    SB_COST_CLOCK_GHZ,
    SB_COST_L1D_HIT_CYCLES,
    SB_COST_L2_HIT_CYCLES,
    SB_COST_L3_HIT_CYCLES,
    SB_COST_MEM_LATENCY_NS,
    SB_COST_MEM_READ_GBPS,
    SB_COST_MEM_WRITE_GBPS,
    SB_COST_NT_WRITE_GBPS,
    SB_COST_PREFETCH_HIDDEN,
    SB_COST_MLP,
    SB_COST_MEMORY_CONTROLLERS,
    SB_COST_L2_READ_GBPS,
    SB_COST_L3_READ_GBPS,
    SB_COST_KEYS
};

extern const char *const sb_cost_key_names[SB_COST_KEYS]; /* "clock_ghz", ... */

#define SB_COST_SOURCE_MAX 1024

struct sb_machine_costs {
    bool present;            /* the file had a [costs] section (all of its keys, sourced) */
    double clock_ghz;        /* core clock */
    double hit_cycles[3];    /* L1d, L2, L3 load-to-use, cycles (L3: 0 without an L3) */
    double mem_latency_ns;   /* an isolated fill from memory */
    double mem_read_gbps;    /* a stream of fills */
    double mem_write_gbps;   /* write-backs to memory */
    double nt_write_gbps;    /* WC streaming stores */
    double prefetch_hidden;  /* fraction 0..1 of sequential fills' latency hidden */
    unsigned mlp;            /* misses in flight a stream keeps (at least 1) */
    unsigned memory_controllers; /* memories with bandwidths of their own (sockets with their
                                    controller); optional, 1 when not given */
    double hit_read_gbps[3]; /* a sequential stream of hits in L2 ([1]) or L3 ([2]); optional,
                                0 when not given: every hit at its full latency */
    char source[SB_COST_KEYS][SB_COST_SOURCE_MAX]; /* each value's KEY_source */
    /* the machine's write-allocate rule ([machine] write_allocate, machine.h), for the time
     * model: under SB_WA_FULL_LINE_LOADED, when at least rfo_evasion_scanners scanners share a
     * memory, rfo_evasion_share of the whole-line stores' reads are not made */
    enum sb_write_allocate write_allocate;
    unsigned rfo_evasion_scanners;
    double rfo_evasion_share;
};

/* A machine written as a file, [costs] included: sb_machine_costs_write (machine.h). */

#endif
