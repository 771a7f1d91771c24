/* SPDX-License-Identifier: BSD-3-Clause */
/* cache_cpuid.h: the caches as the CPU describes them (x86 CPUID's deterministic cache
 * parameters: leaf 4 on Intel, leaf 0x8000001D on AMD; where a hypervisor hides the latter, AMD's
 * legacy leaves 0x80000005 and 0x80000006): the last source of the topology, for a
 * host whose kernel shows no sysfs cache directories (some hypervisors) and a build without
 * hwloc, which reads the same leaves. */
#ifndef SB_HOST_CACHE_CPUID_H
#define SB_HOST_CACHE_CPUID_H

#include <stdbool.h>
#include <stdint.h>

/* One cache as one subleaf describes it. */
struct sb_cpuid_cache {
    unsigned level;     /* 1, 2, 3 */
    bool data;          /* data or unified (not instruction-only) */
    uint64_t size;      /* bytes: ways x partitions x line x sets */
    uint64_t line;      /* bytes */
    uint64_t ways;      /* 0 when fully associative or unknown */
    bool ways_unknown;  /* the leaf does not say */
};

/* Decodes one subleaf's EAX, EBX, ECX (the layout leaf 4 and leaf 0x8000001D share). false when
 * the subleaf describes no cache (type 0: the list's end). */
bool sb_cpuid_cache_decode(uint32_t eax, uint32_t ebx, uint32_t ecx, struct sb_cpuid_cache *c);

/* Decodes AMD's legacy cache leaves (0x80000005 ECX: L1d; 0x80000006 ECX: L2, EDX: L3) into
 * out[0..2] (a level of size 0: absent); how many levels have a size. Associativity the leaves
 * do not give (code 9 on Zen: "see Fn8000_001D") is 0 with ways_unknown set. */
unsigned sb_cpuid_amd_legacy_decode(uint32_t ecx5, uint32_t ecx6, uint32_t edx6,
                                    struct sb_cpuid_cache out[3]);

/* Up to max caches of this CPU (data and unified, in subleaf order) into out; how many. 0 where
 * CPUID has no such leaf (not x86, or hidden by a hypervisor). */
unsigned sb_cpuid_caches(struct sb_cpuid_cache *out, unsigned max);

#endif
