/* SPDX-License-Identifier: BSD-3-Clause */
/* perf_host.h: what on this host stands between a process and hardware counters, as Linux
 * tells it: whether the kernel registered a hardware core PMU (a VM often has none), the
 * perf_event_paranoid level, CAP_PERFMON / CAP_SYS_ADMIN, and a hypervisor. No PAPI needed:
 * `scanbench events` prints it in every build. */
#ifndef SB_PERF_HOST_H
#define SB_PERF_HOST_H

#include <stdbool.h>
#include <stddef.h>

#include "host/cpu_id.h"

struct sb_perf_host {
    struct sb_cpu_id cpu;
    bool paranoid_known;
    int paranoid;            /* /proc/sys/kernel/perf_event_paranoid */
    bool cap_perfmon;        /* CAP_PERFMON (38) in the effective set */
    bool cap_sys_admin;      /* CAP_SYS_ADMIN (21) */
    bool kernel_core_pmu;    /* a PMU of type PERF_TYPE_RAW in /sys/bus/event_source/devices */
    char kernel_pmus[512];   /* the PMUs the kernel lists there, space-separated */
};

/* Reads the host below root ("/" normally; tests hand it a fake tree). */
void sb_perf_host_detect(struct sb_perf_host *h, const char *root);

/* What forbids counting here, in one sentence, or "" when nothing known does. system_wide:
 * for events bound to a CPU (uncore, `cpu=`), which need perf_event_paranoid <= 0 or
 * CAP_PERFMON; per-thread core events need <= 2 or CAP_PERFMON. */
void sb_perf_host_obstacles(const struct sb_perf_host *h, bool system_wide, char *buf,
                            size_t len);

#endif
