/* SPDX-License-Identifier: BSD-3-Clause */
/* around.c: what the kernel says happened around one timed statement (see around.h). */
#include "config.h"
#include "pg/around.h"

#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define USER_HZ 100.0 /* /proc/stat's unit (sysconf(_SC_CLK_TCK) on Linux) */

/* A process's minor faults and last CPU (/proc/PID/stat, fields 10 and 39, counted after the
 * command's closing parenthesis: a name may hold spaces). */
static void read_stat(pid_t pid, uint64_t *minflt, int *cpu);

/* A small /proc file's text into buf (NUL-terminated); false when it cannot be read. */
static bool read_text(const char *path, char *buf, size_t len)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    ssize_t n = fd >= 0 ? read(fd, buf, len - 1) : -1;

    if (fd >= 0)
        close(fd);
    buf[n > 0 ? n : 0] = '\0';
    return n > 0;
}

/* A process's time on a CPU and waiting for one (/proc/PID/schedstat), added to run and wait. */
static bool add_schedstat(pid_t pid, uint64_t *run, uint64_t *wait)
{
    char path[64], text[128];
    uint64_t r, w;

    snprintf(path, sizeof path, "/proc/%ld/schedstat", (long)pid);
    if (!read_text(path, text, sizeof text) ||
        sscanf(text, "%" SCNu64 " %" SCNu64, &r, &w) != 2)
        return false;
    *run += r;
    if (wait)
        *wait += w;
    return true;
}

/* The value after "name" in a /proc file of "name value" lines; false when absent. */
static bool field(const char *text, const char *name, uint64_t *value)
{
    size_t len = strlen(name);

    for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
        if (strncmp(p, name, len) == 0 && (p[len] == ' ' || p[len] == ':'))
            return sscanf(p + len + 1, " %" SCNu64, value) == 1;
    return false;
}

/* /proc/stat's first line: busy (everything but idle and iowait) and steal ticks. */
static bool cpu_ticks(uint64_t *busy, uint64_t *steal)
{
    char text[512];
    uint64_t v[8] = {0};

    if (!read_text("/proc/stat", text, sizeof text) ||
        sscanf(text, "cpu %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64
               " %" SCNu64 " %" SCNu64, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6],
               &v[7]) != 8)
        return false;
    *busy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7]; /* user nice system irq softirq steal */
    *steal = v[7];
    return true;
}

/* The children of pid (/proc/PID/task/PID/children) appended to pids, but skip. */
static void add_children(struct sb_pg_around_pids *pids, pid_t pid, pid_t skip)
{
    char path[96], text[4096];
    char *p = text, *end;

    snprintf(path, sizeof path, "/proc/%ld/task/%ld/children", (long)pid, (long)pid);
    if (!read_text(path, text, sizeof text))
        return;
    for (long child = strtol(p, &end, 10); end != p && pids->nothers < SB_PG_AROUND_PIDS;
         p = end, child = strtol(p, &end, 10))
        if ((pid_t)child != skip)
            pids->others[pids->nothers++] = (pid_t)child;
}

static void read_stat(pid_t pid, uint64_t *minflt, int *cpu)
{
    char path[64], text[1024];
    const char *p;
    int field = 2;

    *minflt = 0;
    *cpu = -1;
    snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
    if (!read_text(path, text, sizeof text) || !(p = strrchr(text, ')')))
        return;
    for (p++; *p && field < 39; p++)
        if (*p == ' ') {
            field++;
            if (field == 10)
                *minflt = strtoull(p + 1, NULL, 10);
            else if (field == 39)
                *cpu = (int)strtol(p + 1, NULL, 10);
        }
}

void sb_pg_around_pids(struct sb_pg_around_pids *pids, pid_t backend,
                       const pid_t *postmasters, size_t npostmasters)
{
    pids->backend = backend;
    pids->nothers = 0;
    for (size_t i = 0; i < npostmasters && pids->nothers < SB_PG_AROUND_PIDS; i++) {
        if (postmasters[i] <= 0)
            continue;
        pids->others[pids->nothers++] = postmasters[i];
        add_children(pids, postmasters[i], backend);
    }
}

void sb_pg_around_read(const struct sb_pg_around_pids *pids, struct sb_pg_around_read *r)
{
    char text[8192];
    bool ok;

    memset(r, 0, sizeof *r);
    ok = pids->backend > 0 &&
         add_schedstat(pids->backend, &r->backend_run_ns, &r->backend_wait_ns);
    if (ok)
        read_stat(pids->backend, &r->backend_minflt, &r->backend_cpu);
    for (size_t i = 0; i < pids->nothers; i++) /* a process gone meanwhile adds nothing */
        add_schedstat(pids->others[i], &r->others_run_ns, NULL);
    ok = ok && cpu_ticks(&r->busy_ticks, &r->steal_ticks);
    ok = ok && read_text("/proc/meminfo", text, sizeof text) &&
         field(text, "Dirty", &r->dirty_kb) && field(text, "Writeback", &r->writeback_kb);
    ok = ok && read_text("/proc/vmstat", text, sizeof text) &&
         field(text, "pgpgout", &r->pgpgout_kb);
    r->ok = ok;
}

static double diff(uint64_t a, uint64_t b, double unit)
{
    return b >= a ? (double)(b - a) * unit : NAN;
}

void sb_pg_around_between(const struct sb_pg_around_read *before,
                          const struct sb_pg_around_read *after, struct sb_pg_around *out)
{
    if (!before->ok || !after->ok) {
        *out = (struct sb_pg_around){NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, -1};
        return;
    }
    out->on_cpu = diff(before->backend_run_ns, after->backend_run_ns, 1e-9);
    out->waiting = diff(before->backend_wait_ns, after->backend_wait_ns, 1e-9);
    /* a process that ended between the readings takes its time away: not a negative figure */
    out->others_on_cpu = after->others_run_ns >= before->others_run_ns
                             ? diff(before->others_run_ns, after->others_run_ns, 1e-9) : NAN;
    out->host_busy = diff(before->busy_ticks, after->busy_ticks, 1.0 / USER_HZ);
    out->steal = diff(before->steal_ticks, after->steal_ticks, 1.0 / USER_HZ);
    out->dirty_bytes = (double)(before->dirty_kb + before->writeback_kb) * 1024.0;
    out->written_bytes = diff(before->pgpgout_kb, after->pgpgout_kb, 1024.0);
    out->minor_faults = diff(before->backend_minflt, after->backend_minflt, 1.0);
    out->cpu = after->backend_cpu;
}

static json_t *number(double v) { return isnan(v) ? json_null() : json_real(v); }

json_t *sb_pg_around_json(const struct sb_pg_around *a, double seconds)
{
    double off = isnan(a->on_cpu) || isnan(a->waiting) ? NAN : seconds - a->on_cpu - a->waiting;

    return json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "on_cpu",
                     number(a->on_cpu),
                     "waiting", number(a->waiting), "off_cpu", number(off), "others_on_cpu",
                     number(a->others_on_cpu), "host_busy", number(a->host_busy), "steal",
                     number(a->steal), "dirty_bytes", number(a->dirty_bytes), "written_bytes",
                     number(a->written_bytes), "minor_faults", number(a->minor_faults), "cpu",
                     a->cpu >= 0 ? json_integer(a->cpu) : json_null());
}
