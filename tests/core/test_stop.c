/* SPDX-License-Identifier: BSD-3-Clause */
#include "config.h"
/* test_stop.c: unit tests for lib/core/stop.h: a SIGALRM that the watchdog's timer did not send
 * (kill, raise) stops nothing; the watchdog's own timer does, once its limit passed, and calls
 * the hook; a stop signal sets the flag, names itself and calls the hook (a cancel); a signal
 * ignored before the handlers are installed stays ignored (nohup); the test pause ends at a
 * SIGALRM; a signal after the work was done leaves sb_stop_finish() returning. */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/stop.h"
#include "core/timer.h"

static volatile sig_atomic_t hook_calls;

static void count_hook(void *arg)
{
    (void)arg;
    hook_calls++;
}

static void nap(void)
{
    struct timespec tick = {0, 10 * 1000 * 1000};
    nanosleep(&tick, NULL);
}

static void test_nohup_kept(void **state)
{
    struct sigaction now;

    (void)state;
    signal(SIGHUP, SIG_IGN);
    sb_stop_install();
    assert_int_equal(sigaction(SIGHUP, NULL, &now), 0);
    assert_true(now.sa_handler == SIG_IGN);
    assert_int_equal(sigaction(SIGTERM, NULL, &now), 0);
    assert_true(now.sa_handler != SIG_IGN && now.sa_handler != SIG_DFL);
    assert_int_equal(sigaction(SIGPIPE, NULL, &now), 0);
    assert_true(now.sa_handler == SIG_IGN);
}

static void test_stray_alarm(void **state)
{
    (void)state;
    sb_stop_on_signal(count_hook, NULL);
    sb_watchdog_arm(100, "run 1/1 stray");
    raise(SIGALRM);
    kill(getpid(), SIGALRM);
    for (int i = 0; i < 10; i++)
        nap();
    assert_false(sb_watchdog_overran());
    assert_false(sb_stop_requested());
    assert_int_equal(hook_calls, 0);
    sb_watchdog_disarm();
}

static void test_watchdog_fires(void **state)
{
    char why[320];

    (void)state;
    sb_watchdog_arm(0.05, "run 1/1 slow");
    for (int i = 0; i < 1000 && !sb_watchdog_overran(); i++)
        nap();
    assert_true(sb_watchdog_overran());
    assert_true(sb_stop_requested());
    assert_int_equal(sb_stop_signal(), 0);
    assert_string_equal(sb_stop_reason(why, sizeof why),
                        "run_timeout: run 1/1 slow ran longer than 0 s");
    assert_int_equal(hook_calls, 1);
    sb_watchdog_arm(0, "no limit"); /* the next run starts unbounded and not stopped */
    assert_false(sb_stop_requested());
}

static void test_pause_ends_at_alarm(void **state)
{
    double t0 = sb_timer_now();
    pid_t child;

    (void)state;
    setenv("SCANBENCH_TEST_PAUSE", "write:30", 1);
    child = fork();
    assert_true(child >= 0);
    if (child == 0) { /* stray SIGALRMs until the pause is over (the parent ends this) */
        for (int i = 0; i < 1000; i++) {
            kill(getppid(), SIGALRM);
            nap();
        }
        _exit(0);
    }
    sb_stop_test_pause("write");
    kill(child, SIGKILL);
    waitpid(child, NULL, 0);
    assert_true(sb_timer_now() - t0 < 20);
    assert_false(sb_stop_requested());
    unsetenv("SCANBENCH_TEST_PAUSE");
}

/* last: the flag stays set for the rest of the process */
static void test_stop_signal(void **state)
{
    char why[320];
    struct sb_error err = {0};

    (void)state;
    hook_calls = 0;
    raise(SIGTERM);
    assert_int_equal(sb_stop_signal(), SIGTERM);
    assert_true(sb_stop_requested());
    assert_int_equal(hook_calls, 1);
    assert_string_equal(sb_stop_reason(why, sizeof why), "SIGTERM");
    assert_int_equal(sb_stop_check(&err), SB_ERR_RUN);
    assert_string_equal(err.msg, "stopped (SIGTERM)");
    assert_string_equal(sb_stop_signal_name(SIGHUP), "SIGHUP");
    assert_string_equal(sb_stop_signal_name(SIGQUIT), "SIGQUIT");
    sb_stop_on_signal(NULL, NULL);
    sb_stop_work_done();
    sb_stop_finish(); /* returns: the work was done before it */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nohup_kept),
        cmocka_unit_test(test_stray_alarm),
        cmocka_unit_test(test_watchdog_fires),
        cmocka_unit_test(test_pause_ends_at_alarm),
        cmocka_unit_test(test_stop_signal),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
