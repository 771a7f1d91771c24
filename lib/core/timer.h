/* SPDX-License-Identifier: BSD-3-Clause */
/* timer.h: the clock every repetition is timed with (CLOCK_MONOTONIC_RAW where the OS has it,
 * else CLOCK_MONOTONIC) and its resolution, reported as STREAM does. */
#ifndef SB_TIMER_H
#define SB_TIMER_H

/* Seconds since an arbitrary start. */
double sb_timer_now(void);

/* The clock's name, its advertised resolution (clock_getres) and the smallest step observed
 * between two successive readings, in seconds. */
const char *sb_timer_clock_name(void);
double sb_timer_resolution(void);
double sb_timer_observed_tick(void);

#endif
