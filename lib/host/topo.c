/* SPDX-License-Identifier: BSD-3-Clause */
/* topo.c: cache sizes, line sizes, associativity, cores and NUMA nodes from hwloc, sysfs or
 * (the caches, last) CPUID; the
 * process's one hwloc topology (hwloc_shared.h). */
#include "config.h"
#include "host/topo.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "host/cache_cpuid.h"
#include "host/hwloc_shared.h"

#ifdef HAVE_HWLOC
#include <pthread.h>

static hwloc_topology_t shared;
static pthread_once_t shared_once = PTHREAD_ONCE_INIT;

static void shared_free(void)
{
    hwloc_topology_destroy(shared);
    shared = NULL;
}

static void shared_load(void)
{
    hwloc_topology_t t;

    if (hwloc_topology_init(&t) != 0)
        return;
    if (hwloc_topology_load(t) != 0) {
        hwloc_topology_destroy(t);
        return;
    }
    shared = t;
    atexit(shared_free);
}

hwloc_topology_t sb_hwloc_topology(void)
{
    pthread_once(&shared_once, shared_load);
    return shared;
}
#endif

static void set_figure(struct sb_figure *f, uint64_t value, const char *source)
{
    if (f->value == 0 && value != 0) {
        f->value = value;
        f->source = source;
    }
}

static void topology_clear(struct sb_topology *topo)
{
    struct sb_figure unknown = {0, "unknown"};

    for (int l = 0; l < SB_NLEVELS; l++)
        topo->cache[l].size = topo->cache[l].line = topo->cache[l].assoc = unknown;
    topo->cores = topo->pus = topo->numa_nodes = unknown;
}

#ifdef HAVE_HWLOC
static void fill_from_hwloc(struct sb_topology *topo, hwloc_topology_t t)
{
    static const hwloc_obj_type_t types[SB_NLEVELS] = {HWLOC_OBJ_L1CACHE, HWLOC_OBJ_L2CACHE,
                                                       HWLOC_OBJ_L3CACHE};
    for (int l = 0; l < SB_NLEVELS; l++) {
        hwloc_obj_t obj = hwloc_get_next_obj_by_type(t, types[l], NULL);
        if (!obj || !obj->attr)
            continue;
        set_figure(&topo->cache[l].size, obj->attr->cache.size, "hwloc");
        set_figure(&topo->cache[l].line, obj->attr->cache.linesize, "hwloc");
        if (obj->attr->cache.associativity > 0)
            set_figure(&topo->cache[l].assoc, (uint64_t)obj->attr->cache.associativity, "hwloc");
    }
    set_figure(&topo->cores, (uint64_t)hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_CORE), "hwloc");
    set_figure(&topo->pus, (uint64_t)hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_PU), "hwloc");
    set_figure(&topo->numa_nodes, (uint64_t)hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_NUMANODE),
               "hwloc");
}
#endif

int sb_topology_from_hwloc_synthetic(struct sb_topology *topo, const char *description)
{
    topology_clear(topo);
#ifdef HAVE_HWLOC
    hwloc_topology_t t;
    int rc = -1;

    if (hwloc_topology_init(&t) != 0)
        return -1;
    if (hwloc_topology_set_synthetic(t, description) == 0 && hwloc_topology_load(t) == 0) {
        fill_from_hwloc(topo, t);
        rc = 0;
    }
    hwloc_topology_destroy(t);
    return rc;
#else
    (void)description;
    return -1;
#endif
}

static int read_text(const char *path, char *buf, size_t len)
{
    FILE *f = fopen(path, "r");
    int ok = 0;

    if (!f)
        return 0;
    if (fgets(buf, (int)len, f)) {
        buf[strcspn(buf, "\n")] = '\0';
        ok = 1;
    }
    fclose(f);
    return ok;
}

/* Counts entries named <prefix><digits> in dir. */
static uint64_t count_entries(const char *dir, const char *prefix)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    uint64_t n = 0;
    size_t plen = strlen(prefix);

    if (!d)
        return 0;
    while ((e = readdir(d)) != NULL)
        if (strncmp(e->d_name, prefix, plen) == 0 && e->d_name[plen] >= '0' &&
            e->d_name[plen] <= '9')
            n++;
    closedir(d);
    return n;
}

/* Distinct core ids: (physical_package_id, core_id) pairs over cpuN/topology. */
static uint64_t count_cores(const char *root)
{
    char path[512], pkg[32], core[32];
    char seen[256][64];
    uint64_t n = 0, cpus;

    snprintf(path, sizeof path, "%s/sys/devices/system/cpu", root);
    cpus = count_entries(path, "cpu");
    for (uint64_t c = 0; c < cpus && n < 256; c++) {
        char key[64];
        int dup = 0;
        snprintf(path, sizeof path, "%s/sys/devices/system/cpu/cpu%llu/topology/core_id", root,
                 (unsigned long long)c);
        if (!read_text(path, core, sizeof core))
            continue;
        snprintf(path, sizeof path,
                 "%s/sys/devices/system/cpu/cpu%llu/topology/physical_package_id", root,
                 (unsigned long long)c);
        if (!read_text(path, pkg, sizeof pkg))
            snprintf(pkg, sizeof pkg, "0");
        snprintf(key, sizeof key, "%s/%s", pkg, core);
        for (uint64_t i = 0; i < n && !dup; i++)
            dup = strcmp(seen[i], key) == 0;
        if (!dup)
            snprintf(seen[n++], sizeof seen[0], "%s", key);
    }
    return n;
}

static void fill_from_sysfs(struct sb_topology *topo, const char *root)
{
    char path[512], text[64];

    for (int idx = 0; idx < 16; idx++) {
        char base[448];
        uint64_t level = 0, size = 0, line = 0, ways = 0;
        int l;

        snprintf(base, sizeof base, "%s/sys/devices/system/cpu/cpu0/cache/index%d", root, idx);
        snprintf(path, sizeof path, "%s/level", base);
        if (!read_text(path, text, sizeof text))
            break;
        level = strtoull(text, NULL, 10);
        snprintf(path, sizeof path, "%s/type", base);
        if (!read_text(path, text, sizeof text) || strcmp(text, "Instruction") == 0)
            continue;
        if (level < 1 || level > 3)
            continue;
        l = (int)level - 1;
        snprintf(path, sizeof path, "%s/size", base);
        if (read_text(path, text, sizeof text) && sb_parse_size(text, &size))
            set_figure(&topo->cache[l].size, size, "sysfs");
        snprintf(path, sizeof path, "%s/coherency_line_size", base);
        if (read_text(path, text, sizeof text) && sb_parse_uint(text, &line))
            set_figure(&topo->cache[l].line, line, "sysfs");
        snprintf(path, sizeof path, "%s/ways_of_associativity", base);
        if (read_text(path, text, sizeof text) && sb_parse_uint(text, &ways))
            set_figure(&topo->cache[l].assoc, ways, "sysfs");
    }
    set_figure(&topo->cores, count_cores(root), "sysfs");
    snprintf(path, sizeof path, "%s/sys/devices/system/cpu", root);
    set_figure(&topo->pus, count_entries(path, "cpu"), "sysfs");
    snprintf(path, sizeof path, "%s/sys/devices/system/node", root);
    set_figure(&topo->numa_nodes, count_entries(path, "node"), "sysfs");
}

/* The caches CPUID describes, for what hwloc and sysfs left unknown. */
static void fill_from_cpuid(struct sb_topology *topo)
{
    struct sb_cpuid_cache caches[8];
    unsigned n = sb_cpuid_caches(caches, 8);

    for (unsigned i = 0; i < n; i++) {
        struct sb_cache_level *level = &topo->cache[caches[i].level - 1];
        set_figure(&level->size, caches[i].size, "cpuid");
        set_figure(&level->line, caches[i].line, "cpuid");
        if (!caches[i].ways_unknown)
            set_figure(&level->assoc, caches[i].ways, "cpuid");
    }
}

void sb_topology_from_sysfs(struct sb_topology *topo, const char *sysfs_root)
{
    topology_clear(topo);
    fill_from_sysfs(topo, sysfs_root);
}

void sb_topology_detect(struct sb_topology *topo, const char *sysfs_root)
{
    topology_clear(topo);
#ifdef HAVE_HWLOC
    if (sb_hwloc_topology())
        fill_from_hwloc(topo, sb_hwloc_topology());
#endif
    fill_from_sysfs(topo, sysfs_root);
    fill_from_cpuid(topo);
}

void sb_topology_override_size(struct sb_topology *topo, int level, uint64_t bytes)
{
    topo->cache[level].size.value = bytes;
    topo->cache[level].size.source = "config";
}

void sb_topology_override_line(struct sb_topology *topo, uint64_t bytes)
{
    for (int l = 0; l < SB_NLEVELS; l++) {
        topo->cache[l].line.value = bytes;
        topo->cache[l].line.source = "config";
    }
}
