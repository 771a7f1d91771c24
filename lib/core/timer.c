/* SPDX-License-Identifier: BSD-3-Clause */
/* timer.c: reading the monotonic clock and measuring its granularity. */
#include "config.h"
#include "core/timer.h"

#include <time.h>

#ifdef CLOCK_MONOTONIC_RAW
#define SB_CLOCK CLOCK_MONOTONIC_RAW
#define SB_CLOCK_NAME "CLOCK_MONOTONIC_RAW"
#else
#define SB_CLOCK CLOCK_MONOTONIC
#define SB_CLOCK_NAME "CLOCK_MONOTONIC"
#endif

double sb_timer_now(void)
{
    struct timespec ts;
    clock_gettime(SB_CLOCK, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

const char *sb_timer_clock_name(void) { return SB_CLOCK_NAME; }

double sb_timer_resolution(void)
{
    struct timespec ts;
    if (clock_getres(SB_CLOCK, &ts) != 0)
        return 0.0;
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double sb_timer_observed_tick(void)
{
    double best = 1.0;

    for (int i = 0; i < 100; i++) {
        double t0 = sb_timer_now(), t1;
        while ((t1 = sb_timer_now()) == t0)
            ;
        if (t1 - t0 < best)
            best = t1 - t0;
    }
    return best;
}
