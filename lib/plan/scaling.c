/* SPDX-License-Identifier: BSD-3-Clause */
/* scaling.c: the thread's pool sizes scaled to this host (see scaling.h). */
#include "config.h"
#include "plan/scaling.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/core.h"

/* bytes rounded to whole pages, at least one. */
static uint64_t whole_pages(double bytes, uint32_t page)
{
    double pages = floor(bytes / (double)page + 0.5);
    return pages < 1.0 ? page : (uint64_t)pages * page;
}

static uint64_t power_of_two_at_least(uint64_t x)
{
    uint64_t p = 1;
    while (p < x && p < (1ull << 62))
        p <<= 1;
    return p;
}

/* The scattered pool: the ratio kept, raised to the smallest power of two of at least twice the
 * last level, then capped; the words say which of the three decided. */
static void scale_scattered(uint64_t kept, uint64_t host_llc, const char *llc_name,
                            uint64_t cap, uint32_t page, struct sb_scaled_pool *out)
{
    uint64_t want = kept, beyond = power_of_two_at_least(2 * host_llc);
    char a[32], b[32], c[32];
    size_t used = strlen(out->how);

    if (want < beyond)
        want = beyond;
    if (want > cap)
        want = cap;
    out->bytes = whole_pages((double)want, page);
    out->beyond_llc = out->bytes > host_llc;
    sb_format_size(kept, a, sizeof a);
    sb_format_size(host_llc, b, sizeof b);
    sb_format_size(out->bytes, c, sizeof c);
    if (out->bytes == kept)
        snprintf(out->how + used, sizeof out->how - used, " = %s, beyond this host's %s %s", a,
                 b, llc_name);
    else if (out->beyond_llc)
        snprintf(out->how + used, sizeof out->how - used, " would be %s; scattered: %s, the "
                 "smallest power of two of at least twice this host's %s %s", a, c, b, llc_name);
    else
        snprintf(out->how + used, sizeof out->how - used, " would be %s; scattered: %s (the "
                 "cap on what is allocated), below this host's %s %s? NOT beyond its last "
                 "level: scattered within %s only", a, c, b, llc_name, llc_name);
}

void sb_scale_pool(uint64_t thread_bytes, uint64_t thread_l2, bool scattered, uint64_t host_l2,
                   uint64_t host_llc, const char *llc_name, uint64_t cap, uint32_t page,
                   struct sb_scaled_pool *out)
{
    char tl2[32], hl2[32], here[32];
    uint64_t kept;

    memset(out, 0, sizeof *out);
    out->scattered = scattered;
    out->ratio = thread_l2 ? (double)thread_bytes / (double)thread_l2 : 0.0;
    kept = whole_pages(out->ratio * (double)host_l2, page);
    snprintf(out->how, sizeof out->how, "%.3g x the thread machine's L2 (%s) -> %.3g x this "
             "host's L2 (%s)", out->ratio, sb_format_size(thread_l2, tl2, sizeof tl2),
             out->ratio, sb_format_size(host_l2, hl2, sizeof hl2));
    if (scattered) {
        scale_scattered(kept, host_llc ? host_llc : host_l2, llc_name, cap, page, out);
        return;
    }
    out->bytes = kept;
    snprintf(out->how + strlen(out->how), sizeof out->how - strlen(out->how), " = %s",
             sb_format_size(kept, here, sizeof here));
}
