/* SPDX-License-Identifier: BSD-3-Clause */
/* cache_cpuid.c: the caches from x86 CPUID's deterministic cache parameters (Intel SDM vol. 2A,
 * CPUID leaf 04H; AMD APM vol. 3, CPUID Fn8000_001D, present when Fn8000_0001 ECX bit 22,
 * TopologyExtensions, is set). Both lay a subleaf out the same way: EAX[4:0] type (0 none, 1
 * data, 2 instruction, 3 unified), EAX[7:5] level, EAX[9] fully associative; EBX[11:0] line
 * size - 1, EBX[21:12] physical line partitions - 1, EBX[31:22] ways - 1; ECX sets - 1.
 * AMD's legacy leaves (APM vol. 3, Fn8000_0005 ECX: L1d size KB [31:24], ways [23:16], line
 * [7:0]; Fn8000_0006 ECX: L2 size KB [31:16], ways code [15:12], line [7:0]; EDX: L3 size in
 * 512KB [31:18], ways code [15:12], line [7:0]) serve where a hypervisor hides Fn8000_001D. */
#include "config.h"
#include "host/cache_cpuid.h"

#include <string.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#define SB_HAVE_CPUID 1
#else
#define SB_HAVE_CPUID 0
#endif

#include "host/cpu_id.h"

#define MAX_SUBLEAVES 16

bool sb_cpuid_cache_decode(uint32_t eax, uint32_t ebx, uint32_t ecx, struct sb_cpuid_cache *c)
{
    const uint32_t type = eax & 0x1f;
    const uint64_t line = (uint64_t)(ebx & 0xfff) + 1;
    const uint64_t partitions = (uint64_t)((ebx >> 12) & 0x3ff) + 1;
    const uint64_t ways = (uint64_t)(ebx >> 22) + 1;
    const uint64_t sets = (uint64_t)ecx + 1;

    memset(c, 0, sizeof *c);
    if (type == 0)
        return false;
    c->level = (eax >> 5) & 0x7;
    c->data = type != 2;
    c->line = line;
    c->size = ways * partitions * line * sets;
    c->ways = (eax >> 9) & 1 ? 0 : ways;
    return true;
}

/* AMD's code for L2 and L3 associativity (APM vol. 3, Fn8000_0006); 0 for "see Fn8000_001D"
 * (9) or a reserved code, -1 for fully associative. */
static int amd_ways(uint32_t code)
{
    static const int ways[16] = {0, 1, 2, 3, 4, 6, 8, 0, 16, 0, 32, 48, 64, 96, 128, -1};

    return ways[code & 0xf];
}

static void amd_level(struct sb_cpuid_cache *c, unsigned level, uint64_t size, uint32_t line,
                      int ways)
{
    memset(c, 0, sizeof *c);
    c->level = level;
    c->data = true;
    c->size = size;
    c->line = line;
    c->ways = ways > 0 ? (uint64_t)ways : 0;
    c->ways_unknown = ways == 0;
}

unsigned sb_cpuid_amd_legacy_decode(uint32_t ecx5, uint32_t ecx6, uint32_t edx6,
                                    struct sb_cpuid_cache out[3])
{
    const uint32_t l1_ways = (ecx5 >> 16) & 0xff;

    amd_level(&out[0], 1, (uint64_t)(ecx5 >> 24) * 1024, ecx5 & 0xff,
              l1_ways == 0xff ? -1 : (int)l1_ways);
    amd_level(&out[1], 2, (uint64_t)(ecx6 >> 16) * 1024, ecx6 & 0xff, amd_ways(ecx6 >> 12));
    amd_level(&out[2], 3, (uint64_t)(edx6 >> 18) * 512 * 1024, edx6 & 0xff,
              amd_ways(edx6 >> 12));
    return (out[0].size > 0) + (out[1].size > 0) + (out[2].size > 0);
}

#if SB_HAVE_CPUID
/* The leaf of deterministic cache parameters this CPU has: 4, 0x8000001D, 0x80000006 for AMD's
 * legacy leaves, or 0 for none. The vendor is cpu_id.c's. */
static uint32_t cache_leaf(void)
{
    const uint32_t ext = __get_cpuid_max(0x80000000, NULL);
    struct sb_cpu_id id;
    uint32_t a, b, c, d;

    sb_cpu_id_detect(&id);
    if (strcmp(id.vendor, "AuthenticAMD") == 0 || strcmp(id.vendor, "HygonGenuine") == 0) {
        if (ext >= 0x8000001D && __get_cpuid(0x80000001, &a, &b, &c, &d) && (c & (1u << 22)))
            return 0x8000001D;
        return ext >= 0x80000006 ? 0x80000006 : 0;
    }
    return __get_cpuid_max(0, NULL) >= 4 ? 4 : 0;
}

/* AMD's legacy leaves: the levels that have a size, in order. */
static unsigned amd_legacy(struct sb_cpuid_cache *out, unsigned max)
{
    struct sb_cpuid_cache levels[3];
    uint32_t a, b, ecx5, edx5, ecx6, edx6;
    unsigned n = 0;

    if (!__get_cpuid(0x80000005, &a, &b, &ecx5, &edx5) ||
        !__get_cpuid(0x80000006, &a, &b, &ecx6, &edx6))
        return 0;
    sb_cpuid_amd_legacy_decode(ecx5, ecx6, edx6, levels);
    for (unsigned l = 0; l < 3 && n < max; l++)
        if (levels[l].size)
            out[n++] = levels[l];
    return n;
}

unsigned sb_cpuid_caches(struct sb_cpuid_cache *out, unsigned max)
{
    const uint32_t leaf = cache_leaf();
    unsigned n = 0;
    uint32_t a, b, c, d;

    if (leaf == 0x80000006)
        return amd_legacy(out, max);
    for (unsigned sub = 0; leaf && sub < MAX_SUBLEAVES && n < max; sub++) {
        __cpuid_count(leaf, sub, a, b, c, d);
        if (!sb_cpuid_cache_decode(a, b, c, &out[n]))
            break;
        if (out[n].data && out[n].level >= 1 && out[n].level <= 3)
            n++;
    }
    (void)d;
    return n;
}
#else
unsigned sb_cpuid_caches(struct sb_cpuid_cache *out, unsigned max)
{
    (void)out;
    (void)max;
    return 0;
}
#endif
