/* SPDX-License-Identifier: BSD-3-Clause */
/* timemodel.c: a phase's events turned into seconds with a machine's costs (timemodel.h). */
#include "config.h"
#include "cachesim/timemodel.h"

#include <math.h>
#include <string.h>

void sb_time_events_from_counts(const struct sb_cachesim_counts *n, uint64_t pages,
                                uint32_t line_size, struct sb_time_events *ev)
{
    uint64_t wc = n->wc_full_lines * line_size + n->wc_partial_bytes;

    memset(ev, 0, sizeof *ev);
    for (int l = 0; l < 3; l++)
        ev->hits[l] = n->level[l].hits;
    ev->line_size = line_size;
    ev->pages = pages;
    ev->fills = line_size ? n->mem_read_bytes / line_size : 0;
    ev->streams = pages < ev->fills ? pages : ev->fills;
    ev->full_line_rfos = n->full_line_rfos < ev->fills ? n->full_line_rfos : ev->fills;
    ev->wc_bytes = wc < n->mem_write_bytes ? wc : n->mem_write_bytes;
    ev->writeback_bytes = n->mem_write_bytes - ev->wc_bytes;
}

/* n accesses in `streams` sequential streams at a level of this latency and bandwidth: each
 * stream's first at the full latency, the rest at the larger of the transfer time and the
 * latency left after the prefetcher, shared by the accesses in flight. */
static double stream_seconds(const struct sb_machine_costs *c, uint64_t n, uint64_t streams,
                             double latency, double gbps, uint32_t line_size)
{
    double transfer = gbps > 0 ? line_size / (gbps * 1e9) : 0;
    double overlapped = latency * (1 - c->prefetch_hidden) / (c->mlp ? c->mlp : 1);
    double next = transfer > overlapped ? transfer : overlapped;

    if (!streams || streams > n)
        streams = n;
    return (double)streams * latency + (double)(n - streams) * next;
}

/* The whole-line stores' fills full_line_loaded evades (timemodel.h). */
static uint64_t rfos_evaded(const struct sb_machine_costs *c, const struct sb_time_events *ev)
{
    if (c->write_allocate != SB_WA_FULL_LINE_LOADED || !c->rfo_evasion_scanners ||
        (ev->sharing ? ev->sharing : 1) < c->rfo_evasion_scanners)
        return 0;
    return (uint64_t)llround((double)ev->full_line_rfos * c->rfo_evasion_share);
}

/* The fills made: streams of fills from memory. */
static double fill_seconds(const struct sb_machine_costs *c, const struct sb_time_events *ev,
                           uint64_t fills)
{
    return stream_seconds(c, fills, ev->streams, c->mem_latency_ns * 1e-9, c->mem_read_gbps,
                          ev->line_size);
}

/* The hits: at their latency each, or in streams where the level's bandwidth is given. */
static double hit_seconds(const struct sb_machine_costs *c, const struct sb_time_events *ev)
{
    double cycle = c->clock_ghz > 0 ? 1e-9 / c->clock_ghz : 0, total = 0;

    for (int l = 0; l < 3; l++) {
        double latency = c->hit_cycles[l] * cycle;
        if (l > 0 && c->hit_read_gbps[l] > 0 && ev->pages > 0)
            total += stream_seconds(c, ev->hits[l], ev->pages, latency, c->hit_read_gbps[l],
                                    ev->line_size);
        else
            total += (double)ev->hits[l] * latency;
    }
    return total;
}

double sb_time_model_parts(const struct sb_machine_costs *c, const struct sb_time_events *ev,
                           struct sb_time_parts *parts)
{
    uint64_t fills;

    memset(parts, 0, sizeof *parts);
    parts->rfos_evaded = rfos_evaded(c, ev);
    fills = ev->fills - parts->rfos_evaded;
    parts->hits = hit_seconds(c, ev);
    parts->fills = fill_seconds(c, ev, fills);
    if (c->mem_read_gbps > 0)
        parts->bus_reads = (double)fills * ev->line_size / (c->mem_read_gbps * 1e9);
    if (c->mem_write_gbps > 0)
        parts->writebacks = (double)ev->writeback_bytes / (c->mem_write_gbps * 1e9);
    if (c->nt_write_gbps > 0)
        parts->wc = (double)ev->wc_bytes / (c->nt_write_gbps * 1e9);
    return parts->hits + parts->fills + parts->writebacks + parts->wc;
}

double sb_time_model_seconds(const struct sb_machine_costs *c, const struct sb_time_events *ev)
{
    struct sb_time_parts parts;
    return sb_time_model_parts(c, ev, &parts);
}

void sb_time_scan_combine(double stalls, double core, double bus, unsigned sharing,
                          struct sb_time_scan *out)
{
    out->stalls = stalls;
    out->core = core;
    out->bus = bus * (sharing ? sharing : 1);
    out->memory_bound = out->bus > stalls + core;
    out->seconds = out->memory_bound ? out->bus : stalls + core;
}
