/* SPDX-License-Identifier: BSD-3-Clause */
/* mem_limit.c: how much memory a run may allocate (mem_limit.h): MemAvailable, RLIMIT_AS, the
 * process's cgroup and its ancestors. */
#include "config.h"
#include "core/mem_limit.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

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
