/* SPDX-License-Identifier: BSD-3-Clause */
/* cpu_place.c: the scanners' places and binding with the host's hwloc topology (cpu_place.h). */
#include "config.h"
#include "host/cpu_place.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "host/hwloc_shared.h"
#include "host/placement.h"

void sb_cpu_places(uint32_t n, struct sb_cpu_place *place)
{
    memset(place, 0, n * sizeof *place);
    for (uint32_t i = 0; i < n; i++)
        place[i].pu = place[i].core = place[i].node = -1;
#ifdef HAVE_HWLOC
    {
        hwloc_topology_t topo = sb_hwloc_topology();
        int ncores = 0;
        const char *why = NULL;

        if (!topo)
            why = "not pinned: hwloc could not read the topology";
        else if ((ncores = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE)) <= 0)
            why = "not pinned: hwloc found no cores";
        for (uint32_t i = 0; !why && i < n; i++) {
            hwloc_obj_t core = hwloc_get_obj_by_type(topo, HWLOC_OBJ_CORE,
                                                     (unsigned)(i % (uint32_t)ncores));
            hwloc_obj_t pu = core ? hwloc_get_obj_inside_cpuset_by_type(topo, core->cpuset,
                                                                        HWLOC_OBJ_PU, 0) : NULL;
            if (!pu) {
                why = "not pinned: hwloc found no PU in a core";
                break;
            }
            place[i].pinnable = true;
            place[i].pu = (int)pu->os_index;
            place[i].core = (int)core->logical_index;
            place[i].node = sb_numa_node_of_cpu(place[i].pu);
        }
        for (uint32_t i = 0; why && i < n; i++) {
            place[i].pinnable = false;
            place[i].pu = place[i].core = place[i].node = -1;
            snprintf(place[i].why, sizeof place[i].why, "%s", why);
        }
    }
#else
    for (uint32_t i = 0; i < n; i++)
        snprintf(place[i].why, sizeof place[i].why,
                 "not pinned: built without hwloc (configure --with-hwloc; Debian: libhwloc-dev)");
#endif
}

int sb_cpus_allowed(cpu_set_t *allowed, char *list, size_t len)
{
    size_t used = 0;
    int n = 0;

    if (sched_getaffinity(0, sizeof *allowed, allowed) != 0) {
        snprintf(list, len, "sched_getaffinity: %s", strerror(errno));
        return 0;
    }
    if (len)
        list[0] = '\0';
    for (int c = 0; c < CPU_SETSIZE; c++) {
        int last = c;
        if (!CPU_ISSET(c, allowed))
            continue;
        while (last + 1 < CPU_SETSIZE && CPU_ISSET(last + 1, allowed))
            last++;
        if (used < len) {
            int w = last == c ? snprintf(list + used, len - used, "%s%d", n ? "," : "", c)
                              : snprintf(list + used, len - used, "%s%d-%d", n ? "," : "", c,
                                         last);
            used += (size_t)w;
            if (used >= len && len > 4)
                memcpy(list + len - 4, "...", 4);
        }
        n += last - c + 1;
        c = last;
    }
    return n;
}

bool sb_cpu_bind(const struct sb_cpu_place *place)
{
#ifdef HAVE_HWLOC
    hwloc_topology_t topo = sb_hwloc_topology();
    hwloc_bitmap_t set;
    bool ok;

    if (!place->pinnable || !topo || !(set = hwloc_bitmap_alloc()))
        return false;
    hwloc_bitmap_only(set, (unsigned)place->pu);
    ok = hwloc_set_cpubind(topo, set, HWLOC_CPUBIND_THREAD) == 0;
    hwloc_bitmap_free(set);
    return ok;
#else
    (void)place;
    return false;
#endif
}
