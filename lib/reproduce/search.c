/* SPDX-License-Identifier: BSD-3-Clause */
/* search.c: the buffer search's share of the host's time (see search.h).
 * The sweep-only loop touches only the policy's state (a byte of usage count per buffer), with
 * the caches to itself: in the scan the copies compete with it for them, so its time is a lower
 * bound on the search's, and the share a lower bound too; the visits per page of the loop and
 * of the run are both given, so that the two can be seen to do the same work. */
#include "config.h"
#include "reproduce/search.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/core.h"
#include "report/report.h"
#include "vocab/vocab.h"

/* The loop is timed over whole scans for at least this long, best of SEARCH_TRIES. */
#define SEARCH_MIN_SECONDS 0.02
#define SEARCH_TRIES 3

/* Best ns per page of the policy's search over a pool of nbuffers, pages per scan, and the
 * headers it visited per page; NAN when the state cannot be made. */
static double search_ns_per_page(const struct sb_policy *p, uint32_t nbuffers, uint32_t nring,
                                 uint64_t pages, bool vacuum, double *visits_per_page)
{
    struct sb_policy_state st;
    double best = INFINITY;
    volatile uint32_t sink = 0;

    if (sb_policy_state_init(&st, nbuffers, nring, 1) != 0)
        return NAN;
    for (uint64_t i = 0; i < pages; i++) { /* one scan first: the state as a scan leaves it */
        uint32_t b = p->victim(&st);
        if (p->release)
            p->release(&st, b, vacuum);
    }
    for (int t = 0; t < SEARCH_TRIES; t++) {
        uint64_t n = 0, v0 = st.visits;
        double t0 = sb_timer_now(), el;
        do {
            for (uint64_t i = 0; i < pages; i++, n++) {
                uint32_t b = p->victim(&st);
                if (p->release)
                    p->release(&st, b, vacuum);
                sink += b;
            }
            el = sb_timer_now() - t0;
        } while (el < SEARCH_MIN_SECONDS);
        if (el / (double)n * 1e9 < best)
            best = el / (double)n * 1e9;
        *visits_per_page = (double)(st.visits - v0) / (double)n;
    }
    (void)sink;
    sb_policy_state_destroy(&st);
    return best;
}

/* One run's entry: its visits per page, the loop's, the search's ns per page against the
 * run's (its median MB/s), and the share. */
static json_t *entry(const json_t *run, const char *placement)
{
    const struct sb_policy *p = sb_policy_find(sb_field_text(run, "policy"));
    uint64_t page = (uint64_t)json_integer_value(json_object_get(run, "page_size"));
    uint64_t pool = (uint64_t)json_integer_value(json_object_get(run, "pool_size"));
    uint64_t ring = (uint64_t)json_integer_value(json_object_get(run, "ring_size"));
    uint64_t table = (uint64_t)json_integer_value(json_object_get(run, "table_size"));
    double mbps = sb_run_median_mbps(run), visits = NAN, ns, scan_ns;

    if (!p || !page || !pool || !table)
        return NULL;
    ns = search_ns_per_page(p, (uint32_t)(pool / page), (uint32_t)(ring / page), table / page,
                            strcmp(sb_field_text(run, "op"), "vacuum") == 0, &visits);
    /* the loop's cost per visit times the run's own visits per page, when the run counted
     * them (its first scans may find free buffers the loop's state no longer has) */
    if (json_is_number(json_object_get(run, "clock_visits_per_page")) && visits > 0)
        ns = ns / visits * json_number_value(json_object_get(run, "clock_visits_per_page"));
    scan_ns = mbps > 0 ? (double)page / (mbps * 1e6) * 1e9 : NAN;
    return json_pack("{s:O, s:s, s:O*, s:f, s:f, s:f, s:o}", "op", json_object_get(run, "op"),
                     "placement", placement, "run_visits_per_page",
                     json_object_get(run, "clock_visits_per_page"), "loop_visits_per_page",
                     visits, "search_ns_per_page", ns, "scan_ns_per_page", scan_ns, "share",
                     isnan(ns) || isnan(scan_ns) ? json_null() : json_real(ns / scan_ns));
}

json_t *sb_reproduce_buffer_search(const json_t *report)
{
    const json_t *thread = json_object_get(report, "thread"), *runs = json_object_get(report,
                                                                                     "runs");
    const char *placements[2] = {sb_field_text(thread, "slow"),
                                 sb_field_text(thread, "fast")};
    json_t *list = json_array(), *run;
    size_t i;

    if (!*placements[0] || !*placements[1]) {
        json_decref(list);
        return NULL;
    }
    json_array_foreach(runs, i, run) {
        char p[64];
        sb_run_placement(run, p, sizeof p);
        for (int k = 0; k < 2; k++)
            if (strcmp(p, placements[k]) == 0) {
                json_t *e = entry(run, p);
                if (e)
                    json_array_append_new(list, e);
            }
    }
    return json_pack("{s:s, s:o}", "method",
                     "the policy's buffer search alone (victim, and release for pg82) over a "
                     "scan's pages, nothing copied, timed on this host (best of 3, each at "
                     "least 20 ms) after one scan's worth, its ns per visit times the run's visits "
                     "per page; share = that / the run's ns per page (page bytes / median "
                     "MB/s): a lower bound, as the loop has the caches to itself", "runs", list);
}
