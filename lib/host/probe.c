/* SPDX-License-Identifier: BSD-3-Clause */
/* probe.c: `scanbench probe`'s measurements (probe.h): the sweep and the effective sizes it
 * finds, the working sets, the repetitions, the median or best of each figure, the stores'
 * share of lines read first. The loops themselves are probe_kernels.c's. */
#include "config.h"
#include "host/probe.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "host/cpu_id.h"
#include "host/probe_kernels.h"
#include "stats/stats.h"

#define LINE 64u
#define HUGE_PAGE (2u << 20)
#define SWEEP_FINE_TOP (64ull << 20) /* the sweep's steps are 2^(1/4) up to here */
#define MEM_SET_CAP (1ull << 30)    /* memory's working set: at most 1GB ... */
#define MEM_SET_QUICK (64ull << 20) /* ... and 64MB with --quick */
#define MEM_SET_MIN (64ull << 20)   /* after the sweep: at least this */
#define LEVEL_SET_QUICK (16ull << 20)
#define MAX_REPS 32
#define REPS(quick) ((quick) ? 2u : 5u)      /* repetitions of each figure */
#define MS_EACH(quick) ((quick) ? 2.0 : 25.0) /* what each repetition aims at, ms */

const char *const sb_probe_level_names[SB_PROBE_LEVELS] = {"L1d", "L2", "L3", "memory"};

static double cpuinfo_mhz(void)
{
    static const char *const keys[] = {"cpu MHz", NULL};
    char mhz[64];

    return sb_cpuinfo_first(keys, mhz, sizeof mhz) ? strtod(mhz, NULL) : 0;
}

/* Memory's working set: 4 x the last level (well beyond it), at most 1GB (64MB with --quick)
 * and a quarter of the memory this process may have; why, in words. */
static uint64_t mem_working_set(const struct sb_topology *topo, bool quick, char *why, size_t len)
{
    struct sb_mem_limit limit;
    uint64_t last = 0, set, cap = quick ? MEM_SET_QUICK : MEM_SET_CAP;
    char a[32], b[32];
    const char *decided;

    for (int l = 0; l < SB_NLEVELS; l++)
        if (topo->cache[l].size.value)
            last = topo->cache[l].size.value;
    set = 4 * last;
    decided = "4 x the last level";
    if (set > cap) {
        set = cap;
        decided = quick ? "the --quick cap" : "the 1GB cap";
    }
    sb_mem_limit_read(&limit, "", "");
    if (limit.bytes / 4 < set) {
        set = limit.bytes / 4 / HUGE_PAGE * HUGE_PAGE;
        decided = "a quarter of the memory available";
    }
    snprintf(why, len, "%s (%s; the last level %s)", sb_format_size(set, a, sizeof a), decided,
             sb_format_size(last, b, sizeof b));
    return set;
}

/* How many passes (or loads) make one repetition last about target seconds, given one took
 * one_s. */
static uint64_t scaled(double one_s, double target, uint64_t at_least)
{
    double n = one_s > 0 ? target / one_s : (double)at_least;

    return n < (double)at_least ? at_least : n > 1e12 ? (uint64_t)1e12 : (uint64_t)n;
}

static void measure_latency(void *buf, uint64_t working_set, bool in_order, double target,
                            unsigned reps, double *out)
{
    size_t lines = working_set / LINE, loads;
    void *at = sb_chase_link(buf, lines, in_order, 0x5eedull + lines);
    double ns[MAX_REPS];

    sb_chase_ns(&at, lines < (1u << 20) ? 2 * lines : 1u << 16); /* the set in its level */
    loads = (size_t)scaled(sb_chase_ns(&at, 4096) * 1e-9, target, 4096);
    for (unsigned r = 0; r < reps; r++)
        ns[r] = sb_chase_ns(&at, loads);
    *out = sb_median(ns, reps);
}

enum stream { READ, WRITE, NT_WRITE, RMW };

static double stream_once(enum stream kind, void *buf, size_t len, unsigned passes)
{
    double gbps = 0;

    if (kind == READ)
        return sb_read_gbps(buf, len, passes);
    if (kind == WRITE)
        return sb_write_gbps(buf, len, passes);
    if (kind == RMW)
        return sb_rmw_gbps(buf, len, passes);
    sb_nt_write_gbps(buf, len, passes, &gbps);
    return gbps;
}

static double measure_stream(enum stream kind, void *buf, size_t len, double target,
                             unsigned reps)
{
    double one = stream_once(kind, buf, len, 1), best = 0;
    unsigned passes = one > 0 ? (unsigned)scaled((double)len / (one * 1e9), target, 1) : 1;

    for (unsigned r = 0; r < reps; r++) {
        double g = stream_once(kind, buf, len, passes);
        best = g > best ? g : best;
    }
    return best;
}

/* The set a level's chases cover: its latency_set where it has one, else its working set. */
static uint64_t chase_set(const struct sb_probe_level *lv)
{
    return lv->latency_set ? lv->latency_set : lv->working_set;
}

static void measure_level(void *buf, struct sb_probe_level *lv, const struct sb_probe *p,
                          FILE *progress, const char *name)
{
    double target = p->ms_per_measurement / 1000;
    char ws[32];

    measure_latency(buf, chase_set(lv), false, target, p->repetitions, &lv->latency_ns);
    lv->read_gbps = measure_stream(READ, buf, lv->working_set, target, p->repetitions);
    lv->write_gbps = measure_stream(WRITE, buf, lv->working_set, target, p->repetitions);
    if (p->nt_stores)
        lv->nt_write_gbps = measure_stream(NT_WRITE, buf, lv->working_set, target,
                                           p->repetitions);
    if (progress)
        fprintf(progress, "probe: %-6s set %-7s latency %6.1f ns, read %6.1f GB/s, write %6.1f "
                "GB/s, non-temporal write %6.1f GB/s\n", name,
                sb_format_size(lv->working_set, ws, sizeof ws), lv->latency_ns, lv->read_gbps,
                lv->write_gbps, lv->nt_write_gbps);
}

/* The working sets: half of each known level (16MB at most with --quick; the sweep may halve
 * its effective size instead: sets_from_sweep), memory's apart. */
static void plan_sets(const struct sb_topology *topo, bool quick, struct sb_probe *p)
{
    for (int l = 0; l < SB_NLEVELS; l++) {
        struct sb_probe_level *lv = &p->level[l];
        uint64_t size = topo->cache[l].size.value, set = size / 2 / LINE * LINE;

        if (quick && set > LEVEL_SET_QUICK)
            set = LEVEL_SET_QUICK;
        lv->measured = size != 0;
        lv->level_size = size;
        lv->working_set = set;
    }
    p->level[SB_PROBE_MEM].measured = true;
    p->level[SB_PROBE_MEM].working_set =
        mem_working_set(topo, quick, p->mem_set_why, sizeof p->mem_set_why);
}

/* The cache levels the topology gives, in order (L1d and L2 required), into sw. */
static int sweep_levels(const struct sb_topology *topo, struct sb_probe_sweep *sw,
                        struct sb_error *err)
{
    for (int l = 0; l < SB_NLEVELS; l++) {
        uint64_t size = topo->cache[l].size.value;
        if (!size && l < SB_L3)
            return sb_fail(err, SB_ERR_INPUT, "probe: the %s size is unknown here (scanbench "
                           "topo): nothing to size its working set by", sb_probe_level_names[l]);
        if (size)
            sw->nominal[sw->levels++] = size;
    }
    return SB_OK;
}

/* The sweep's working sets, from a quarter of the L1d up to top (memory's set the last). */
static size_t sweep_sets(const struct sb_probe_sweep *sw, uint64_t top, bool quick,
                         uint64_t *size)
{
    double s = (double)sw->nominal[0] / 4;
    size_t n = 0;

    while (n < SB_PROBE_SWEEP_MAX) {
        uint64_t set = (uint64_t)s / LINE * LINE;
        size[n++] = set < top ? set : top;
        if (set >= top)
            break;
        s = s * (quick || s >= (double)SWEEP_FINE_TOP ? M_SQRT2 : pow(2, 0.25));
        if (s > (double)top)
            s = (double)top;
    }
    return n;
}

/* The sweep over buf (top bytes mapped): each working set's chase and read in every one of
 * SWEEP_PASSES passes over the sets (1 with quick; a neighbour's burst then hits one pass, not
 * a level), each point the median of its passes' latencies and the best of their reads, then
 * the steps of both curves. */
#define SWEEP_PASSES 3
static void sweep_over(void *buf, uint64_t top, bool quick, unsigned reps, double ms,
                       struct sb_probe_sweep *sw, FILE *progress)
{
    double t0 = sb_timer_now(), target = ms / 1000 / 5, lat[SWEEP_PASSES][SB_PROBE_SWEEP_MAX];
    double read_cost[SB_PROBE_SWEEP_MAX], latency[SB_PROBE_SWEEP_MAX];
    uint64_t size[SB_PROBE_SWEEP_MAX];
    unsigned passes = quick ? 1 : SWEEP_PASSES;
    size_t n = sweep_sets(sw, top, quick, size);

    memset(sw->point, 0, sizeof sw->point);
    for (unsigned p = 0; p < passes; p++)
        for (size_t i = 0; i < n; i++) {
            double gbps = measure_stream(READ, buf, size[i], target, reps);
            measure_latency(buf, size[i], false, target, reps, &lat[p][i]);
            sw->point[i].read_gbps = gbps > sw->point[i].read_gbps ? gbps : sw->point[i].read_gbps;
        }
    for (size_t i = 0; i < n; i++) {
        double mine[SWEEP_PASSES];
        for (unsigned p = 0; p < passes; p++)
            mine[p] = lat[p][i];
        sw->point[i].working_set = size[i];
        sw->point[i].latency_ns = latency[i] = sb_median(mine, passes);
        read_cost[i] = sw->point[i].read_gbps > 0 ? 1 / sw->point[i].read_gbps : 0;
    }
    sw->npoints = n;
    sb_steps_find(size, latency, n, sw->nominal, sw->levels, sw->by_latency);
    sb_steps_find(size, read_cost, n, sw->nominal, sw->levels, sw->by_read);
    sw->seconds = sb_timer_now() - t0;
    if (progress)
        fprintf(progress, "probe: swept %zu working sets %u times in %.1f s\n", n, passes,
                sw->seconds);
}

int sb_probe_sweep(const struct sb_topology *topo, bool quick, struct sb_probe_sweep *out,
                   struct sb_error *err)
{
    char why[256];
    uint64_t top = mem_working_set(topo, quick, why, sizeof why);
    size_t raw_len = 0;
    void *raw = NULL, *buf;
    bool huge;
    int status;

    memset(out, 0, sizeof *out);
    status = sweep_levels(topo, out, err);
    if (status != SB_OK)
        return status;
    buf = sb_probe_map(top, &raw, &raw_len, &huge);
    if (!buf)
        return sb_fail(err, SB_ERR_RUN, "probe: cannot map %llu bytes for the sweep",
                       (unsigned long long)top);
    sweep_over(buf, top, quick, REPS(quick), MS_EACH(quick), out, NULL);
    sb_probe_unmap(raw, raw_len);
    return SB_OK;
}

/* Memory's chase once the sweep found the last level's effective size E: over 8 E (at least
 * 64MB, at most the set mapped), where the last level holds an eighth of the lines at most;
 * beyond it a VM's chase rises on with the page walks of nested paging, which a scan's streams
 * (64 lines a page) do not pay. The streams keep the whole set, where no cache helps them. Why,
 * in words. */
static void mem_set_from_sweep(struct sb_probe *p)
{
    const struct sb_probe_sweep *sw = &p->sweep;
    const struct sb_steps_level *last = &sw->by_latency[sw->levels - 1];
    struct sb_probe_level *m = &p->level[SB_PROBE_MEM];
    uint64_t set = 8 * last->size, mapped = m->working_set;
    char a[32], b[32], c[32];

    if (last->why != SB_STEPS_FOUND)
        return;
    set = set < MEM_SET_MIN ? MEM_SET_MIN : (set + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
    if (set >= mapped)
        return;
    m->latency_set = set;
    snprintf(p->mem_set_why + strlen(p->mem_set_why),
             sizeof p->mem_set_why - strlen(p->mem_set_why), "; chases over %s (8 x the last "
             "level's effective %s: page walks beyond, to %.0f ns at %s)",
             sb_format_size(set, a, sizeof a), sb_format_size(last->size, b, sizeof b),
             sw->point[sw->npoints - 1].latency_ns, sb_format_size(mapped, c, sizeof c));
}

/* Each level's set: half its effective size where the sweep found one (16MB at most with
 * quick); memory's as mem_set_from_sweep. */
static void sets_from_sweep(struct sb_probe *p, bool quick)
{
    mem_set_from_sweep(p);
    for (unsigned l = 0; l < p->sweep.levels; l++) {
        struct sb_probe_level *lv = &p->level[l];
        const struct sb_steps_level *e = &p->sweep.by_latency[l];
        if (e->why != SB_STEPS_FOUND)
            continue;
        lv->working_set = e->size / 2 / LINE * LINE;
        if (quick && lv->working_set > LEVEL_SET_QUICK)
            lv->working_set = LEVEL_SET_QUICK;
    }
}

/* Over memory's set: loads and stores of the same lines beside the stores alone, in
 * RFO_PAIRS pairs taken in turn (3 with quick), each pair's share of the stores' lines read
 * first 2 x rmw / write - 1; the median of the pairs, within 0..1. */
#define RFO_PAIRS 9
static void measure_rfo(void *buf, struct sb_probe *p, bool quick)
{
    const struct sb_probe_level *m = &p->level[SB_PROBE_MEM];
    unsigned pairs = quick ? 3 : RFO_PAIRS;
    double share[RFO_PAIRS], rmw[RFO_PAIRS], target = p->ms_per_measurement / 1000, s;

    for (unsigned i = 0; i < pairs; i++) {
        double w = measure_stream(WRITE, buf, m->working_set, target, 1);
        rmw[i] = measure_stream(RMW, buf, m->working_set, target, 1);
        share[i] = w > 0 ? 2 * rmw[i] / w - 1 : 1;
    }
    p->rmw_gbps = sb_median(rmw, pairs);
    s = sb_median(share, pairs);
    p->rfo_share = s < 0 ? 0 : s > 1 ? 1 : s;
}

double sb_probe_clock_ghz(unsigned rounds, double seconds)
{
    double best = 0;

    for (unsigned r = 0; r < rounds; r++) {
        double ghz = sb_add_chain_ghz(seconds);
        best = ghz > best ? ghz : best;
    }
    return best;
}

int sb_probe_run(const struct sb_topology *topo, const struct sb_probe_options *opt,
                 struct sb_probe *p, FILE *progress, struct sb_error *err)
{
    double t0 = sb_timer_now(), scratch;
    size_t raw_len = 0;
    void *raw = NULL, *buf;
    int status;

    memset(p, 0, sizeof *p);
    p->repetitions = opt->repetitions ? opt->repetitions : REPS(opt->quick);
    if (p->repetitions > MAX_REPS)
        p->repetitions = MAX_REPS;
    p->ms_per_measurement = MS_EACH(opt->quick);
    p->nt_stores = sb_nt_write_gbps(&scratch, 0, 0, &scratch);
    p->cpuinfo_mhz = cpuinfo_mhz();
    status = sweep_levels(topo, &p->sweep, err);
    if (status != SB_OK)
        return status;
    plan_sets(topo, opt->quick, p);
    buf = sb_probe_map(p->level[SB_PROBE_MEM].working_set, &raw, &raw_len, &p->huge_pages);
    if (!buf)
        return sb_fail(err, SB_ERR_RUN, "probe: cannot map %llu bytes for memory's working set",
                       (unsigned long long)p->level[SB_PROBE_MEM].working_set);
    p->clock_ghz = sb_probe_clock_ghz(p->repetitions, p->ms_per_measurement / 1000);
    sweep_over(buf, p->level[SB_PROBE_MEM].working_set, opt->quick, p->repetitions,
               p->ms_per_measurement, &p->sweep, progress);
    sets_from_sweep(p, opt->quick);
    for (int l = 0; l < SB_PROBE_LEVELS; l++)
        if (p->level[l].measured)
            measure_level(buf, &p->level[l], p, progress, sb_probe_level_names[l]);
    measure_rfo(buf, p, opt->quick);
    measure_latency(buf, chase_set(&p->level[SB_PROBE_MEM]), true, p->ms_per_measurement / 1000,
                    p->repetitions, &p->mem_in_order_ns);
    sb_probe_unmap(raw, raw_len);
    p->seconds = sb_timer_now() - t0;
    if (progress)
        fprintf(progress, "probe: memory in address order %.1f ns per load; loads and stores of "
                "the same lines %.1f GB/s: %.0f%% of the stores' lines read first; clock %.2f GHz "
                "(add chain); %.1f s\n", p->mem_in_order_ns, p->rmw_gbps, 100 * p->rfo_share,
                p->clock_ghz, p->seconds);
    return SB_OK;
}
