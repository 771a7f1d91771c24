/* SPDX-License-Identifier: BSD-3-Clause */
/* stale.c: each cluster directory's owner and watcher, and the clusters whose scanbench is
 * gone found, stopped and removed (see stale.h). The process facts come from Linux's /proc;
 * elsewhere a pid alone says whether the owner runs. */
#include "config.h"
#include "pg/stale.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <glob.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "core/core.h"

/* Who a process is: its pid, its start time (clock ticks since boot; 0: unknown) and the boot's
 * id ("-": unknown). */
struct owner {
    long pid;
    unsigned long long start;
    char boot[64];
};

/* /proc/PID/stat's first line into line; returns its ')' that ends the process's name (which
 * may hold anything, a ')' too), after which the fields are plain; NULL when it cannot be read. */
static const char *stat_after_name(long pid, char *line, size_t len)
{
    char path[64];
    const char *p = NULL;
    FILE *f;

    snprintf(path, sizeof path, "/proc/%ld/stat", pid);
    if (!(f = fopen(path, "r")))
        return NULL;
    if (fgets(line, (int)len, f))
        p = strrchr(line, ')');
    fclose(f);
    return p;
}

/* Field 22 of /proc/PID/stat (its start time), or 0. */
static unsigned long long process_start(long pid)
{
    char line[1024];
    const char *p = stat_after_name(pid, line, sizeof line);
    unsigned long long start = 0;

    /* state (field 3) to starttime (22): skip 19 fields */
    for (int i = 0; i < 20 && p; i++)
        p = strchr(p + 1, ' ');
    if (!p || sscanf(p, " %llu", &start) != 1)
        start = 0;
    return start;
}

static void this_boot(char *buf, size_t len)
{
    FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");

    snprintf(buf, len, "-");
    if (f && fgets(buf, (int)len, f))
        buf[strcspn(buf, "\n")] = '\0';
    if (!buf[0])
        snprintf(buf, len, "-");
    if (f)
        fclose(f);
}

int sb_pg_cluster_mark(const char *dir)
{
    char path[400], boot[64];
    FILE *f;
    int status = 0;

    snprintf(path, sizeof path, "%s/%s", dir, SB_PG_OWNER_FILE);
    this_boot(boot, sizeof boot);
    f = fopen(path, "w");
    if (!f)
        return -1;
    if (fprintf(f, "pid %ld\nstart %llu\nboot %s\n", (long)getpid(),
                process_start((long)getpid()), boot) < 0)
        status = -1;
    if (fclose(f) != 0)
        status = -1;
    return status;
}

/* dir's owner file, when it is a file of this user's that reads as one; else false. */
static bool read_owner(const char *dir, struct owner *o)
{
    char path[400];
    struct stat st;
    FILE *f;
    bool ok;

    snprintf(path, sizeof path, "%s/%s", dir, SB_PG_OWNER_FILE);
    if (lstat(path, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid())
        return false;
    f = fopen(path, "r");
    if (!f)
        return false;
    ok = fscanf(f, "pid %ld start %llu boot %63s", &o->pid, &o->start, o->boot) == 3 &&
         o->pid > 0;
    fclose(f);
    return ok;
}

/* Whether the owner's process is gone: another boot, no such pid, or a pid of a process that
 * started at another time (the pid used again). */
static bool owner_gone(const struct owner *o)
{
    char boot[64];
    unsigned long long start;

    this_boot(boot, sizeof boot);
    if (strcmp(o->boot, "-") != 0 && strcmp(boot, "-") != 0 && strcmp(o->boot, boot) != 0)
        return true;
    if (kill((pid_t)o->pid, 0) != 0 && errno == ESRCH)
        return true;
    start = process_start(o->pid);
    return o->start && start && start != o->start;
}

pid_t sb_pg_postmaster_of(const char *datadir)
{
    char path[400];
    long pid = 0;
    struct stat cwd, data;
    FILE *f;

    snprintf(path, sizeof path, "%s/postmaster.pid", datadir);
    f = fopen(path, "r");
    if (!f)
        return 0;
    if (fscanf(f, "%ld", &pid) != 1 || pid <= 0)
        pid = 0;
    fclose(f);
    if (!pid || kill((pid_t)pid, 0) != 0)
        return 0;
#ifdef __linux__
    /* the postmaster runs in its data directory (ChangeToDataDir): a pid used again does not */
    snprintf(path, sizeof path, "/proc/%ld/cwd", pid);
    if (stat(path, &cwd) != 0 || stat(datadir, &data) != 0 || cwd.st_dev != data.st_dev ||
        cwd.st_ino != data.st_ino)
        return 0;
#else
    (void)cwd;
    (void)data;
#endif
    return (pid_t)pid;
}

/* Waits up to seconds for pid to go (or to be a zombie its parent has not reaped). */
static bool gone_within(pid_t pid, double seconds)
{
    struct timespec tick = {0, 10 * 1000 * 1000};
    char line[512];

    for (int i = 0; i < (int)(seconds * 100); i++) {
        const char *p = stat_after_name((long)pid, line, sizeof line);
        if (kill(pid, 0) != 0 || (p && p[1] == ' ' && p[2] == 'Z'))
            return true;
        nanosleep(&tick, NULL);
    }
    return false;
}

bool sb_pg_process_end(pid_t pid, int sig)
{
    return pid > 0 && kill(pid, sig) == 0 && gone_within(pid, 5);
}

void sb_pg_postmaster_end(pid_t pid)
{
    if (!sb_pg_process_end(pid, SIGQUIT))
        sb_pg_process_end(pid, SIGKILL);
}

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)st;
    (void)type;
    (void)ftw;
    remove(path);
    return 0;
}

void sb_pg_dir_remove(const char *dir)
{
    nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* One directory of the sweep: 1 removed, 0 alive, -1 not a cluster of this user's. */
static int sweep_one(const char *dir)
{
    struct owner o;
    struct stat st;
    char datadir[400], server[64] = "no server running";
    pid_t pid;

    if (lstat(dir, &st) != 0 || !S_ISDIR(st.st_mode) ||
        (st.st_uid != geteuid() && geteuid() != 0) || !read_owner(dir, &o))
        return -1;
    if (!owner_gone(&o))
        return 0;
    snprintf(datadir, sizeof datadir, "%s/data", dir);
    pid = sb_pg_postmaster_of(datadir);
    if (pid > 0) {
        sb_pg_postmaster_end(pid);
        snprintf(server, sizeof server, "its server, pid %ld, stopped", (long)pid);
    }
    sb_pg_dir_remove(dir);
    if (lstat(dir, &st) == 0)
        fprintf(stderr, "scanbench: note: %s: a cluster of scanbench pid %ld, which is gone "
                "(%s); cannot remove all of it\n", dir, o.pid, server);
    else
        fprintf(stderr, "scanbench: note: removed %s, a cluster of scanbench pid %ld, which is "
                "gone (%s)\n", dir, o.pid, server);
    return 1;
}

void sb_pg_sweep(const char *parent, size_t *removed, size_t *alive)
{
    char pattern[400];
    glob_t g = {0};

    *removed = *alive = 0;
    snprintf(pattern, sizeof pattern, "%s/scanbench-pg.*", parent);
    if (glob(pattern, GLOB_NOSORT, NULL, &g) != 0)
        return;
    for (size_t i = 0; i < g.gl_pathc; i++) {
        int r = sweep_one(g.gl_pathv[i]);
        *removed += r == 1;
        *alive += r == 0;
    }
    globfree(&g);
}

/* In the watcher: its own process group (a terminal's Ctrl-C is scanbench's to handle), the
 * default signals, no descriptor of scanbench's held (a pipe's reader, the libpq sockets, a
 * report) but the pipe. */
static void become_watcher(int fd)
{
    int devnull = open("/dev/null", O_RDWR);
    long max = sysconf(_SC_OPEN_MAX);

    setpgid(0, 0);
    sb_stop_fork_defaults(); /* no hook: scanbench's statement is not the watcher's to cancel */
    for (int i = 0; i < 3 && devnull >= 0; i++)
        dup2(devnull, i);
    for (int i = 3; i < (max > 0 && max < 65536 ? max : 65536); i++)
        if (i != fd)
            close(i);
#ifdef __linux__
    prctl(PR_SET_NAME, "scanbench-watch", 0, 0, 0);
#endif
}

/* The watcher's life: until the pipe's end (scanbench gone, or done with the cluster), then
 * the cluster ended and removed if it is still there and still scanbench's. */
static void watch_cluster(const char *dir, int fd, pid_t owner)
{
    char c, datadir[400];
    struct owner o;
    ssize_t n;

    become_watcher(fd);
    while ((n = read(fd, &c, 1)) != 0 && (n > 0 || errno == EINTR))
        ;
    if (read_owner(dir, &o) && o.pid == (long)owner) {
        snprintf(datadir, sizeof datadir, "%s/data", dir);
        sb_pg_postmaster_end(sb_pg_postmaster_of(datadir));
        sb_pg_dir_remove(dir);
    }
    _exit(0);
}

int sb_pg_watch_start(const char *dir, pid_t *watcher)
{
    int fds[2];
    pid_t owner = getpid();

    *watcher = 0;
    if (pipe(fds) != 0)
        return -1;
    /* scanbench's end not inherited by what it runs: the postmaster must not hold it */
    if (fcntl(fds[1], F_SETFD, FD_CLOEXEC) != 0 || (*watcher = fork()) < 0) {
        close(fds[0]);
        close(fds[1]);
        *watcher = 0;
        return -1;
    }
    if (*watcher == 0)
        watch_cluster(dir, fds[0], owner);
    close(fds[0]);
    return fds[1];
}

void sb_pg_watch_stop(int fd, pid_t watcher)
{
    if (watcher <= 0)
        return;
    close(fd);
    while (waitpid(watcher, NULL, 0) < 0 && errno == EINTR)
        ;
}
