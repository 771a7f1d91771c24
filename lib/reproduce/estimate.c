/* SPDX-License-Identifier: BSD-3-Clause */
/* estimate.c: what a reproduction will take (see estimate.h). */
#include "config.h"
#include "reproduce/estimate.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "vocab/vocab.h"

void sb_reproduce_rates_init(struct sb_reproduce_rates *r)
{
    memset(r, 0, sizeof *r);
    r->scan_bytes_per_s = SB_REPRODUCE_PRIOR_SCAN_RATE;
    r->rounds_factor = 1.0;
    r->outside_s_per_byte = SB_REPRODUCE_PRIOR_OUTSIDE;
    r->emulation_s_per_byte = SB_REPRODUCE_PRIOR_EMULATION;
}

void sb_reproduce_work_of(const struct sb_plan *plan, struct sb_reproduce_work *w)
{
    memset(w, 0, sizeof *w);
    w->rounds = plan->schedule.rounds ? plan->schedule.rounds : SB_AUTO_ROUNDS_MIN;
    w->runs = plan->nruns;
    for (size_t i = 0; i < plan->nruns; i++) {
        const struct sb_run_params *run = &plan->runs[i];
        /* the interleaved schedule's reference: a second instance of the first run */
        unsigned n = plan->schedule.kind == SB_SCHEDULE_INTERLEAVED && i == 0 ? 2u : 1u;
        double table = (double)run->table_size * sb_run_tables(run);
        double footprint = (double)sb_policy_footprint(run->policy, run->pool_size,
                                                       run->ring_size, run->page_size);
        bool sliced = run->slice_seconds > 0 && !run->slice_off;
        w->scans += n;
        w->scan_floor += n * (sliced ? run->slice_seconds : run->min_scan_seconds);
        w->pass_bytes += sliced ? 0.0 : n * table;
        w->settle_bytes += n * fmin(footprint * sb_run_pools(run), table);
        w->table_bytes += n * table;
    }
}

double sb_reproduce_least_rounds(const struct sb_reproduce_work *w,
                                 const struct sb_reproduce_rates *r)
{
    double round = fmax(w->scan_floor, w->pass_bytes / r->scan_bytes_per_s) +
                   w->settle_bytes / r->scan_bytes_per_s;

    return (double)w->rounds * round * r->rounds_factor;
}

void sb_reproduce_rates_learn(struct sb_reproduce_rates *r, const struct sb_reproduce_work *w,
                              double rounds_seconds, uint32_t rounds_done,
                              double outside_seconds)
{
    struct sb_reproduce_rates prior = *r;

    prior.rounds_factor = 1.0;
    if (rounds_done > 0) { /* a round as long as the measured one, whatever the rounds made */
        r->rounds_measured += rounds_seconds / rounds_done * w->rounds;
        r->rounds_estimated += sb_reproduce_least_rounds(w, &prior);
    }
    if (r->rounds_estimated > 0 && r->rounds_measured > 0)
        r->rounds_factor = r->rounds_measured / r->rounds_estimated;
    r->outside_measured += outside_seconds;
    r->outside_bytes += w->table_bytes;
    if (r->outside_bytes > 0 && r->outside_measured > 0)
        r->outside_s_per_byte = r->outside_measured / r->outside_bytes;
}

void sb_reproduce_estimate(const struct sb_reproduce_work *w, int n, bool twice,
                           const struct sb_reproduce_rates *r, struct sb_reproduce_estimate *e)
{
    double passes = twice ? 2.0 : 1.0;

    memset(e, 0, sizeof *e);
    e->experiments = n;
    for (int i = 0; i < n; i++) {
        e->rounds += passes * sb_reproduce_least_rounds(&w[i], r);
        e->outside += passes * w[i].table_bytes * r->outside_s_per_byte;
        e->emulations += w[i].emulation_bytes * r->emulation_s_per_byte;
        e->scans += (size_t)passes * w[i].rounds * w[i].scans;
        e->runs += w[i].runs;
        e->configurations += w[i].configurations;
        if (i == 0 || w[i].rounds < e->rounds_min)
            e->rounds_min = w[i].rounds;
    }
    e->total = e->rounds + e->outside + e->emulations;
}

void sb_reproduce_estimate_text(const struct sb_reproduce_estimate *e, bool twice,
                                double budget, const char *budget_from, char *buf, size_t len)
{
    bool over = e->total > budget;
    size_t used = (size_t)snprintf(
        buf, len, "needs about %.0f s: the %u-round minimum of %d experiment%s%s (%zu timed "
        "scans) about %.0f s, outside the rounds (tables, validation, the cache model's "
        "replays) about %.0f s for %zu runs", e->total, e->rounds_min, e->experiments,
        e->experiments == 1 ? "" : "s", twice ? ", twice" : "", e->scans, e->rounds, e->outside,
        e->runs * (twice ? 2 : 1));

    if (used < len && e->configurations)
        used += (size_t)snprintf(buf + used, len - used, ", emulating the thread machines (%u "
                                 "configurations) about %.0f s", e->configurations,
                                 e->emulations);
    if (used < len)
        snprintf(buf + used, len - used, over ? "; exceeds %s %.0f s: the rounds' minimum is "
                 "kept, not lowered to fit" : "; within %s %.0f s (the rounds take what is "
                 "left)", budget_from, budget);
}
