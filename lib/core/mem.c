/* mem.c: allocation of the IO cache and the pool, and the memory limits checked before it
 * (MemAvailable, RLIMIT_AS, the process's cgroup and its ancestors). */
#include "config.h"
#include "core/mem.h"

#include <inttypes.h>
#include <malloc.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "core/units.h"
#include "core/utf8.h"

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

/* The number after `label` on a line of path (e.g. "VmSize:" in /proc/self/status); 0 when
 * there is none. */
static int read_labelled(const char *path, const char *label, const char *format, void *value)
{
    FILE *f = fopen(path, "r");
    char line[256];
    int ok = 0;

    if (!f)
        return 0;
    while (!ok && fgets(line, sizeof line, f))
        ok = strncmp(line, label, strlen(label)) == 0 &&
             sscanf(line + strlen(label), format, value) == 1;
    fclose(f);
    return ok;
}

static void consider(struct sb_mem_limit *limit, uint64_t bytes, const char *source)
{
    if (bytes < limit->bytes) {
        limit->bytes = bytes;
        sb_utf8_copy(limit->source, sizeof limit->source, source);
    }
}

/* RLIMIT_AS (ulimit -v), less the address space the process already has. */
static void address_space(struct sb_mem_limit *limit, const char *proc_root)
{
    char path[512], soft[32], a[32], b[32], source[160];
    uint64_t max, kb = 0;

    snprintf(path, sizeof path, "%s/proc/self/limits", proc_root);
    if (!read_labelled(path, "Max address space", "%31s", soft) || !sb_parse_uint(soft, &max))
        return; /* "unlimited", or no /proc */
    snprintf(path, sizeof path, "%s/proc/self/status", proc_root);
    read_labelled(path, "VmSize:", "%" SCNu64, &kb);
    snprintf(source, sizeof source, "RLIMIT_AS (ulimit -v) %s less %s mapped (VmSize)",
             sb_format_size(max, a, sizeof a), sb_format_size(kb * 1024, b, sizeof b));
    consider(limit, max > kb * 1024 ? max - kb * 1024 : 0, source);
}

/* One cgroup directory's limit less its usage (v2: memory.max and memory.current; v1:
 * memory.limit_in_bytes and memory.usage_in_bytes); dir is shown from cgroup_root on. */
static void cgroup_dir(struct sb_mem_limit *limit, const char *cgroup_root, const char *dir,
                       bool v2)
{
    char path[4608], source[640], a[32], b[32];
    uint64_t max, usage;

    snprintf(path, sizeof path, "%s%s/%s", cgroup_root, dir, v2 ? "memory.max" :
             "memory.limit_in_bytes");
    if (!read_u64_file(path, &max))
        return; /* "max", or no such file at this level */
    snprintf(path, sizeof path, "%s%s/%s", cgroup_root, dir, v2 ? "memory.current" :
             "memory.usage_in_bytes");
    if (!read_u64_file(path, &usage))
        usage = 0;
    /* usage above the limit (while reclaim catches up) is taken as none */
    snprintf(source, sizeof source, "%s/%s %s less %s %s", dir,
             v2 ? "memory.max" : "memory.limit_in_bytes", sb_format_size(max, a, sizeof a),
             v2 ? "memory.current" : "memory.usage_in_bytes",
             usage > max ? "(above it: taken as 0)" : sb_format_size(usage, b, sizeof b));
    if (usage > max)
        usage = 0;
    consider(limit, max - usage, source);
}

/* The cgroup at rel (from /proc/self/cgroup) under mount (/sys/fs/cgroup, or its memory
 * hierarchy for v1), and each of its ancestors up to the mount's root. */
static void cgroup_tree(struct sb_mem_limit *limit, const char *cgroup_root, const char *mount,
                        const char *rel, bool v2)
{
    char dir[4096];
    char *slash;

    if ((size_t)snprintf(dir, sizeof dir, "%s%s", mount, rel[0] == '/' ? rel : "/") >= sizeof dir)
        snprintf(dir, sizeof dir, "%s", mount);
    for (size_t len = strlen(dir); len > strlen(mount) && dir[len - 1] == '/'; len--)
        dir[len - 1] = '\0';
    for (;;) {
        cgroup_dir(limit, cgroup_root, dir, v2);
        if (strlen(dir) <= strlen(mount) || !(slash = strrchr(dir, '/')) ||
            slash < dir + strlen(mount))
            break;
        *slash = '\0';
    }
}

/* Whether the v1 controllers list (e.g. "cpu,memory") names memory. */
static bool has_memory(const char *controllers, size_t len)
{
    for (const char *p = controllers; p < controllers + len;) {
        size_t n = strcspn(p, ",:");
        if (n == 6 && strncmp(p, "memory", 6) == 0)
            return true;
        p += n + 1;
    }
    return false;
}

/* The process's cgroups, from /proc/self/cgroup: v2's "0::/PATH" and v1's memory controller.
 * Without that file (no /proc), the mounts' roots as they are. */
static void cgroups(struct sb_mem_limit *limit, const char *proc_root, const char *cgroup_root)
{
    char path[512], line[4096];
    bool found = false;
    FILE *f;

    snprintf(path, sizeof path, "%s/proc/self/cgroup", proc_root);
    if ((f = fopen(path, "r"))) {
        while (fgets(line, sizeof line, f)) {
            char *first = strchr(line, ':'), *second = first ? strchr(first + 1, ':') : NULL;
            if (!second)
                continue;
            line[strcspn(line, "\n")] = '\0';
            if (strncmp(line, "0::", 3) == 0) {
                cgroup_tree(limit, cgroup_root, "/sys/fs/cgroup", second + 1, true);
                found = true;
            } else if (has_memory(first + 1, (size_t)(second - first - 1))) {
                cgroup_tree(limit, cgroup_root, "/sys/fs/cgroup/memory", second + 1, false);
                found = true;
            }
        }
        fclose(f);
    }
    if (!found) {
        cgroup_dir(limit, cgroup_root, "/sys/fs/cgroup", true);
        cgroup_dir(limit, cgroup_root, "/sys/fs/cgroup/memory", false);
    }
}

void sb_mem_limit_read(struct sb_mem_limit *limit, const char *proc_root, const char *cgroup_root)
{
    char path[512];
    uint64_t kb;

    limit->bytes = UINT64_MAX;
    snprintf(limit->source, sizeof limit->source, "no limit found");
    snprintf(path, sizeof path, "%s/proc/meminfo", proc_root);
    if (read_labelled(path, "MemAvailable:", "%" SCNu64, &kb))
        consider(limit, kb * 1024, "MemAvailable");
    address_space(limit, proc_root);
    cgroups(limit, proc_root, cgroup_root);
}

/* Linux 5.14's madvise that faults every page of a range in, writable, in one call. */
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

/* One store per page from user space, of the byte already there. Under a hypervisor that
 * shadows the guest's page tables, the kernel's populate fills the guest's entries but not the
 * shadow's, and the first user access to each page then exits to the hypervisor: about 6 us a
 * 4KB page on this project's VMs, where a 1GB pool's first scan ran at 700 MB/s and later ones
 * at 9000 (doc/reproduction.md). The stores take that cost here, outside any timed scan; on bare
 * metal they take about 0.3 ms a GB. */
struct touch_part {
    volatile unsigned char *bytes;
    size_t len, step;
};

static void *touch_part(void *arg)
{
    const struct touch_part *t = arg;

    for (size_t off = 0; off < t->len; off += t->step)
        t->bytes[off] = t->bytes[off];
    return NULL;
}

/* touch_part over [p, p + len), split between up to TOUCH_THREADS threads when it is long
 * (those exits run in parallel: 1GB took 1.25 s on one CPU of the VM, 0.7 s on two). */
#define TOUCH_THREADS 4
#define TOUCH_SPLIT (64ull << 20)

static void touch_pages(void *p, size_t len)
{
    long page = sysconf(_SC_PAGESIZE);
    size_t step = page > 0 ? (size_t)page : 4096, share;
    struct touch_part part[TOUCH_THREADS];
    pthread_t thread[TOUCH_THREADS];
    bool started[TOUCH_THREADS] = {false};
    cpu_set_t cpus;
    int n = 1;

    if (len >= TOUCH_SPLIT && sched_getaffinity(0, sizeof cpus, &cpus) == 0)
        n = CPU_COUNT(&cpus) < TOUCH_THREADS ? CPU_COUNT(&cpus) : TOUCH_THREADS;
    n = n < 1 ? 1 : n;
    share = (len / (size_t)n + step - 1) / step * step;
    for (int k = 0; k < n; k++) {
        size_t off = (size_t)k * share;
        part[k] = (struct touch_part){(volatile unsigned char *)p + off,
                                      off >= len ? 0 : (len - off < share ? len - off : share),
                                      step};
        if (k > 0)
            started[k] = pthread_create(&thread[k], NULL, touch_part, &part[k]) == 0;
    }
    for (int k = 0; k < n; k++)
        if (k == 0 || !started[k])
            touch_part(&part[k]);
    for (int k = 1; k < n; k++)
        if (started[k])
            pthread_join(thread[k], NULL);
}

/* Every page of [p, p + len) backed now (where the memory policy set on it says), not at its
 * first touch in a timed region: one madvise, 20 times as fast as a page fault per page on a
 * VM (1GB: 0.15 s against 2.8 s here), then one store per page (touch_pages); a memset where
 * the kernel lacks the madvise. */
void sb_mem_populate(void *p, size_t len)
{
    if (madvise(p, len, MADV_POPULATE_WRITE) != 0)
        memset(p, 0, len);
    else
        touch_pages(p, len);
}

void *sb_mem_alloc(size_t len)
{
    void *p = sb_mem_keep_take(len, 0);

    if (p)
        return p;
    p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    sb_mem_populate(p, len);
    return p;
}

void sb_mem_free(void *ptr, size_t len)
{
    if (ptr)
        sb_mem_keep_put(ptr, len, 0);
}

uint64_t sb_mem_peak_rss(void)
{
    struct rusage ru;

    if (getrusage(RUSAGE_SELF, &ru) != 0)
        return 0;
    return (uint64_t)ru.ru_maxrss * 1024;
}

uint64_t sb_mem_thread_bytes(void)
{
    pthread_attr_t attr;
    size_t stack = 8u << 20, guard = 4096;

    if (pthread_attr_init(&attr) == 0) {
        pthread_attr_getstacksize(&attr, &stack);
        pthread_attr_getguardsize(&attr, &guard);
        pthread_attr_destroy(&attr);
    }
    return (uint64_t)stack + guard;
}

void sb_mem_one_arena(void)
{
#ifdef M_ARENA_MAX
    mallopt(M_ARENA_MAX, 1);
#endif
}
