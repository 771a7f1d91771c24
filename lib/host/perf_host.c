/* SPDX-License-Identifier: BSD-3-Clause */
/* perf_host.c: the host's perf_event facts (kernel PMUs, paranoid level, capabilities). */
#include "config.h"
#include "host/perf_host.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CAP_BIT_SYS_ADMIN 21
#define CAP_BIT_PERFMON 38
#define PERF_TYPE_RAW_ID 4 /* the core PMU's type in linux/perf_event.h */

static bool read_long(const char *path, long *value)
{
    FILE *f = fopen(path, "r");
    bool ok = f && fscanf(f, "%ld", value) == 1;

    if (f)
        fclose(f);
    return ok;
}

static void read_caps(struct sb_perf_host *h, const char *root)
{
    char path[512], line[256];
    FILE *f;

    snprintf(path, sizeof path, "%s/proc/self/status", root);
    f = fopen(path, "r");
    while (f && fgets(line, sizeof line, f)) {
        unsigned long long caps;
        if (sscanf(line, "CapEff: %llx", &caps) == 1) {
            h->cap_sys_admin = (caps >> CAP_BIT_SYS_ADMIN) & 1;
            h->cap_perfmon = (caps >> CAP_BIT_PERFMON) & 1;
        }
    }
    if (f)
        fclose(f);
}

static void read_kernel_pmus(struct sb_perf_host *h, const char *root)
{
    char dir[512];
    size_t used = 0;
    struct dirent *e;
    DIR *d;

    snprintf(dir, sizeof dir, "%s/sys/bus/event_source/devices", root);
    d = opendir(dir);
    while (d && (e = readdir(d)) != NULL) {
        char path[1024];
        long type;
        if (e->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "%s/%s/type", dir, e->d_name);
        if (read_long(path, &type) && type == PERF_TYPE_RAW_ID)
            h->kernel_core_pmu = true;
        if (used < sizeof h->kernel_pmus)
            used += (size_t)snprintf(h->kernel_pmus + used, sizeof h->kernel_pmus - used,
                                     "%s%s", used ? " " : "", e->d_name);
    }
    if (d)
        closedir(d);
}

void sb_perf_host_detect(struct sb_perf_host *h, const char *root)
{
    char path[512];
    long paranoid;

    memset(h, 0, sizeof *h);
    sb_cpu_id_detect(&h->cpu);
    snprintf(path, sizeof path, "%s/proc/sys/kernel/perf_event_paranoid", root);
    h->paranoid_known = read_long(path, &paranoid);
    h->paranoid = (int)paranoid;
    if (!h->paranoid_known)
        h->paranoid = 0;
    read_caps(h, root);
    read_kernel_pmus(h, root);
}

void sb_perf_host_obstacles(const struct sb_perf_host *h, bool system_wide, char *buf,
                            size_t len)
{
    bool privileged = h->cap_perfmon || h->cap_sys_admin;
    size_t used = 0;

    buf[0] = '\0';
    if (!h->kernel_core_pmu)
        used += (size_t)snprintf(buf, len, "the kernel registered no hardware PMU "
                                 "(/sys/bus/event_source/devices: %s)%s%s%s",
                                 h->kernel_pmus[0] ? h->kernel_pmus : "nothing",
                                 h->cpu.hypervisor ? "; this is a virtual machine" : "",
                                 h->cpu.hypervisor_vendor[0] ? " under " : "",
                                 h->cpu.hypervisor_vendor);
    if (!h->paranoid_known || privileged || used >= len)
        return;
    if (!system_wide && h->paranoid > 2)
        snprintf(buf + used, len - used, "%sperf_event_paranoid is %d: counting needs <= 2 "
                 "or CAP_PERFMON", used ? "; " : "", h->paranoid);
    else if (system_wide && h->paranoid > 0)
        snprintf(buf + used, len - used, "%sperf_event_paranoid is %d: CPU-wide (uncore) "
                 "events need <= 0 or CAP_PERFMON", used ? "; " : "", h->paranoid);
}
