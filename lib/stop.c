/* stop.c: SIGINT/SIGTERM and the run watchdog as flags (see stop.h). Everything a handler
 * touches is a sig_atomic_t or was prepared before the handler could run. */
#include "config.h"
#include "stop.h"

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "pg_signals.h"

static volatile sig_atomic_t signal_received;
static volatile sig_atomic_t watchdog_fired;
static timer_t watchdog_timer;
static int watchdog_made;                /* the timer exists */
static struct itimerspec watchdog_grace; /* armed by the first alarm */
static char stuck_line[512];             /* written by the second alarm */
static size_t stuck_len;
static char watched[256];                /* the run the watchdog is armed for */
static double watched_limit;

static void on_stop_signal(int sig)
{
    struct sigaction dfl;

    if (signal_received) { /* the second one: no more waiting */
        memset(&dfl, 0, sizeof dfl);
        dfl.sa_handler = SIG_DFL;
        sigaction(sig, &dfl, NULL);
        raise(sig);
        return;
    }
    signal_received = sig;
}

static void on_alarm(int sig)
{
    (void)sig;
    if (!watchdog_fired) {
        watchdog_fired = 1;
        timer_settime(watchdog_timer, 0, &watchdog_grace, NULL);
        sb_pg_cancel_statement(); /* a PostgreSQL run's statement in flight, if any */
        return;
    }
    if (write(STDERR_FILENO, stuck_line, stuck_len) < 0)
        _exit(1);
    _exit(1);
}

void sb_stop_install(void)
{
    struct sigaction sa;

    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

int sb_stop_signal(void)
{
    /* `reproduce --pg` installs the PostgreSQL runner's handlers over these: its flag counts */
    return signal_received ? (int)signal_received : sb_pg_signal_received();
}

bool sb_stop_requested(void) { return sb_stop_signal() != 0 || watchdog_fired; }

bool sb_watchdog_overran(void) { return watchdog_fired != 0; }

const char *sb_stop_reason(char *buf, size_t len)
{
    int sig = sb_stop_signal();

    if (sig)
        snprintf(buf, len, "%s", sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM"
                                                                           : "a signal");
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

void sb_watchdog_arm(double seconds, const char *what)
{
    struct itimerspec limit = {0};
    double grace = seconds / 10 > 30 ? seconds / 10 : 30;
    int n;

    sigset_t alarm_only, before;
    const struct timespec now = {0, 0};

    /* an alarm of the run before may still be pending: taken here, it cannot stop this one */
    sigemptyset(&alarm_only);
    sigaddset(&alarm_only, SIGALRM);
    pthread_sigmask(SIG_BLOCK, &alarm_only, &before);
    sb_watchdog_disarm();
    while (sigtimedwait(&alarm_only, NULL, &now) == SIGALRM)
        ;
    watchdog_fired = 0;
    pthread_sigmask(SIG_SETMASK, &before, NULL);
    if (!(seconds > 0))
        return;
    if (!watchdog_made) {
        struct sigevent ev;
        struct sigaction sa;

        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_alarm;
        sigemptyset(&sa.sa_mask);
        sa.sa_flags = SA_RESTART;
        sigaction(SIGALRM, &sa, NULL);
        memset(&ev, 0, sizeof ev);
        ev.sigev_notify = SIGEV_SIGNAL;
        ev.sigev_signo = SIGALRM;
        if (timer_create(CLOCK_MONOTONIC, &ev, &watchdog_timer) != 0)
            return; /* no watchdog: the run is unbounded, as before */
        watchdog_made = 1;
    }
    snprintf(watched, sizeof watched, "%s", what);
    watched_limit = seconds;
    n = snprintf(stuck_line, sizeof stuck_line, "\nscanbench: %s ran longer than its limit of "
                 "%.0f s (run_timeout) and did not stop within %.0f s more: ending, without a "
                 "report\n", what, seconds, grace);
    stuck_len = n < 0 ? 0 : (size_t)n < sizeof stuck_line ? (size_t)n : sizeof stuck_line - 1;
    watchdog_grace.it_value = timespec_of(grace);
    limit.it_value = timespec_of(seconds);
    timer_settime(watchdog_timer, 0, &limit, NULL);
}

void sb_watchdog_disarm(void)
{
    struct itimerspec off = {0};

    if (watchdog_made)
        timer_settime(watchdog_timer, 0, &off, NULL);
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
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigaction(SIGINT, &dfl, NULL);
    sigaction(SIGTERM, &dfl, NULL);
    if (!sig)
        return;
    fflush(NULL); /* what was printed is kept: the signal ends the process without exit() */
    raise(sig);
    _exit(128 + sig);
}
