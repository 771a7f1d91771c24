/* SPDX-License-Identifier: BSD-3-Clause */
/* placement_name.h: a placement as the 2007 thread names one, "POLICY SIZE" ("clock 16MB",
 * "ring 256KB"): a replacement policy (policy.h) and the bytes it writes into, its footprint
 * (the pool, the ring or one buffer: sb_policy_footprint). One parser, one formatter, one
 * comparison: the size is a number, so "clock 16M" and "clock 16384KB" are "clock 16MB". */
#ifndef SB_PLACEMENT_NAME_H
#define SB_PLACEMENT_NAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/core.h"
#include "vocab/policy.h"

struct sb_placement_name {
    const struct sb_policy *policy; /* NULL: no placement (an empty text) */
    uint64_t footprint;             /* bytes, above zero with a policy */
};

/* text as a placement: two words, a policy of sb_policies and a size (core/units.h's forms).
 * SB_ERR_INPUT otherwise, its message naming text and what is wrong:
 *   "TEXT" is not `POLICY SIZE` (e.g. clock 16MB)
 *   "TEXT": unknown policy P (known: clock, ...)
 *   "TEXT": "S" is not a size (e.g. 16MB, 680KB) */
int sb_placement_name_parse(const char *text, struct sb_placement_name *out,
                            struct sb_error *err);

/* The placement as the thread wrote it: "clock 16MB" (sb_format_size's exact size); "" for
 * no placement. Returns buf. */
const char *sb_placement_name_format(const struct sb_placement_name *p, char *buf, size_t len);

/* true when both name the same policy and the same footprint in bytes (two empty ones too). */
bool sb_placement_name_equal(const struct sb_placement_name *a,
                             const struct sb_placement_name *b);

#endif
