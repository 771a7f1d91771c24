/* SPDX-License-Identifier: BSD-3-Clause */
/* steps.h: each cache level's effective size from a sweep of working sets (`scanbench probe`):
 * where the cost of a load (a pointer chase's latency, or the time a streaming read takes per
 * byte) steps up from the level's plateau to the next one's. The nominal sizes (the topology's)
 * only bracket the search; the answer is the curve's.
 *
 * For level l of nlevels, with E the effective size found for the level above (0 for L1d, the
 * nominal size where the level above had none):
 *   - own: the level's plateau, the lowest cost over the working sets above 2E and at most the
 *     level's nominal size (for L1d every set up to its nominal size);
 *   - next: the plateau beyond it: the lowest cost over the sets above twice this level's
 *     nominal size up to the next level's nominal size, or for the last level the cost of the
 *     largest set (memory's);
 *   - no step (why says) when next is less than SB_STEPS_MIN_RISE x own, or when a range has
 *     no working set in it;
 *   - else the effective size is where the curve, going up from own's set, first reaches the
 *     geometric midpoint sqrt(own x next), interpolated linearly between the two sets around
 *     the crossing in log2(size) and log(cost) (it is always reached: next lies beyond own's
 *     sets). A cyclic chase over an LRU-like level steps where the set stops fitting, so the
 *     crossing lies at the capacity the core can use: on a VM often far below what the CPUID
 *     reports (a share of a socket's L3). */
#ifndef SB_STEPS_H
#define SB_STEPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SB_STEPS_MAX_LEVELS 3
#define SB_STEPS_MIN_RISE 1.25

enum sb_steps_why {
    SB_STEPS_NO_POINTS, /* no working set in the level's or the next level's range */
    SB_STEPS_NO_STEP,   /* the next plateau is less than SB_STEPS_MIN_RISE x the level's */
    SB_STEPS_FOUND
};
extern const char *const sb_steps_why_names[]; /* "no working set in range", "no step",
                                                  "found" */

struct sb_steps_level {
    enum sb_steps_why why;
    uint64_t size; /* bytes, where the curve crosses the midpoint (0 unless found) */
    double own;    /* the level's plateau (0 when no points) */
    double next;   /* the plateau beyond it */
};

/* Effective sizes of the levels whose nominal sizes are nominal[0..nlevels) (ascending, all
 * known) from the curve cost[i] at working sets size[i] (n points, sizes ascending, costs
 * positive). Returns the number of levels found; out[l] says for each why. */
unsigned sb_steps_find(const uint64_t *size, const double *cost, size_t n,
                       const uint64_t *nominal, unsigned nlevels, struct sb_steps_level *out);

#endif
