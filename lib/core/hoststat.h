/* SPDX-License-Identifier: BSD-3-Clause */
/* hoststat.h: what the host did to a measurement from outside the process: the steal time a
 * hypervisor took from this VM's CPUs (/proc/stat's `cpu` line, all CPUs together), read before
 * and after each timed scan so that a reader can see which scans were contaminated. */
#ifndef SB_HOSTSTAT_H
#define SB_HOSTSTAT_H

/* Steal seconds since boot, all CPUs together; NaN when /proc/stat does not say. */
double sb_host_steal_seconds(void);

/* The same, read from a file in /proc/stat's format (tests). */
double sb_host_steal_seconds_from(const char *path);

#endif
