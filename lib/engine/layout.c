/* SPDX-License-Identifier: BSD-3-Clause */
/* layout.c: a configuration's layouts (key layout): the memory behind its pools noted, and
 * drawn anew between rounds by copying each pool into a fresh mapping. */
#include "config.h"
#include "engine/engine.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "engine/config_state.h"

/* The buffers, size and placement of the configuration's k-th pool (the shared one, or each
 * scanner's own); false past the last. */
static bool pool_at(struct sb_config *cfg, uint32_t k, uint8_t ***buffers, size_t *bytes,
                    struct sb_placement_found **found)
{
    if (cfg->use_shared) {
        if (k > 0)
            return false;
        *buffers = &cfg->shared.buffers;
        *bytes = cfg->shared.bytes;
        *found = &cfg->shared.placement;
        return true;
    }
    if (k >= cfg->nworkers)
        return false;
    *buffers = &cfg->slots[k].pool.buffers;
    *bytes = cfg->slots[k].pool.bytes;
    *found = &cfg->slots[k].pool.placement;
    return true;
}

static struct sb_layout_record *new_record(struct sb_config *cfg, struct sb_error *err)
{
    struct sb_run_result *res = &cfg->res;

    if (res->nlayouts == res->layouts_cap) {
        uint32_t cap = res->layouts_cap ? 2 * res->layouts_cap : 8;
        struct sb_layout_record *more = realloc(res->layouts, cap * sizeof *more);
        if (!more) {
            sb_fail(err, SB_ERR_RUN, "out of memory for the layouts of %s", cfg->p->name);
            return NULL;
        }
        res->layouts = more;
        res->layouts_cap = cap;
    }
    return memset(&res->layouts[res->nlayouts++], 0, sizeof *res->layouts);
}

int sb_config_layout_note(struct sb_config *cfg, uint32_t index, uint32_t first_round,
                          uint64_t colour_bytes, struct sb_error *err)
{
    struct sb_layout_record *rec = new_record(cfg, err);
    uint64_t footprint;
    uint8_t **buffers;
    size_t bytes;
    struct sb_placement_found *found;

    if (!rec)
        return SB_ERR_RUN;
    rec->index = index;
    rec->first_round = first_round;
    rec->at = sb_timer_now();
    if (!pool_at(cfg, 0, &buffers, &bytes, &found))
        return SB_OK;
    snprintf(rec->pages, sizeof rec->pages, "%s", found->map_len ? found->pages : "kept");
    /* the buffers the policy uses: a ring's are the pool's first */
    footprint = sb_policy_footprint(cfg->p->policy, cfg->p->pool_size, cfg->p->ring_size,
                                    cfg->p->page_size);
    sb_frames_summarise(*buffers, footprint < bytes ? footprint : bytes, colour_bytes,
                        &rec->frames);
    return SB_OK;
}

static bool used(const struct sb_config *cfg, uint32_t k, uint32_t b)
{
    return (cfg->use_shared ? atomic_load(&cfg->shared.tag[b]) : cfg->slots[k].pool.tag[b]) >= 0;
}

/* Copies the buffers that hold a page (tag >= 0: the ones the policy has used, which the
 * settling pass before each timed scan keeps using) from old into now, the mapping backed up to
 * the last of them first (one madvise: half the cost of a fault per page); a buffer never used
 * past them stays unbacked, as a ring's pool beyond its ring. */
static void copy_used(struct sb_config *cfg, uint32_t k, uint8_t *now, const uint8_t *old)
{
    const size_t page = cfg->p->page_size;
    uint32_t n = cfg->use_shared ? cfg->shared.nbuffers : cfg->slots[k].pool.nbuffers, last = n;

    while (last > 0 && !used(cfg, k, last - 1))
        last--;
    if (last)
        sb_mem_populate_only(now, (size_t)last * page);
    for (uint32_t b = 0; b < last; b++)
        if (used(cfg, k, b))
            memcpy(now + b * page, old + b * page, page);
}

int sb_config_redraw(struct sb_config *cfg, uint32_t index, uint32_t first_round,
                     uint64_t colour_bytes, struct sb_error *err)
{
    const struct sb_run_params *p = cfg->p;
    bool huge = p->pool_layout == SB_LAYOUT_HUGEPAGES;
    double t0 = sb_timer_now();
    uint8_t **buffers;
    size_t bytes;
    struct sb_placement_found *found;
    int status;

    for (uint32_t k = 0; pool_at(cfg, k, &buffers, &bytes, &found); k++) {
        struct sb_placement_found fresh = {0};
        int node = cfg->res.scanners[cfg->use_shared ? 0 : k].node;
        uint8_t *now = sb_mem_alloc_fresh(bytes, &p->pool_node, node, huge, false, &fresh);
        if (!now)
            return sb_fail(err, SB_ERR_RUN, "%s: cannot allocate a new layout of its %zu-byte "
                           "pool (layout = fixed keeps one)", p->name, bytes);
        copy_used(cfg, k, now, *buffers);
        sb_placement_verify(now, bytes, false, &fresh);
        sb_mem_free_placed(*buffers, bytes, found);
        *buffers = now;
        *found = fresh;
        if (k == 0)
            cfg->res.pool_placement = fresh;
    }
    status = sb_config_layout_note(cfg, index, first_round, colour_bytes, err);
    if (status == SB_OK)
        cfg->res.layouts[cfg->res.nlayouts - 1].seconds = sb_timer_now() - t0;
    return status;
}
