/* SPDX-License-Identifier: BSD-3-Clause */
/* stop.c: the stop signals (SIGINT, SIGTERM, SIGHUP, SIGQUIT and the other catchable ones whose
 * default ends the process) and the run watchdog as flags (see stop.h). Everything a handler
 * touches is a sig_atomic_t, was prepared before the handler could run, or is changed with the
 * handler's signals blocked. */
#include "config.h"
#include "core/stop.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

/* every catchable signal whose default action ends the process, but SIGALRM (the watchdog's),
 * SIGPIPE and SIGXFSZ (ignored: the write fails instead) and the ones a fault raises (SIGSEGV,
 * SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGSYS: the process cannot go on) */
static const struct {
    int sig;
    const char *name;
} stop_signals[] = {
    {SIGINT, "SIGINT"},       {SIGTERM, "SIGTERM"}, {SIGHUP, "SIGHUP"},   {SIGQUIT, "SIGQUIT"},
    {SIGUSR1, "SIGUSR1"},     {SIGUSR2, "SIGUSR2"}, {SIGXCPU, "SIGXCPU"}, {SIGPROF, "SIGPROF"},
    {SIGVTALRM, "SIGVTALRM"}, {SIGPWR, "SIGPWR"},   {SIGSTKFLT, "SIGSTKFLT"},
};
#define NSTOP (sizeof stop_signals / sizeof stop_signals[0])

static volatile sig_atomic_t signal_received;
static volatile sig_atomic_t work_done;
static volatile sig_atomic_t watchdog_fired;
static volatile sig_atomic_t watchdog_armed;
static void (*volatile stop_hook)(void *);
static void *volatile stop_hook_arg;
static timer_t watchdog_timer;
static int watchdog_made;                /* the timer exists */
static struct timespec limit_at, stuck_at; /* CLOCK_MONOTONIC: the limit, the limit + grace */
static struct itimerspec watchdog_grace; /* armed by the first alarm */
static char stuck_line[512];             /* written by the second alarm */
static size_t stuck_len;
static char watched[256];                /* the run the watchdog is armed for */
static double watched_limit;

static void run_hook(void)
{
    void (*hook)(void *) = stop_hook;

    if (hook)
        hook(stop_hook_arg);
}

static void on_stop_signal(int sig)
{
    int saved_errno = errno;
    struct sigaction dfl;

    if (signal_received) { /* the second one: no more waiting */
        memset(&dfl, 0, sizeof dfl);
        dfl.sa_handler = SIG_DFL;
        sigaction(sig, &dfl, NULL);
        raise(sig);
        return;
    }
    signal_received = sig;
    run_hook();
    errno = saved_errno;
}

static bool passed(const struct timespec *deadline)
{
    struct timespec now;

    clock_gettime(CLOCK_MONOTONIC, &now);
    return now.tv_sec > deadline->tv_sec ||
           (now.tv_sec == deadline->tv_sec && now.tv_nsec >= deadline->tv_nsec);
}

/* Only the watchdog's own timer, once its deadline really passed: a SIGALRM sent from outside
 * (kill -ALRM) or left from an earlier run changes nothing. */
static void on_alarm(int sig, siginfo_t *info, void *context)
{
    int saved_errno = errno;

    (void)sig;
    (void)context;
    if (info->si_code != SI_TIMER || !watchdog_armed) {
        errno = saved_errno;
        return;
    }
    if (!watchdog_fired && passed(&limit_at)) {
        watchdog_fired = 1;
        timer_settime(watchdog_timer, 0, &watchdog_grace, NULL);
        run_hook(); /* e.g. a PostgreSQL run's statement in flight, cancelled */
    } else if (watchdog_fired && passed(&stuck_at)) {
        if (write(STDERR_FILENO, stuck_line, stuck_len) < 0)
            _exit(1);
        _exit(1);
    }
    errno = saved_errno;
}

static void install_alarm(void)
{
    struct sigaction sa;

    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_alarm;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART | SA_SIGINFO;
    sigaction(SIGALRM, &sa, NULL);
}

void sb_stop_ignore_write_signals(void)
{
    signal(SIGPIPE, SIG_IGN);
    signal(SIGXFSZ, SIG_IGN);
}

void sb_stop_install(void)
{
    struct sigaction sa;

    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < NSTOP; i++)
        sigaddset(&sa.sa_mask, stop_signals[i].sig);
    sa.sa_flags = SA_RESTART;
    for (size_t i = 0; i < NSTOP; i++) {
        struct sigaction before;
        /* ignored when scanbench started (nohup: SIGHUP; a script's background job: SIGINT
         * and SIGQUIT): it stays ignored, as whoever started scanbench asked */
        if (sigaction(stop_signals[i].sig, NULL, &before) == 0 && before.sa_handler == SIG_IGN)
            continue;
        sigaction(stop_signals[i].sig, &sa, NULL);
    }
    install_alarm();
    sb_stop_ignore_write_signals();
}

void sb_stop_block(sigset_t *old)
{
    sigset_t block;

    sigemptyset(&block);
    for (size_t i = 0; i < NSTOP; i++)
        sigaddset(&block, stop_signals[i].sig);
    sigaddset(&block, SIGALRM);
    pthread_sigmask(SIG_BLOCK, &block, old);
}

void sb_stop_unblock(const sigset_t *old)
{
    pthread_sigmask(SIG_SETMASK, old, NULL);
}

void sb_stop_on_signal(void (*hook)(void *), void *arg)
{
    sigset_t old;

    sb_stop_block(&old);
    stop_hook = hook;
    stop_hook_arg = arg;
    sb_stop_unblock(&old);
}

void sb_stop_child_defaults(void)
{
    sigset_t none;

    signal(SIGPIPE, SIG_DFL);
    signal(SIGXFSZ, SIG_DFL);
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
}

void sb_stop_fork_defaults(void)
{
    for (size_t i = 0; i < NSTOP; i++)
        signal(stop_signals[i].sig, SIG_DFL);
    signal(SIGALRM, SIG_DFL);
    stop_hook = NULL; /* no handler left to run it */
    sb_stop_child_defaults();
}

int sb_stop_signal(void) { return signal_received; }

const char *sb_stop_signal_name(int sig)
{
    for (size_t i = 0; i < NSTOP; i++)
        if (stop_signals[i].sig == sig)
            return stop_signals[i].name;
    return "a signal";
}

bool sb_stop_requested(void) { return signal_received != 0 || watchdog_fired; }

bool sb_watchdog_overran(void) { return watchdog_fired != 0; }

void sb_stop_work_done(void) { work_done = 1; }

const char *sb_stop_reason(char *buf, size_t len)
{
    int sig = sb_stop_signal();

    if (sig)
        snprintf(buf, len, "%s", sb_stop_signal_name(sig));
    else if (watchdog_fired)
        snprintf(buf, len, "run_timeout: %s ran longer than %.0f s", watched, watched_limit);
    else
        snprintf(buf, len, "not stopped");
    return buf;
}

int sb_stop_check(struct sb_error *err)
{
    char why[320];

    if (!sb_stop_requested())
        return SB_OK;
    return sb_fail(err, SB_ERR_RUN, "stopped (%s)", sb_stop_reason(why, sizeof why));
}

static struct timespec timespec_of(double seconds)
{
    struct timespec ts;

    ts.tv_sec = (time_t)seconds;
    ts.tv_nsec = (long)((seconds - (double)ts.tv_sec) * 1e9);
    return ts;
}

/* now + seconds on CLOCK_MONOTONIC */
static struct timespec deadline_in(double seconds)
{
    struct timespec at, add = timespec_of(seconds);

    clock_gettime(CLOCK_MONOTONIC, &at);
    at.tv_sec += add.tv_sec;
    at.tv_nsec += add.tv_nsec;
    if (at.tv_nsec >= 1000000000L) {
        at.tv_sec++;
        at.tv_nsec -= 1000000000L;
    }
    return at;
}

/* The stuck line and the deadlines, written before the timer can fire. */
static void prepare_watch(double seconds, double grace, const char *what)
{
    int n;

    snprintf(watched, sizeof watched, "%s", what);
    watched_limit = seconds;
    n = snprintf(stuck_line, sizeof stuck_line, "\nscanbench: %s ran longer than its limit of "
                 "%.0f s (run_timeout) and did not stop within %.0f s more: ending, without a "
                 "report\n", what, seconds, grace);
    stuck_len = n < 0 ? 0 : (size_t)n < sizeof stuck_line ? (size_t)n : sizeof stuck_line - 1;
    watchdog_grace.it_value = timespec_of(grace);
    limit_at = deadline_in(seconds);
    stuck_at = deadline_in(seconds + grace);
}

void sb_watchdog_arm(double seconds, const char *what)
{
    struct itimerspec limit = {0};
    double grace = seconds / 10 > 30 ? seconds / 10 : 30;
    sigset_t old;

    sb_stop_block(&old);
    sb_watchdog_disarm();
    watchdog_fired = 0;
    if (seconds > 0 && !watchdog_made) {
        struct sigevent ev;
        install_alarm();
        memset(&ev, 0, sizeof ev);
        ev.sigev_notify = SIGEV_SIGNAL;
        ev.sigev_signo = SIGALRM;
        watchdog_made = timer_create(CLOCK_MONOTONIC, &ev, &watchdog_timer) == 0;
    }
    if (seconds > 0 && watchdog_made) { /* else no watchdog: the run is unbounded */
        prepare_watch(seconds, grace, what);
        watchdog_armed = 1;
        limit.it_value = timespec_of(seconds);
        timer_settime(watchdog_timer, 0, &limit, NULL);
    }
    sb_stop_unblock(&old);
}

void sb_watchdog_disarm(void)
{
    struct itimerspec off = {0};

    watchdog_armed = 0;
    if (watchdog_made)
        timer_settime(watchdog_timer, 0, &off, NULL);
}

void sb_stop_test_pause(const char *moment)
{
    static bool paused; /* the first time the moment comes, only */
    const char *spec = getenv("SCANBENCH_TEST_PAUSE");
    size_t n = strlen(moment);
    struct timespec limit;
    sigset_t old;

    if (paused || !spec || strncmp(spec, moment, n) != 0 || spec[n] != ':')
        return;
    paused = true;
    limit = timespec_of(atof(spec + n + 1));
    /* said with the signals held, then waited for with them let in at once (ppoll): a signal
     * sent once the line shows always ends the pause */
    sb_stop_block(&old);
    fprintf(stderr, "scanbench: test pause: %s\n", moment);
    if (!signal_received)
        ppoll(NULL, 0, &limit, &old);
    sb_stop_unblock(&old);
}

void sb_stop_finish(void)
{
    struct sigaction dfl;
    int sig = signal_received;

    sb_watchdog_disarm();
    if (watchdog_made) {
        timer_delete(watchdog_timer);
        watchdog_made = 0;
    }
    if (!sig)
        return;
    if (work_done) {
        fprintf(stderr, "scanbench: %s came after the last run had finished: the results are "
                "complete\n", sb_stop_signal_name(sig));
        return;
    }
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigaction(sig, &dfl, NULL);
    fflush(NULL); /* what was printed is kept: the signal ends the process without exit() */
    if (sig == SIGQUIT || sig == SIGXCPU)
        prctl(PR_SET_DUMPABLE, 0, 0, 0, 0); /* its default action would dump core */
    raise(sig);
    _exit(128 + sig);
}
