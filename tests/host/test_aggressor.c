/* SPDX-License-Identifier: BSD-3-Clause */
#include "config.h"
/* test_aggressor.c: unit tests for lib/host/aggressor.h (key contention). The sizes from the L3
 * (stream's least and 4x, l3's bound, l3 without an L3); the CPU it takes, and the one-line
 * refusal when the caller may use one CPU only; an aggressor of each kind, small (1MB buffers, so
 * that it runs under ASan and valgrind), started, run for about 50 ms, paused (it then moves
 * nothing), stopped within a bounded time: bytes moved, its buffers unmapped, the caller's CPUs
 * given back; and a start that cannot pin, which fails cleanly. Speeds are never asserted
 * beyond > 0. */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "core/core.h"
#include "host/aggressor.h"

#include "helper.h"

#define MB (1ull << 20)

static void test_size(void **state)
{
    struct sb_aggressor_plan plan;
    char why[256] = "";

    (void)state;
    assert_true(sb_aggressor_size(SB_CONTENTION_STREAM, 32 * MB, true, &plan, why, sizeof why));
    assert_int_equal(plan.buffers, 2);
    assert_int_equal(plan.working_set_bytes, SB_AGGRESSOR_STREAM_MIN); /* 4 x 32MB < 256MB */
    assert_string_equal(plan.sized, "the least, 256MB (4 x the L3 of 32MB is less)");
    assert_int_equal(plan.cpu, -1);
    assert_true(sb_aggressor_size(SB_CONTENTION_STREAM, 128 * MB, true, &plan, why, sizeof why));
    assert_int_equal(plan.working_set_bytes, 512 * MB);
    assert_string_equal(plan.sized, "4 x the L3 of 128MB");
    assert_true(sb_aggressor_size(SB_CONTENTION_STREAM, 0, false, &plan, why, sizeof why));
    assert_int_equal(plan.working_set_bytes, SB_AGGRESSOR_STREAM_MIN);
    assert_true(sb_aggressor_size(SB_CONTENTION_L3, 32 * MB, true, &plan, why, sizeof why));
    assert_int_equal(plan.buffers, 1);
    assert_int_equal(plan.working_set_bytes, 32 * MB);
    assert_false(plan.capped);
    assert_true(sb_aggressor_size(SB_CONTENTION_L3, 384 * MB, true, &plan, why, sizeof why));
    assert_int_equal(plan.working_set_bytes, SB_AGGRESSOR_L3_MAX);
    assert_true(plan.capped);
    assert_string_equal(plan.sized, "the L3 (384MB), bounded at 64MB");
    assert_false(sb_aggressor_size(SB_CONTENTION_L3, MB, false, &plan, why, sizeof why));
    assert_string_equal(why, "the L3's size, which this host does not say (l3_size sets it)");
    assert_true(sb_aggressor_size(SB_CONTENTION_NONE, 32 * MB, true, &plan, why, sizeof why));
    assert_int_equal(plan.working_set_bytes, 0);
    assert_string_equal(sb_contention_names[SB_CONTENTION_L3], "l3");
}

/* The first CPU the calling thread may use. */
static int first_cpu(const cpu_set_t *set)
{
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, set))
            return c;
    return -1;
}

static void test_cpu(void **state)
{
    cpu_set_t all, one;
    char why[256] = "", want[128];
    int cpu;

    (void)state;
    assert_int_equal(sched_getaffinity(0, sizeof all, &all), 0);
    if (CPU_COUNT(&all) >= 2) {
        int last = -1;
        for (int c = 0; c < CPU_SETSIZE; c++)
            if (CPU_ISSET(c, &all))
                last = c;
        assert_true(sb_aggressor_cpu(1, &cpu, why, sizeof why));
        assert_int_equal(cpu, last);
    }
    /* one CPU only (as under taskset -c N): refused, in one line */
    CPU_ZERO(&one);
    CPU_SET(first_cpu(&all), &one);
    assert_int_equal(sched_setaffinity(0, sizeof one, &one), 0);
    assert_false(sb_aggressor_cpu(1, &cpu, why, sizeof why));
    assert_int_equal(cpu, -1);
    snprintf(want, sizeof want, "a second CPU for the aggressor, and this process may use only "
             "CPU %d", first_cpu(&all));
    assert_string_equal(why, want);
    assert_int_equal(sched_setaffinity(0, sizeof all, &all), 0);
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0)
        ;
}

/* One kind, small: start, ~50 ms of work, pause, stop. */
static void run_one(enum sb_contention_kind kind)
{
    struct sb_aggressor_plan plan = {.kind = kind, .working_set_bytes = MB,
                                     .buffers = kind == SB_CONTENTION_STREAM ? 2 : 1};
    struct sb_aggressor_result res, again;
    struct sb_aggressor *ag;
    struct sb_error err = {0};
    cpu_set_t before, during, after;
    char why[256];
    double t;

    assert_int_equal(pthread_getaffinity_np(pthread_self(), sizeof before, &before), 0);
    if (CPU_COUNT(&before) < 2)
        skip(); /* no CPU beside this one */
    assert_true(sb_aggressor_cpu(1, &plan.cpu, why, sizeof why));
    assert_int_equal(sb_aggressor_start(&ag, &plan, &err), SB_OK);
    assert_non_null(ag);
    assert_int_equal(sb_aggressor_mapped_bytes(), plan.buffers * MB);
    /* the caller keeps off the aggressor's CPU */
    assert_int_equal(pthread_getaffinity_np(pthread_self(), sizeof during, &during), 0);
    assert_false(CPU_ISSET(plan.cpu, &during));
    assert_int_equal(CPU_COUNT(&during), CPU_COUNT(&before) - 1);
    sb_aggressor_result(ag, &res);
    assert_int_equal(res.bytes, 0); /* paused from the start */

    t = sb_timer_now();
    sb_aggressor_resume(ag);
    sleep_ms(50);
    sb_aggressor_pause(ag);
    t = sb_timer_now() - t;
    sb_aggressor_result(ag, &res);
    assert_true(res.bytes > 0);
    assert_int_equal(res.bytes % (2 * sizeof(uint64_t)), 0);
    assert_true(res.seconds > 0 && res.seconds <= t);
    assert_true(res.gbps > 0);
    sleep_ms(20); /* paused: nothing moves */
    sb_aggressor_result(ag, &again);
    assert_int_equal(again.bytes, res.bytes);

    sb_aggressor_resume(ag); /* stopped while it works: still within a bounded time */
    sleep_ms(5);
    t = sb_timer_now();
    sb_aggressor_stop(ag);
    assert_true(sb_timer_now() - t < 2.0);
    assert_int_equal(sb_aggressor_mapped_bytes(), 0);
    assert_int_equal(pthread_getaffinity_np(pthread_self(), sizeof after, &after), 0);
    assert_true(CPU_EQUAL(&after, &before));
}

static void test_stream(void **state)
{
    (void)state;
    run_one(SB_CONTENTION_STREAM);
}

static void test_l3(void **state)
{
    (void)state;
    run_one(SB_CONTENTION_L3);
}

/* A CPU it cannot be pinned to: SB_ERR_RUN naming it, nothing left behind. */
static void test_cannot_pin(void **state)
{
    struct sb_aggressor_plan plan = {.kind = SB_CONTENTION_L3, .working_set_bytes = MB,
                                     .buffers = 1, .cpu = CPU_SETSIZE - 1};
    struct sb_aggressor *ag = (struct sb_aggressor *)&plan;
    struct sb_error err = {0};
    cpu_set_t before, after;

    (void)state;
    assert_int_equal(pthread_getaffinity_np(pthread_self(), sizeof before, &before), 0);
    assert_int_equal(sb_aggressor_start(&ag, &plan, &err), SB_ERR_RUN);
    assert_null(ag);
    assert_non_null(strstr(err.msg, "cannot pin the aggressor to CPU 1023"));
    assert_int_equal(sb_aggressor_mapped_bytes(), 0);
    assert_int_equal(pthread_getaffinity_np(pthread_self(), sizeof after, &after), 0);
    assert_true(CPU_EQUAL(&after, &before));
    sb_aggressor_stop(NULL);
    sb_aggressor_pause(NULL);
    sb_aggressor_resume(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_size),
        cmocka_unit_test(test_cpu),
        cmocka_unit_test(test_stream),
        cmocka_unit_test(test_l3),
        cmocka_unit_test(test_cannot_pin),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
