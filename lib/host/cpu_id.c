/* SPDX-License-Identifier: BSD-3-Clause */
/* cpu_id.c: the processor's vendor/family/model and the hypervisor bit, from CPUID or
 * /proc/cpuinfo. */
#include "config.h"
#include "host/cpu_id.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#define SB_HAVE_CPUID 1
#else
#define SB_HAVE_CPUID 0
#endif

void sb_cpu_id_decode(unsigned eax, unsigned *family, unsigned *model, unsigned *stepping)
{
    unsigned base_family = (eax >> 8) & 0xf, base_model = (eax >> 4) & 0xf;

    *stepping = eax & 0xf;
    *family = base_family == 0xf ? base_family + ((eax >> 20) & 0xff) : base_family;
    *model = base_family == 0x6 || base_family == 0xf ? (((eax >> 16) & 0xf) << 4) + base_model
                                                      : base_model;
}

#if SB_HAVE_CPUID
static bool from_cpuid(struct sb_cpu_id *id)
{
    unsigned a, b, c, d;

    if (!__get_cpuid(0, &a, &b, &c, &d))
        return false;
    memcpy(id->vendor, &b, 4);
    memcpy(id->vendor + 4, &d, 4);
    memcpy(id->vendor + 8, &c, 4);
    id->vendor[12] = '\0';
    if (!__get_cpuid(1, &a, &b, &c, &d))
        return false;
    sb_cpu_id_decode(a, &id->family, &id->model, &id->stepping);
    id->hypervisor = (c >> 31) & 1;
    if (id->hypervisor) {
        __cpuid(0x40000000, a, b, c, d);
        memcpy(id->hypervisor_vendor, &b, 4);
        memcpy(id->hypervisor_vendor + 4, &c, 4);
        memcpy(id->hypervisor_vendor + 8, &d, 4);
        id->hypervisor_vendor[12] = '\0';
    }
    id->source = "cpuid";
    return true;
}
#endif

/* The value after "key<spaces>: " on a /proc/cpuinfo line, or NULL. */
static const char *cpuinfo_value(char *line, const char *key)
{
    size_t n = strlen(key);
    char *colon;

    if (strncmp(line, key, n) != 0 || (line[n] != ' ' && line[n] != '\t' && line[n] != ':'))
        return NULL;
    colon = strchr(line, ':');
    if (!colon)
        return NULL;
    colon[strcspn(colon, "\n")] = '\0';
    return colon[1] == ' ' ? colon + 2 : colon + 1;
}

bool sb_cpuinfo_first(const char *const *keys, char *buf, size_t len)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[4096];
    const char *v = NULL;

    while (f && !v && fgets(line, sizeof line, f))
        for (const char *const *k = keys; !v && *k; k++)
            v = cpuinfo_value(line, *k);
    if (v)
        snprintf(buf, len, "%s", v);
    if (f)
        fclose(f);
    return v != NULL;
}

static void from_proc_cpuinfo(struct sb_cpu_id *id)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[4096];
    bool have_family = false;

    while (f && fgets(line, sizeof line, f)) {
        const char *v;
        if (line[0] == '\n')
            break; /* the first processor is enough */
        if ((v = cpuinfo_value(line, "vendor_id")))
            snprintf(id->vendor, sizeof id->vendor, "%s", v);
        else if ((v = cpuinfo_value(line, "cpu family"))) {
            id->family = (unsigned)strtoul(v, NULL, 10);
            have_family = true;
        } else if ((v = cpuinfo_value(line, "model")))
            id->model = (unsigned)strtoul(v, NULL, 10);
        else if ((v = cpuinfo_value(line, "stepping")))
            id->stepping = (unsigned)strtoul(v, NULL, 10);
        else if ((v = cpuinfo_value(line, "flags")))
            id->hypervisor = strstr(v, " hypervisor") != NULL;
    }
    if (f)
        fclose(f);
    id->source = have_family ? "/proc/cpuinfo" : "unknown";
}

void sb_cpu_id_detect(struct sb_cpu_id *id)
{
    FILE *f;

    memset(id, 0, sizeof *id);
#if SB_HAVE_CPUID
    if (!from_cpuid(id))
#endif
        from_proc_cpuinfo(id);
    /* Xen (and some others) also say so here, even to a guest whose CPUID hides it. */
    f = fopen("/sys/hypervisor/type", "r");
    if (f) {
        char type[16] = "";
        if (fgets(type, sizeof type, f) && type[0] && type[0] != '\n') {
            id->hypervisor = true;
            if (!id->hypervisor_vendor[0]) {
                type[strcspn(type, "\n")] = '\0';
                snprintf(id->hypervisor_vendor, sizeof id->hypervisor_vendor, "%s", type);
            }
        }
        fclose(f);
    }
}
