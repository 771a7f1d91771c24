/* SPDX-License-Identifier: BSD-3-Clause */
/* estimate.h: what a reproduction will take, said before it starts (issue 48): each
 * experiment's least rounds (repetitions = auto never makes fewer than SB_AUTO_ROUNDS_MIN) times
 * the scans of a round, the emulations of the thread machines, and the time outside the rounds
 * (tables, validation, the cache model's replays), first at prior rates, then at the rates
 * measured as the reproduction goes. Pure arithmetic on what a plan asks: tested on made-up
 * plans and rates. */
#ifndef SB_REPRODUCE_ESTIMATE_H
#define SB_REPRODUCE_ESTIMATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "plan/plan.h"

/* What one experiment asks of the host (sb_reproduce_work_of; configurations and
 * emulation_bytes set by the emulation's count). */
struct sb_reproduce_work {
    uint32_t rounds;          /* its least rounds: repetitions, or auto's SB_AUTO_ROUNDS_MIN */
    size_t scans;             /* timed scans a round makes: every run's and the reference's */
    size_t runs;
    double scan_floor;        /* seconds a round's timed scans last at least (min_scan_ms,
                                 slice_ms) */
    double pass_bytes;        /* bytes a round's timed scans cover at least (a pass each) */
    double settle_bytes;      /* bytes of a round's settling passes (untimed, before each scan:
                                 the pool's footprint, the table at most) */
    double table_bytes;       /* bytes of its runs' tables, together: built, validated and
                                 replayed outside the rounds */
    unsigned configurations;  /* emulation configurations it runs (0: none) */
    double emulation_bytes;   /* bytes of their tables, together */
};

/* The host's rates: priors until measured (sb_reproduce_rates_init), then what the
 * reproduction measured so far (sb_reproduce_rates_learn). */
struct sb_reproduce_rates {
    double scan_bytes_per_s;     /* the rounds' passes */
    double rounds_factor;        /* rounds measured over rounds estimated (1 before any) */
    double outside_s_per_byte;   /* outside the rounds, per byte of a run's table */
    double emulation_s_per_byte; /* an emulation configuration, per byte of its table */
    /* what was measured so far, the rates made from it */
    double rounds_measured, rounds_estimated, outside_measured, outside_bytes;
};

/* The priors: measured on a quiet 2-vCPU AMD EPYC guest (Zen 4, nothing else running;
 * reproduce all --quick: 33 s of rounds for 1010 timed scans, 12.4 s outside the rounds for 92
 * runs of 64MB tables, 0.135 s a run, about 10.5 s for 19 emulation configurations), a guess no
 * host is held to: the rates measured replace them as the reproduction goes. */
#define SB_REPRODUCE_PRIOR_SCAN_RATE 2.5e9
#define SB_REPRODUCE_PRIOR_OUTSIDE (0.135 / (64.0 * 1024 * 1024))
#define SB_REPRODUCE_PRIOR_EMULATION (0.18 / (32.0 * 1024 * 1024))

void sb_reproduce_rates_init(struct sb_reproduce_rates *r);

/* An experiment's work from its plan (its emulation's left at none). */
void sb_reproduce_work_of(const struct sb_plan *plan, struct sb_reproduce_work *w);

/* The seconds of w's least rounds at rates r. */
double sb_reproduce_least_rounds(const struct sb_reproduce_work *w,
                                 const struct sb_reproduce_rates *r);

/* What one schedule of w took (its rounds_done rounds in rounds_seconds, outside them
 * outside_seconds) into r's measured rates. */
void sb_reproduce_rates_learn(struct sb_reproduce_rates *r, const struct sb_reproduce_work *w,
                              double rounds_seconds, uint32_t rounds_done,
                              double outside_seconds);

/* The estimate of n experiments' work (each schedule twice with twice; the emulations once). */
struct sb_reproduce_estimate {
    double rounds, outside, emulations, total; /* seconds */
    uint32_t rounds_min;                        /* the least rounds of any experiment */
    size_t scans, runs;                         /* over all the rounds, and the runs */
    int experiments;
    unsigned configurations;
};

void sb_reproduce_estimate(const struct sb_reproduce_work *w, int n, bool twice,
                           const struct sb_reproduce_rates *r, struct sb_reproduce_estimate *e);

/* The line said before the first experiment: what it needs, of what, and whether that is
 * within budget seconds (budget_from: "--quick's", "time_budget's") or exceeds it, and why. */
void sb_reproduce_estimate_text(const struct sb_reproduce_estimate *e, bool twice,
                                double budget, const char *budget_from, char *buf, size_t len);

#endif
