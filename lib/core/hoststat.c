/* SPDX-License-Identifier: BSD-3-Clause */
/* hoststat.c: reading the host's steal time from /proc/stat. */
#include "config.h"
#include "core/hoststat.h"

#include <math.h>
#include <stdio.h>
#include <unistd.h>

double sb_host_steal_seconds_from(const char *path)
{
    unsigned long long v[8];
    long hz = sysconf(_SC_CLK_TCK);
    FILE *f = fopen(path, "r");
    int n;

    if (!f)
        return NAN;
    /* cpu  user nice system idle iowait irq softirq steal guest guest_nice (USER_HZ ticks) */
    n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3],
               &v[4], &v[5], &v[6], &v[7]);
    fclose(f);
    if (n != 8 || hz <= 0)
        return NAN;
    return (double)v[7] / (double)hz;
}

double sb_host_steal_seconds(void) { return sb_host_steal_seconds_from("/proc/stat"); }
