/* mem.c: allocation of the IO cache and the pool, and the memory limits checked before it. */
#include "config.h"
#include "mem.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>

#include "placement.h"

static int read_u64_file(const char *path, uint64_t *value)
{
    FILE *f = fopen(path, "r");
    char buf[64];
    int ok = 0;

    if (!f)
        return 0;
    if (fgets(buf, sizeof buf, f) && sscanf(buf, "%" SCNu64, value) == 1)
        ok = 1;
    fclose(f);
    return ok;
}

static void consider(struct sb_mem_limit *limit, uint64_t bytes, const char *source)
{
    if (bytes < limit->bytes) {
        limit->bytes = bytes;
        snprintf(limit->source, sizeof limit->source, "%s", source);
    }
}

void sb_mem_limit_read(struct sb_mem_limit *limit, const char *proc_root, const char *cgroup_root)
{
    char path[512], line[256];
    uint64_t max, usage;
    FILE *f;

    limit->bytes = UINT64_MAX;
    snprintf(limit->source, sizeof limit->source, "no limit found");

    snprintf(path, sizeof path, "%s/proc/meminfo", proc_root);
    if ((f = fopen(path, "r"))) {
        uint64_t kb;
        while (fgets(line, sizeof line, f))
            if (sscanf(line, "MemAvailable: %" SCNu64 " kB", &kb) == 1)
                consider(limit, kb * 1024, "MemAvailable");
        fclose(f);
    }
    /* cgroup v2: the limit of the cgroup this runs in, less what it already uses. */
    snprintf(path, sizeof path, "%s/sys/fs/cgroup/memory.max", cgroup_root);
    if (read_u64_file(path, &max)) {
        snprintf(path, sizeof path, "%s/sys/fs/cgroup/memory.current", cgroup_root);
        if (!read_u64_file(path, &usage) || usage > max)
            usage = 0;
        consider(limit, max - usage, "cgroup memory.max less memory.current");
    }
    /* cgroup v1 */
    snprintf(path, sizeof path, "%s/sys/fs/cgroup/memory/memory.limit_in_bytes", cgroup_root);
    if (read_u64_file(path, &max)) {
        snprintf(path, sizeof path, "%s/sys/fs/cgroup/memory/memory.usage_in_bytes", cgroup_root);
        if (!read_u64_file(path, &usage) || usage > max)
            usage = 0;
        consider(limit, max - usage, "cgroup v1 memory.limit_in_bytes less usage");
    }
}

void *sb_mem_alloc(size_t len)
{
    void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

    if (p == MAP_FAILED)
        return NULL;
    memset(p, 0, len);
    return p;
}

void *sb_mem_alloc_placed(size_t len, const struct sb_placement *placement, int home_node,
                          struct sb_placement_found *found)
{
    void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

    if (p == MAP_FAILED)
        return NULL;
    sb_placement_bind(p, len, placement, home_node, found);
    memset(p, 0, len);
    sb_placement_verify(p, len, false, found);
    return p;
}

void sb_mem_free(void *ptr, size_t len)
{
    if (ptr)
        munmap(ptr, len);
}

uint64_t sb_mem_peak_rss(void)
{
    struct rusage ru;

    if (getrusage(RUSAGE_SELF, &ru) != 0)
        return 0;
    return (uint64_t)ru.ru_maxrss * 1024;
}
