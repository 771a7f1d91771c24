/* SPDX-License-Identifier: BSD-3-Clause */
/* around.h: what the kernel says happened around one timed statement, read before and after it
 * (outside the timed region): the backend's own time on a CPU and waiting for one
 * (/proc/PID/schedstat, every server version has it), the other server processes' time on a
 * CPU, the host's busy and steal time (/proc/stat), the kernel's dirty and writeback bytes at
 * the start and the bytes written out during it (/proc/meminfo, /proc/vmstat). Linux only;
 * elsewhere, or when a file cannot be read, the figures are NAN and `why` says so. */
#ifndef SB_PG_AROUND_H
#define SB_PG_AROUND_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define SB_PG_AROUND_PIDS 256 /* server processes followed at most */

/* One reading, before or after a statement. */
struct sb_pg_around_read {
    uint64_t backend_run_ns, backend_wait_ns; /* the timed backend's */
    uint64_t backend_minflt;                  /* its minor page faults (/proc/PID/stat) */
    int backend_cpu;                          /* the CPU it last ran on; -1: unknown */
    uint64_t others_run_ns;                   /* every other server process's */
    uint64_t busy_ticks, steal_ticks;         /* all CPUs, USER_HZ */
    uint64_t dirty_kb, writeback_kb;          /* /proc/meminfo */
    uint64_t pgpgout_kb;                      /* /proc/vmstat pgpgout: KB written out */
    bool ok;
};

/* Across one statement, in seconds and bytes (NAN where not measured). */
struct sb_pg_around {
    double on_cpu, waiting;   /* the backend: on a CPU, runnable but waiting for one */
    double others_on_cpu;     /* the other server processes (every cluster's) on a CPU */
    double host_busy, steal;  /* every CPU's busy time (the backend's included), steal */
    double dirty_bytes;       /* dirty + writeback at the start */
    double written_bytes;     /* written out by the kernel during the statement */
    double minor_faults;      /* the backend's minor page faults during it */
    int cpu;                  /* the CPU the backend ran on at its end; -1: unknown */
};

/* The processes whose time is read: the timed backend and every server process of the
 * clusters (each postmaster and its children), but the backend. */
struct sb_pg_around_pids {
    pid_t backend;
    pid_t others[SB_PG_AROUND_PIDS];
    size_t nothers;
};

/* The postmasters' children and the postmasters themselves, but the backend, into pids. */
void sb_pg_around_pids(struct sb_pg_around_pids *pids, pid_t backend,
                       const pid_t *postmasters, size_t npostmasters);

/* A reading now. */
void sb_pg_around_read(const struct sb_pg_around_pids *pids, struct sb_pg_around_read *r);

/* The figures across [before, after]. */
void sb_pg_around_between(const struct sb_pg_around_read *before,
                          const struct sb_pg_around_read *after, struct sb_pg_around *out);

/* A scan's record of it: {on_cpu, waiting, off_cpu, others_on_cpu, host_busy, steal,
 * dirty_bytes, written_bytes, minor_faults, cpu}, off_cpu = seconds - on_cpu - waiting; null fields where not
 * measured. */
json_t *sb_pg_around_json(const struct sb_pg_around *a, double seconds);

#endif
