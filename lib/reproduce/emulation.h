/* SPDX-License-Identifier: BSD-3-Clause */
/* emulation.h: the reproduction's emulation of the thread's machine (issue 19): the thread's
 * slow and fast placements run again with counters = sim on the thread's machine (its cache
 * model; its [costs] give the predicted MB/s, runner/predict.h), first with every mechanism,
 * then with each switched off in turn; the report's "emulation" block (report/emulation.h)
 * from their predictions. */
#ifndef SB_REPRODUCE_EMULATION_H
#define SB_REPRODUCE_EMULATION_H

#include <jansson.h>
#include <stdbool.h>

#include "cachesim/cachesim.h"
#include "core/core.h"
#include "runner/runner_setup.h"

/* The one core factor per machine a reproduction found (runner/predict.h): an experiment
 * whose plan has no calibration of its own borrows the factor another experiment's calibration
 * gave its machine (emulated first for that reason). */
#define SB_MAX_FACTORS 16
struct sb_machine_factors {
    int n;
    char machine[SB_MAX_FACTORS][64];
    char experiment[SB_MAX_FACTORS][64];
    double factor[SB_MAX_FACTORS];
};

/* One configuration of the emulation: the mechanism it switches off ("all": none), the --set
 * that does it, and the configuration it replays the same as (NULL: its own), with a note
 * saying why. */
#define SB_EMULATION_VARIANTS_MAX 8
struct sb_emulation_variant {
    const char *mechanism;
    char set[64];
    const char *same_as;
    char note[256];
};

/* The configurations of experiment s on machine m, in order (every mechanism first, then
 * l2_deferral, writeback_copy, hint_bits, footprint, prefetch off in turn), each that would
 * replay the same as the first marked so; their number. */
int sb_emulation_variants(const struct sb_setup *s, const struct sb_machine *m,
                          struct sb_emulation_variant v[SB_EMULATION_VARIANTS_MAX]);

/* The configurations sb_reproduce_emulate will run for s (those that replay the same as another
 * not counted; 0 when it cannot emulate) and, into bytes, about the bytes of their tables
 * together, for the estimate (estimate.h). */
unsigned sb_reproduce_emulation_work(bool quick, const struct sb_setup *s, double *bytes);

/* Emulates the thread machine of s (each configuration a copy of its experiment, as the
 * reproduction read it, edited as a value) and sets report's "emulation" block: predictions, or "not predicted" with the reason. quick: the
 * emulation's table is --quick's. Errors only for what stops the reproduction (bad input, a
 * stop); a machine without costs or a run without a prediction is said in the block. factors:
 * read (a factor for a plan without its calibration) and added to (its calibration's). */
int sb_reproduce_emulate(bool quick, const struct sb_setup *s,
                         struct sb_machine_factors *factors, json_t *report,
                         struct sb_error *err);

#endif
