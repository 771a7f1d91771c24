/* SPDX-License-Identifier: BSD-3-Clause */
/* pin.c: the backend and the server's I/O workers pinned to CPUs (key io_worker_cpu; see
 * copier.h). */
#include "config.h"
#include "pg/copier.h"
#include "pg/client.h"

#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The first two CPUs this process may run on into cpus[]; how many were found (at most 2). */
static int first_cpus(int cpus[2])
{
    cpu_set_t mask;
    int n = 0;

    if (sched_getaffinity(0, sizeof mask, &mask) != 0)
        return 0;
    for (int c = 0; c < CPU_SETSIZE && n < 2; c++)
        if (CPU_ISSET(c, &mask))
            cpus[n++] = c;
    return n;
}

static int pin(long pid, int cpu, struct sb_error *err)
{
    cpu_set_t mask;

    CPU_ZERO(&mask);
    CPU_SET(cpu, &mask);
    if (sched_setaffinity((pid_t)pid, sizeof mask, &mask) != 0)
        return sb_fail(err, SB_ERR_RUN, "io_worker_cpu: cannot pin the server's process %ld to "
                       "CPU %d: %s", pid, cpu, strerror(errno));
    return SB_OK;
}

int sb_pg_pin_io_workers(struct sb_pg_client *client, int where, char *note, size_t len,
                         struct sb_error *err)
{
    char pids[1024] = "";
    uint64_t backend;
    int cpus[2], n = first_cpus(cpus), status;
    size_t used;

    note[0] = '\0';
    if (where == 0)
        return SB_OK;
    if (n < (where == 2 ? 2 : 1))
        return sb_fail(err, SB_ERR_RUN, "io_worker_cpu = other: scanbench may run on %d CPU "
                       "here, and the I/O workers need another than the backend's", n);
    status = sb_pg_client_u64(client, "SELECT pg_backend_pid()", &backend, err);
    if (status == SB_OK)
        status = sb_pg_client_exec(client, "SELECT coalesce(string_agg(pid::text, ' ' ORDER BY "
                                   "pid), '') FROM pg_stat_activity WHERE backend_type = "
                                   "'io worker'", pids, sizeof pids, NULL, err);
    if (status == SB_OK)
        status = pin((long)backend, cpus[0], err);
    used = (size_t)snprintf(note, len, "backend %" PRIu64 " on CPU %d, ", backend, cpus[0]);
    for (char *p = pids; status == SB_OK && *p;) {
        char *end;
        long pid = strtol(p, &end, 10);
        if (end == p)
            break;
        status = pin(pid, where == 2 ? cpus[1] : cpus[0], err);
        p = end;
    }
    if (used < len && pids[0])
        snprintf(note + used, len - used, "I/O workers %s on CPU %d", pids,
                 where == 2 ? cpus[1] : cpus[0]);
    else if (used < len)
        snprintf(note + used, len - used, "no I/O worker running");
    return status;
}
