/* SPDX-License-Identifier: BSD-3-Clause */
/* cpu_id.h: which processor this is (vendor, family, model, stepping, as Intel's and AMD's
 * manuals number them) and whether it runs under a hypervisor: from CPUID on x86, else from
 * /proc/cpuinfo. Used to choose the counter events map (configs/events) and in diagnoses. */
#ifndef SB_CPU_ID_H
#define SB_CPU_ID_H

#include <stdbool.h>
#include <stddef.h>

struct sb_cpu_id {
    char vendor[16];            /* "GenuineIntel", "AuthenticAMD", or "" when unknown */
    unsigned family, model, stepping; /* display family and model (extended fields folded in) */
    bool hypervisor;            /* CPUID.1:ECX[31], or /sys/hypervisor/type, or "hypervisor" flag */
    char hypervisor_vendor[16]; /* CPUID 0x40000000 signature ("KVMKVMKVM"), or "" */
    const char *source;         /* "cpuid", "/proc/cpuinfo" or "unknown" */
};

void sb_cpu_id_detect(struct sb_cpu_id *id);

/* The value of the first /proc/cpuinfo line whose key is one of keys (NULL-terminated, e.g.
 * {"model name", "Processor", NULL}) into buf; false when no line has one. */
bool sb_cpuinfo_first(const char *const *keys, char *buf, size_t len);

/* Display family and model from CPUID leaf 1's EAX (the rule both vendors document). */
void sb_cpu_id_decode(unsigned eax, unsigned *family, unsigned *model, unsigned *stepping);

#endif
