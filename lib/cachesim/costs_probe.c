/* SPDX-License-Identifier: BSD-3-Clause */
/* costs_probe.c: [costs] from `scanbench probe`'s measurements, each with its source
 * (costs_probe.h says how each is made). */
#include "config.h"
#include "cachesim/costs_probe.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "core/core.h"

#define LINE 64.0

/* "scanbench probe on HOST, DATE: " then the method. */
static void say(struct sb_machine_costs *c, int key, const char *host, const char *date,
                const char *fmt, ...)
{
    char *s = c->source[key];
    int n = snprintf(s, SB_COST_SOURCE_MAX, SB_PROBE_SOURCE_MARK " on %s, %s: ", host, date);
    va_list ap;

    if (n < 0 || n >= SB_COST_SOURCE_MAX)
        return;
    va_start(ap, fmt);
    vsnprintf(s + n, SB_COST_SOURCE_MAX - (size_t)n, fmt, ap);
    va_end(ap);
}

/* "a 24KB set (half the 48KB L1d)" or "a 1GB set (1GB (the 1GB cap; the last level 508MB))". */
static const char *set_words(const struct sb_probe *p, int l, char *buf, size_t len)
{
    char a[32], b[32];

    if (l == SB_PROBE_MEM)
        snprintf(buf, len, "a set of %s", p->mem_set_why);
    else
        snprintf(buf, len, "a %s set (half the %s %s, capped at 16MB with --quick)",
                 sb_format_size(p->level[l].working_set, a, sizeof a),
                 sb_format_size(p->level[l].level_size, b, sizeof b), sb_probe_level_names[l]);
    return buf;
}

static void hit_costs(const struct sb_probe *p, const char *host, const char *date,
                      struct sb_machine_costs *c)
{
    char set[384];

    for (int l = SB_L1D; l <= SB_L3; l++) {
        const struct sb_probe_level *lv = &p->level[l];
        if (!lv->measured)
            continue;
        c->hit_cycles[l] = lv->latency_ns * p->clock_ghz;
        say(c, SB_COST_L1D_HIT_CYCLES + l, host, date, "pointer chase over a random cyclic "
            "permutation of the 64B lines of %s, median of %u repetitions: %.2f ns x clock_ghz",
            set_words(p, l, set, sizeof set), p->repetitions, lv->latency_ns);
        if (l == SB_L1D || !(lv->read_gbps > 0))
            continue;
        c->hit_read_gbps[l] = lv->read_gbps;
        say(c, SB_COST_L2_READ_GBPS + l - SB_L2, host, date, "streaming read of %s, best of %u "
            "repetitions", set_words(p, l, set, sizeof set), p->repetitions);
    }
}

static void memory_costs(const struct sb_probe *p, const char *host, const char *date,
                         struct sb_machine_costs *c)
{
    const struct sb_probe_level *m = &p->level[SB_PROBE_MEM];
    double w = m->write_gbps, r = m->read_gbps, hidden;
    char set[384];

    set_words(p, SB_PROBE_MEM, set, sizeof set);
    c->mem_latency_ns = m->latency_ns;
    say(c, SB_COST_MEM_LATENCY_NS, host, date, "pointer chase over a random cyclic permutation "
        "of the 64B lines of %s%s, median of %u repetitions", set,
        p->huge_pages ? ", transparent huge pages asked" : "", p->repetitions);
    c->mem_read_gbps = r;
    say(c, SB_COST_MEM_READ_GBPS, host, date, "streaming read of %s, best of %u repetitions",
        set, p->repetitions);
    double alone = 1 / w - p->rfo_share / r;
    bool overlapped = !(alone > 1 / r);

    c->mem_write_gbps = overlapped ? r : 1 / alone;
    say(c, SB_COST_MEM_WRITE_GBPS, host, date, "write-backs alone: temporal stores over %s ran "
        "at W = %.2f GB/s (best of %u), a share s = %.2f of their lines read for ownership at "
        "mem_read_gbps R (write_allocate's source) and each written back: %s", set, w,
        p->repetitions, p->rfo_share, overlapped ? "assumed R (1 / (1/W - s/R) above R: the "
        "reads and write-backs overlapped, and memory writes no faster than it reads)"
        : "1 / (1/W - s/R)");
    c->nt_write_gbps = p->nt_stores ? m->nt_write_gbps : w;
    say(c, SB_COST_NT_WRITE_GBPS, host, date, "%s over %s, best of %u repetitions",
        p->nt_stores ? "non-temporal (streaming) stores" : "no non-temporal store in this "
        "build: the temporal stores' rate", set, p->repetitions);
    hidden = m->latency_ns > 0 ? 1 - p->mem_in_order_ns / m->latency_ns : 0;
    c->prefetch_hidden = hidden < 0 ? 0 : hidden > 1 ? 1 : hidden;
    say(c, SB_COST_PREFETCH_HIDDEN, host, date, "1 - (the chase with the lines in address order, "
        "%.2f ns) / (the random chase, %.2f ns) over %s, medians of %u repetitions, within 0..1",
        p->mem_in_order_ns, m->latency_ns, set, p->repetitions);
    c->mlp = (unsigned)lround(r * m->latency_ns / LINE);
    c->mlp = c->mlp ? c->mlp : 1;
    say(c, SB_COST_MLP, host, date, "Little's law: mem_read_gbps x mem_latency_ns / 64B line "
        "= %.1f, rounded, at least 1", r * m->latency_ns / LINE);
}

void sb_costs_from_probe(const struct sb_probe *p, const char *host, const char *date,
                         struct sb_machine_costs *c)
{
    memset(c, 0, sizeof *c);
    c->present = true;
    c->clock_ghz = p->clock_ghz;
    say(c, SB_COST_CLOCK_GHZ, host, date, "a chain of dependent adds of a register (one cycle each) timed "
        "against the wall clock (%s), best of %u runs of %.0f ms; /proc/cpuinfo's MHz (%.0f) not "
        "used (a VM's is the nominal clock)", sb_timer_clock_name(), p->repetitions,
        p->ms_per_measurement, p->cpuinfo_mhz);
    hit_costs(p, host, date, c);
    memory_costs(p, host, date, c);
}

/* Level l's effective size for the model: the chase's step where the sweep found one (the
 * sharper step, which moves least from one probe to the next), else the streaming read's; 0
 * when neither. */
static uint64_t effective_of(const struct sb_probe_sweep *sw, unsigned l)
{
    if (sw->by_latency[l].why == SB_STEPS_FOUND)
        return sw->by_latency[l].size;
    return sw->by_read[l].why == SB_STEPS_FOUND ? sw->by_read[l].size : 0;
}

/* The sweep's words for level l's source. */
static void effective_source(const struct sb_probe *p, unsigned l, const char *host,
                             const char *date, char *buf, size_t len)
{
    const struct sb_probe_sweep *sw = &p->sweep;
    const struct sb_steps_level *e = &sw->by_latency[l], *b = &sw->by_read[l];
    char lo[32], hi[32], at[32], rd[32];

    snprintf(buf, len, SB_PROBE_SOURCE_MARK " on %s, %s: a sweep of %zu working sets from %s to "
             "%s (a random pointer chase and a streaming read at each); the streaming read's "
             "time per byte steps at %s (where it crosses the geometric mean of the level's "
             "plateau and the next one's), the chase's latency at %s (%.2f ns up to it, %.2f "
             "ns beyond); the model takes the chase's step where there is one (the sharper "
             "step), else the read's",
             host, date, sw->npoints,
             sb_format_size(sw->point[0].working_set, lo, sizeof lo),
             sb_format_size(sw->point[sw->npoints - 1].working_set, hi, sizeof hi),
             b->why == SB_STEPS_FOUND ? sb_format_size(b->size, rd, sizeof rd) : "no step",
             e->why == SB_STEPS_FOUND ? sb_format_size(e->size, at, sizeof at) : "no step",
             e->own, e->next);
}

/* The write-allocate rule from the share s of a store stream's lines read first: the nearer of
 * the two a serial stream can show, every line read (s = 1: nt_stores) or none (s = 0:
 * full_line). */
static void write_allocate_from(const struct sb_probe *p, const char *host, const char *date,
                                struct sb_machine *m)
{
    const struct sb_probe_level *mem = &p->level[SB_PROBE_MEM];
    double f = p->rfo_share;
    enum sb_write_allocate rule = f >= 0.5 ? SB_WA_NT_STORES : SB_WA_FULL_LINE;
    char set[32];

    m->config.write_allocate = m->costs.write_allocate = rule;
    snprintf(m->write_allocate_source, sizeof m->write_allocate_source, SB_PROBE_SOURCE_MARK
             " on %s, %s: over a %s set one core's temporal whole-line stores alone (W) and "
             "loads and stores of the same lines (M, %.2f GB/s of the set: each line read and "
             "written), in pairs taken in turn: the stores alone move (1 + s) / 2 of M's "
             "traffic, s = 2 x M / W - 1, the pairs' median %.2f of their lines read first; the "
             "nearer of every line read (nt_stores) and none (full_line); one stream, so a "
             "SpecI2M that waits for a loaded memory is not seen", host, date,
             sb_format_size(mem->working_set, set, sizeof set), p->rmw_gbps, f);
}

void sb_machine_apply_probe(const struct sb_probe *p, const struct sb_topology *topo,
                            const char *host, const char *date, struct sb_machine *m)
{
    char source[SB_COST_SOURCE_MAX];

    sb_costs_from_probe(p, host, date, &m->costs);
    for (unsigned l = 0; l < p->sweep.levels && l < m->config.nlevels; l++) {
        uint64_t effective = effective_of(&p->sweep, l);
        if (effective < 8 * (uint64_t)m->config.level[l].line_size)
            continue;
        m->sizes[l].nominal = topo->cache[l].size.value;
        snprintf(m->sizes[l].nominal_source, sizeof m->sizes[l].nominal_source, "the host's "
                 "topology (%s)", topo->cache[l].size.source ? topo->cache[l].size.source
                                                             : "unknown");
        effective_source(p, l, host, date, source, sizeof source);
        sb_machine_set_effective(m, l, effective, source);
    }
    write_allocate_from(p, host, date, m);
}

bool sb_machine_is_this_host(const struct sb_machine *m)
{
    return sb_machine_names_this_host(m->name, m->source);
}
