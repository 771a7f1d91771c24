/* SPDX-License-Identifier: BSD-3-Clause */
/* placement.c: NUMA placement through libnuma's system-call wrappers (mbind, set_mempolicy,
 * move_pages); libnuma's own allocators are not used, since they print their errors. */
#include "config.h"
#include "host/placement.h"

#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#ifdef HAVE_NUMA
#include <numa.h>
#include <numaif.h>
#endif

#include "core/core.h"

bool sb_placement_parse(const char *text, struct sb_placement *placement)
{
    char *end;
    unsigned long node;

    memset(placement, 0, sizeof *placement);
    if (strcmp(text, "local") == 0)
        return true;
    if (strcmp(text, "remote") == 0) {
        placement->kind = SB_PLACE_REMOTE;
        return true;
    }
    if (strcmp(text, "interleave") == 0) {
        placement->kind = SB_PLACE_INTERLEAVE;
        return true;
    }
    if (text[0] < '0' || text[0] > '9')
        return false;
    errno = 0;
    node = strtoul(text, &end, 10);
    if (errno || *end != '\0' || node >= 4096)
        return false;
    placement->kind = SB_PLACE_NODE;
    placement->node = (int)node;
    return true;
}

static void placement_name(const struct sb_placement *placement, char *buf, size_t len)
{
    static const char *const names[] = {"local", "remote", "interleave", "node"};
    if (placement->kind == SB_PLACE_NODE)
        snprintf(buf, len, "node %d", placement->node);
    else
        snprintf(buf, len, "%s", names[placement->kind]);
}

#ifdef HAVE_NUMA

static bool numa_ready(void)
{
    static int state; /* 0 unknown, 1 available, -1 not */
    if (state == 0)
        state = numa_available() < 0 ? -1 : 1;
    return state > 0;
}

static bool node_allowed(int node)
{
    return node >= 0 && node <= numa_max_node() &&
           numa_bitmask_isbitset(numa_all_nodes_ptr, (unsigned)node);
}

int sb_numa_nodes(void)
{
    return numa_ready() ? (int)numa_bitmask_weight(numa_all_nodes_ptr) : 1;
}

int sb_numa_node_of_cpu(int cpu)
{
    return numa_ready() && cpu >= 0 ? numa_node_of_cpu(cpu) : -1;
}

/* The allowed nodes, as text: "0-1" or "0,2". */
static void allowed_nodes(char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int n = 0; n <= numa_max_node() && used < len; n++)
        if (node_allowed(n))
            used += (size_t)snprintf(buf + used, len - used, "%s%d", used ? "," : "", n);
}

/* The nearest allowed node other than home (numa_distance), or -1. */
static int nearest_other(int home)
{
    int best = -1, best_distance = 0;
    for (int n = 0; n <= numa_max_node(); n++) {
        int d;
        if (n == home || !node_allowed(n))
            continue;
        d = home >= 0 ? numa_distance(home, n) : 0;
        if (best < 0 || (d > 0 && d < best_distance)) {
            best = n;
            best_distance = d;
        }
    }
    return best;
}

bool sb_placement_check(const struct sb_placement *placement, char *why, size_t len)
{
    char nodes[128];

    if (placement->kind == SB_PLACE_LOCAL)
        return true;
    if (!numa_ready()) {
        snprintf(why, len, "NUMA is not available on this host (numa_available fails): only "
                 "local");
        return false;
    }
    allowed_nodes(nodes, sizeof nodes);
    if (placement->kind == SB_PLACE_REMOTE && sb_numa_nodes() < 2) {
        snprintf(why, len, "this host has one NUMA node (%s): there is no remote node", nodes);
        return false;
    }
    if (placement->kind == SB_PLACE_NODE && !node_allowed(placement->node)) {
        snprintf(why, len, "node %d does not exist here (nodes: %s)", placement->node, nodes);
        return false;
    }
    return true;
}

/* What to do for a placement: mode (MPOL_BIND, MPOL_INTERLEAVE, or -1: nothing, first touch)
 * and the nodes, into mask; the words in found->policy. */
static int resolve(const struct sb_placement *placement, int home_node, struct bitmask *mask,
                   struct sb_placement_found *found, const char *how)
{
    int target = -1;

    placement_name(placement, found->asked, sizeof found->asked);
    found->home_node = home_node;
    found->ok = true;
    if (!numa_ready()) {
        snprintf(found->policy, sizeof found->policy, "first touch (NUMA not available)");
        return -1;
    }
    switch (placement->kind) {
    case SB_PLACE_LOCAL:
        if (sb_numa_nodes() < 2) {
            snprintf(found->policy, sizeof found->policy, "first touch (one NUMA node)");
            return -1;
        }
        target = home_node >= 0 ? home_node : sb_numa_node_here();
        break;
    case SB_PLACE_REMOTE:
        target = nearest_other(home_node >= 0 ? home_node : sb_numa_node_here());
        break;
    case SB_PLACE_NODE:
        target = placement->node;
        break;
    case SB_PLACE_INTERLEAVE:
        copy_bitmask_to_bitmask(numa_all_nodes_ptr, mask);
        snprintf(found->policy, sizeof found->policy, "%s MPOL_INTERLEAVE over every node", how);
        return MPOL_INTERLEAVE;
    }
    if (target < 0) {
        snprintf(found->policy, sizeof found->policy, "first touch (no node to bind to)");
        return -1;
    }
    numa_bitmask_setbit(mask, (unsigned)target);
    snprintf(found->policy, sizeof found->policy, "%s MPOL_BIND node %d", how, target);
    return MPOL_BIND;
}

void sb_placement_bind(void *addr, size_t len, const struct sb_placement *placement,
                       int home_node, struct sb_placement_found *found)
{
    struct bitmask *mask = numa_ready() ? numa_allocate_nodemask() : NULL;
    int mode;

    memset(found, 0, sizeof *found);
    mode = resolve(placement, home_node, mask, found, "mbind");
    if (mode >= 0 && mbind(addr, len, mode, mask->maskp, mask->size + 1, 0) != 0) {
        snprintf(found->note, sizeof found->note, "mbind failed: %s", strerror(errno));
        found->ok = false;
    }
    if (mask)
        numa_free_nodemask(mask);
}

void sb_placement_thread_begin(const struct sb_placement *placement, int home_node,
                               struct sb_placement_found *found)
{
    struct bitmask *mask = numa_ready() ? numa_allocate_nodemask() : NULL;
    int mode;

    memset(found, 0, sizeof *found);
    mode = resolve(placement, home_node, mask, found, "set_mempolicy");
    if (mode >= 0 && set_mempolicy(mode, mask->maskp, mask->size + 1) != 0) {
        snprintf(found->note, sizeof found->note, "set_mempolicy failed: %s", strerror(errno));
        found->ok = false;
    }
    if (mask)
        numa_free_nodemask(mask);
}

void sb_placement_thread_end(void)
{
    if (numa_ready())
        set_mempolicy(MPOL_DEFAULT, NULL, 0);
}

void sb_placement_verify(const void *addr, size_t len, bool touch,
                         struct sb_placement_found *found)
{
    long pagesize = sysconf(_SC_PAGESIZE);
    size_t npages = len / (size_t)pagesize;
    void *pages[SB_PLACEMENT_SAMPLE];
    int status[SB_PLACEMENT_SAMPLE];
    unsigned n = npages < SB_PLACEMENT_SAMPLE ? (unsigned)npages : SB_PLACEMENT_SAMPLE;
    int target = -1;
    const char *bind = strstr(found->policy, "MPOL_BIND node ");

    if (!numa_ready() || n == 0) {
        snprintf(found->note, sizeof found->note, "not verified: %s",
                 n ? "NUMA not available" : "nothing to sample");
        return;
    }
    for (unsigned i = 0; i < n; i++) {
        pages[i] = (void *)((const uint8_t *)addr + (npages * i / n) * (size_t)pagesize);
        if (touch)
            (void)*(volatile const uint8_t *)pages[i];
    }
    if (move_pages(0, n, pages, NULL, status, 0) != 0) {
        snprintf(found->note, sizeof found->note, "not verified: move_pages failed: %s",
                 strerror(errno));
        return;
    }
    if (bind)
        target = atoi(bind + strlen("MPOL_BIND node "));
    found->verified = true;
    found->sampled = n;
    for (unsigned i = 0; i < n; i++) {
        if (status[i] < 0 || status[i] >= SB_PLACEMENT_MAX_NODES) {
            found->unknown++;
            continue;
        }
        found->on_node[status[i]]++;
        if ((target >= 0 && status[i] != target) || !node_allowed(status[i]))
            found->ok = false;
    }
    if (found->unknown && target >= 0)
        found->ok = false;
}

#else /* no libnuma: local only, first touch, not verified */

int sb_numa_nodes(void) { return 1; }

int sb_numa_node_of_cpu(int cpu)
{
    (void)cpu;
    return -1;
}

bool sb_placement_check(const struct sb_placement *placement, char *why, size_t len)
{
    if (placement->kind == SB_PLACE_LOCAL)
        return true;
    snprintf(why, len, "scanbench was built without libnuma: only local (configure --with-numa; "
             "Debian: libnuma-dev)");
    return false;
}

static void unplaced(const struct sb_placement *placement, int home_node,
                     struct sb_placement_found *found)
{
    memset(found, 0, sizeof *found);
    placement_name(placement, found->asked, sizeof found->asked);
    found->home_node = home_node;
    found->ok = true;
    snprintf(found->policy, sizeof found->policy, "first touch (built without libnuma)");
}

void sb_placement_bind(void *addr, size_t len, const struct sb_placement *placement,
                       int home_node, struct sb_placement_found *found)
{
    (void)addr;
    (void)len;
    unplaced(placement, home_node, found);
}

void sb_placement_thread_begin(const struct sb_placement *placement, int home_node,
                               struct sb_placement_found *found)
{
    unplaced(placement, home_node, found);
}

void sb_placement_thread_end(void) {}

void sb_placement_verify(const void *addr, size_t len, bool touch,
                         struct sb_placement_found *found)
{
    (void)addr;
    (void)len;
    (void)touch;
    snprintf(found->note, sizeof found->note, "not verified: built without libnuma");
}

#endif

int sb_numa_node_here(void)
{
    int cpu = sched_getcpu();
    return cpu >= 0 ? sb_numa_node_of_cpu(cpu) : -1;
}

/* mem.h's tag of a placement: its kind, node and home node (never 0, the unplaced tag). */
static uint64_t keep_tag(const struct sb_placement *placement, int home_node)
{
    uint64_t node = (uint32_t)(placement->node + 1), home = (uint32_t)(home_node + 1);

    return 1 + ((uint64_t)placement->kind << 40) + (node << 20) + home;
}

void *sb_mem_alloc_placed(size_t len, const struct sb_placement *placement, int home_node,
                          struct sb_placement_found *found)
{
    uint64_t tag = keep_tag(placement, home_node);
    void *p = sb_mem_keep_take(len, tag);
    bool fresh = !p;

    if (fresh)
        p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    sb_placement_bind(p, len, placement, home_node, found);
    if (fresh)
        sb_mem_populate(p, len);
    sb_placement_verify(p, len, false, found);
    found->keep_tag = tag;
    return p;
}

void sb_mem_free_placed(void *ptr, size_t len, const struct sb_placement_found *found)
{
    if (ptr && found->map_len)
        munmap(found->map_base, found->map_len); /* a fresh mapping: its frames go back */
    else if (ptr)
        sb_mem_keep_put(ptr, len, found->keep_tag);
}
