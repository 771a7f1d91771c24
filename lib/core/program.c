/* SPDX-License-Identifier: BSD-3-Clause */
/* program.c: another program run with a time limit, in its own process group, and reaped on
 * every way out (see program.h). The wait polls: the program's exit (waitid, not reaping it, so
 * that its process group cannot be reused before it is killed), its stdout, the stop flags and
 * the clock, every 20 ms at most. */
#include "config.h"
#include "core/program.h"
#include "core/stop.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

int sb_program_limit(const char *env, const char *what, double def, double *limit,
                     struct sb_error *err)
{
    const char *value = getenv(env);
    char *end;
    double v;

    *limit = def;
    if (!value || !*value)
        return SB_OK;
    errno = 0;
    v = strtod(value, &end);
    if (errno || *end || end == value || !isfinite(v) || v <= 0 || v > 1e6)
        return sb_fail(err, SB_ERR_INPUT, "%s=%.40s: not a number of seconds above 0 (at most "
                       "1000000): the limit of %s", env, value, what);
    *limit = v;
    return SB_OK;
}

static double now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* In the child: its own group, the signals as a program expects them, the caller's setup, and
 * death with scanbench (the setting survives exec, not a later fork or a change of user,
 * hence after the setup). */
static void exec_child(const struct sb_program *p, pid_t parent, int out_fd)
{
    sb_stop_child_defaults();
    setpgid(0, 0);
    if (out_fd >= 0 && dup2(out_fd, 1) < 0)
        _exit(126);
    if (out_fd > 1)
        close(out_fd);
    if (p->setup)
        p->setup(p->setup_arg);
#ifdef __linux__
    if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0 || getppid() != parent)
        _exit(126);
#else
    (void)parent;
#endif
    execvp(p->argv[0], p->argv);
    _exit(127);
}

/* The program's stdout while it runs: the pipe (-1 once at its end) and the bytes kept. */
struct capture {
    int fd;
    size_t used;
};

/* What is in the pipe now, into the buffer (past it, dropped), 256KB at most (a program that
 * writes without end does not hold the wait); the pipe closed at its end. */
static void read_out(const struct sb_program *p, struct capture *c)
{
    char scrap[512];
    ssize_t n;

    for (int reads = 0; c->fd >= 0 && reads < 512; reads++) {
        size_t room = p->out_len - 1 - c->used;
        n = room ? read(c->fd, p->out + c->used, room) : read(c->fd, scrap, sizeof scrap);
        if (n > 0 && room)
            c->used += (size_t)n;
        else if (n < 0 && errno == EAGAIN)
            return;
        else if (n == 0 || (n < 0 && errno != EINTR)) {
            close(c->fd);
            c->fd = -1;
        }
    }
}

/* Waits until the program exits (not reaped: 0), its limit passes (-2) or, stoppable, a stop
 * is asked for (-3); its stdout read meanwhile. */
static int watch(pid_t pid, const struct sb_program *p, struct capture *c)
{
    double deadline = now() + p->limit;
    siginfo_t info;

    for (;;) {
        struct pollfd pfd = {c->fd, POLLIN, 0};
        memset(&info, 0, sizeof info);
        if (waitid(P_PID, (id_t)pid, &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
            info.si_pid == pid)
            return 0;
        if (p->stoppable && sb_stop_requested())
            return -3;
        if (now() >= deadline)
            return -2;
        if (poll(&pfd, c->fd >= 0 ? 1 : 0, 20) > 0)
            read_out(p, c);
    }
}

/* The program and its group ended (SIGKILL) and the program reaped; its exit status. A group
 * kept on purpose (pg_ctl start's may hold the server, when pg_ctl does not detach it): only the
 * program is killed, the rest is its caller's to stop (pg_ctl stop -m immediate frees a
 * server's shared memory; SIGKILL would not). */
static int reap(pid_t pid, const struct sb_program *p, bool exited)
{
    int wstatus = 0;

    if (!p->keeps_group)
        kill(-pid, SIGKILL); /* the group: the program is its leader, not yet reaped */
    if (!exited)
        kill(pid, SIGKILL); /* also before its setpgid */
    while (waitpid(pid, &wstatus, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : 128 + WTERMSIG(wstatus);
}

int sb_program_run(const struct sb_program *p, int *exit_status, struct sb_error *err)
{
    struct capture c = {-1, 0};
    int fds[2] = {-1, -1}, how = 0;
    pid_t parent = getpid(), pid;
    char why[320];

    if (p->out)
        p->out[0] = '\0';
    if (p->out && pipe(fds) != 0)
        return sb_fail(err, SB_ERR_RUN, "%s: cannot make a pipe: %s", p->what, strerror(errno));
    pid = fork();
    if (pid == 0) {
        if (fds[0] >= 0)
            close(fds[0]);
        exec_child(p, parent, fds[1]);
    }
    if (fds[1] >= 0)
        close(fds[1]);
    c.fd = fds[0];
    if (pid < 0) {
        if (c.fd >= 0)
            close(c.fd);
        return sb_fail(err, SB_ERR_RUN, "%s: cannot start it: %s", p->what, strerror(errno));
    }
    setpgid(pid, pid); /* as the child does: whichever comes first */
    if (c.fd >= 0)
        fcntl(c.fd, F_SETFL, fcntl(c.fd, F_GETFL) | O_NONBLOCK);
    how = watch(pid, p, &c);
    *exit_status = reap(pid, p, how == 0);
    read_out(p, &c); /* what it wrote before it ended; no more once its group is gone */
    if (c.fd >= 0)
        close(c.fd);
    if (p->out)
        p->out[c.used] = '\0';
    if (how == -2)
        return sb_fail(err, SB_ERR_RUN, "%s: still running after %g s, its time limit (%s): "
                       "stopped", p->what, p->limit, p->limit_env);
    if (how == -3)
        return sb_fail(err, SB_ERR_RUN, "interrupted (%s) while %s ran",
                       sb_stop_reason(why, sizeof why), p->what);
    if (*exit_status < 0)
        return sb_fail(err, SB_ERR_RUN, "%s: cannot wait for it: %s", p->what, strerror(errno));
    return SB_OK;
}
