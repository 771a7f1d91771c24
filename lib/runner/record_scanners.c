/* SPDX-License-Identifier: BSD-3-Clause */
/* record_scanners.c: a run record's io, placement and scanners blocks (see the header). */
#include "config.h"
#include "runner/record_scanners.h"

#include <stdio.h>
#include <string.h>

#include "engine/engine.h"
#include "vocab/vocab.h"

static json_t *number_or_null(double v, bool known)
{
    return known ? json_real(v) : json_null();
}

static json_t *text_or_null(const char *s)
{
    return s && s[0] ? json_string(s) : json_null();
}

static json_t *io_json(const struct sb_run_params *p, const struct sb_run_result *res)
{
    const struct sb_io_result *io = &res->io;
    bool file = p->source->is_file;
    const char *how, *device = NULL;
    json_t *residency = json_null();

    if (file && p->bigtable) {
        how = "pread() of each page from a file dropped from the page cache (posix_fadvise "
              "DONTNEED before each scan and every 256 pages behind it): the device reads it, "
              "then the operating system copies it into the pool buffer";
        device = "a pread() pass page by page over the file just dropped, nothing else";
    } else if (file) {
        how = "pread() of each page from the warm page cache: the operating system copies it "
              "into the pool buffer";
    } else if (p->bigtable) {
        how = "DMA-like fill: each page's IO-cache frame rewritten in place with non-temporal "
              "stores (read, movntdq, sfence), then copied by the kernel; the fill is timed "
              "with the scan";
        device = "a pass of the fills alone over the table";
    } else {
        how = "the kernel copies each page from the IO cache in memory";
    }
    if (file)
        residency = json_pack(
            "{s:s, s:o, s:o, s:o}", "checked_with", "mincore() on a read-only shared mapping",
            "min_resident_before_timed_scan",
            number_or_null(io->resident_min, io->resident_min >= 0),
            "max_resident_at_scan_start",
            number_or_null(io->resident_max_start, io->resident_max_start >= 0),
            "resident_after_first_drop",
            number_or_null(io->resident_after_drop, io->resident_after_drop >= 0));
    return json_pack("{s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "how", how,
                     "data_dir", file ? json_string(p->data_dir) : json_null(),
                     "scratch_file", text_or_null(io->scratch),
                     "write_seconds", number_or_null(io->write_seconds, file),
                     "device_mbps", number_or_null(io->device_mbps, io->device_mbps > 0),
                     "device_how", text_or_null(device),
                     "residency", residency,
                     "drops_per_scan",
                     file && p->bigtable
                         ? json_real((double)io->drops / (res->nreps ? res->nreps : 1))
                         : json_null());
}

static json_t *found_json(const struct sb_placement_found *f)
{
    json_t *nodes = json_object();

    for (int n = 0; n < SB_PLACEMENT_MAX_NODES; n++)
        if (f->on_node[n]) {
            char key[16];
            snprintf(key, sizeof key, "%d", n);
            json_object_set_new(nodes, key, json_integer(f->on_node[n]));
        }
    return json_pack("{s:s, s:s, s:o, s:b, s:b, s:i, s:o, s:i, s:o}", "asked", f->asked,
                     "policy", f->policy,
                     "home_node", f->home_node >= 0 ? json_integer(f->home_node) : json_null(),
                     "verified", f->verified, "ok", f->ok, "sampled_pages", (int)f->sampled,
                     "pages_on_node", nodes, "pages_unplaced", (int)f->unknown,
                     "note", text_or_null(f->note));
}

/* The kernel's NUMA balancing state (it may move pages after they were verified). */
static json_t *numa_balancing(void)
{
    char buf[64];
    FILE *f = fopen("/proc/sys/kernel/numa_balancing", "r");
    json_t *v;

    if (f && fgets(buf, sizeof buf, f)) {
        buf[strcspn(buf, "\n")] = '\0';
        v = json_string(buf);
    } else {
        v = json_string("unavailable: /proc/sys/kernel/numa_balancing unreadable");
    }
    if (f)
        fclose(f);
    return v;
}

static json_t *stats_json(const struct sb_stats *s)
{
    return json_pack("{s:f, s:f, s:f, s:f, s:f}", "best", s->best, "median", s->median, "min",
                     s->min, "max", s->max, "cv", s->cv);
}

static json_t *record_json(const struct sb_scanner_record *rec, uint32_t nreps)
{
    json_t *cpus = json_array(), *seconds = json_array(), *pages = json_array();

    for (unsigned i = 0; i < rec->ncpus_seen; i++)
        json_array_append_new(cpus, json_integer(rec->cpus_seen[i]));
    for (uint32_t r = 0; r < nreps; r++) {
        json_array_append_new(seconds, json_real(rec->seconds[r]));
        json_array_append_new(pages, json_integer((json_int_t)rec->pages[r]));
    }
    return json_pack("{s:i, s:b, s:o, s:o, s:o, s:o, s:i, s:o, s:o, s:o}", "thread",
                     (int)rec->thread, "pinned", rec->pinned,
                     "pu", rec->pu >= 0 ? json_integer(rec->pu) : json_null(),
                     "core", rec->core >= 0 ? json_integer(rec->core) : json_null(),
                     "node", rec->node >= 0 ? json_integer(rec->node) : json_null(),
                     "cpus_seen", cpus, "table", (int)rec->table, "repetitions", seconds,
                     "pages", pages, "mbps", stats_json(&rec->mbps));
}

static json_t *scanners_json(const struct sb_run_params *p, const struct sb_run_result *res)
{
    json_t *records = json_array();
    const struct sb_shared_accounting *sh = &res->shared;
    bool all_pinned = true;

    for (uint32_t i = 0; i < res->nscanners; i++) {
        json_array_append_new(records, record_json(&res->scanners[i], res->nreps));
        all_pinned &= res->scanners[i].pinned;
    }
    return json_pack(
        "{s:s, s:s, s:o, s:o}", "pinning",
        !sb_run_concurrent(p) ? "one scanner, the main thread, not pinned"
        : all_pinned ? "each scanner bound to the first PU of a core of its own "
                       "(hwloc_set_cpubind), in hwloc's core order"
                     : "each scanner asked for the first PU of a core of its own "
                       "(hwloc_set_cpubind); a record whose pinned is false ran where the "
                       "kernel put it (oversubscribe, or the binding refused)",
        "mbps", "the run's mbps is all scanners together: the table bytes they read "
                "(bytes_per_scan) / the time from the first one's start to the last one's finish; "
                "each record's mbps is its own pages * page_size / its own seconds",
        "records", records,
        "shared_pool_accounting",
        sh->used ? json_pack("{s:i, s:I, s:I, s:i, s:s}", "nbuffers", (int)sh->nbuffers,
                             "pins_in_timed_scans", (json_int_t)sh->acquisitions,
                             "pages_in_timed_scans", (json_int_t)sh->pages,
                             "buffers_left_pinned", (int)sh->pins_left, "rule",
                             "one pin per page read; no buffer pinned after a scan")
                 : json_null());
}

void sb_report_add_scanners(json_t *run, const struct sb_run_params *p,
                            const struct sb_run_result *res)
{
    json_t *validation = json_object_get(run, "validation");

    json_object_set_new(run, "bigtable", json_boolean(p->bigtable));
    json_object_set_new(run, "shared_table", json_boolean(p->threads > 1 && p->shared_table));
    json_object_set_new(run, "shared_pool", json_boolean(p->shared_pool));
    json_object_set_new(run, "io", io_json(p, res));
    json_object_set_new(run, "placement",
                        json_pack("{s:o, s:o, s:o}", "iocache", found_json(&res->iocache_placement),
                                  "pool", found_json(&res->pool_placement), "numa_balancing",
                                  numa_balancing()));
    json_object_set_new(run, "scanners", scanners_json(p, res));
    if (validation)
        json_object_set_new(validation, "pages_read_once",
                            json_integer((json_int_t)res->validation.pages_read_once));
}
