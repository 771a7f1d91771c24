/* SPDX-License-Identifier: BSD-3-Clause */
/* emulation.h: the emulated thread machine in a reproduction (issue 19): from the predicted
 * MB/s of the thread's runs on the thread's machine (its cache model and costs, at the thread's
 * sizes), with every mechanism and with each switched off in turn, the report's "emulation"
 * block: each run's prediction (labelled predicted), its error against each thread figure but
 * the calibration one, the emulated machine's verdict on each slow/fast pair, and the
 * attribution: how much of the predicted ratio each mechanism accounts for (its share of
 * ln(ratio)). JSON in, JSON out, no I/O: tested on made-up predictions. */
#ifndef SB_EMULATION_H
#define SB_EMULATION_H

#include <jansson.h>

/* The mechanisms switched off in turn (the keys of a prediction's "variant"; "all": none off). */
#define SB_EMULATION_NMECHANISMS 6
extern const char *const sb_emulation_mechanisms[SB_EMULATION_NMECHANISMS];
/* what switching each off means, in words */
extern const char *const sb_emulation_switches[SB_EMULATION_NMECHANISMS];

/* Share of ln(ratio_all) that switching a mechanism off removes:
 * (ln ratio_all - ln ratio_off) / ln ratio_all; NaN when ratio_all is within 1% of 1 (no
 * gap to attribute) or either ratio is not positive. */
double sb_attribution_share(double ratio_all, double ratio_off);

/* The emulated machine's call on a predicted ratio fast/slow: "faster" above 1 + delta,
 * "slower" below 1 - delta, else "the same" ("same"). A prediction has no interval. */
const char *sb_emulation_call(double ratio, double delta);

/* The "emulation" block. thread: the report's thread block; predictions: an array of
 * {"op", "placement", "variant" (a mechanism, or "all"), "mbps", "predicted": {...}?,
 * "note"?}; calibration: "count clock 16MB" (the one figure the machine was calibrated on) or
 * NULL; why: when there are no predictions, why (the block then says "not predicted"). Also
 * {"mechanism": name, "absent": why} entries in predictions say a mechanism the machine does
 * not have (no row; said). */
json_t *sb_emulation_build(const json_t *thread, const char *machine, const json_t *predictions,
                           const char *calibration, const char *why);

#endif
