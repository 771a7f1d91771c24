/* SPDX-License-Identifier: BSD-3-Clause */
/* analysis_aa.h: the report's A-A pair (the reference run against its second timing each
 * round: on a live server, the same settings on two clusters) called as a comparison is, at
 * the 2% threshold (not the noise floor, which this very pair sets), with a 95% two-stage
 * interval; and the same pair's real differences shifted by known factors (each round's
 * second MB/s times 1 + shift), called again: how often a difference of that size is found,
 * from this host's own noise. A trial of `scanbench pg` is then one A-A trial and one trial of
 * each shift (doc/postgresql.md, Where a live scan's time goes). */
#ifndef SB_ANALYSIS_AA_H
#define SB_ANALYSIS_AA_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* {ratio, lo, hi, call, delta, shifted: [{shift, ratio, call, found}], how}; NULL without a
 * reference. */
json_t *sb_analysis_aa(const json_t *report, size_t nrounds, const uint32_t *groups);

/* Whether the A-A pair's own interval (unshifted) is within +-precision: what `pg`'s rounds
 * until precise also wait for, since the pair sets the threshold of every call; true without
 * a reference. */
bool sb_analysis_aa_settled(const json_t *report, double precision);

#endif
