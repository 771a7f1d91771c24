/* SPDX-License-Identifier: BSD-3-Clause */
#include "config.h"
/* test_cachesim_ref.c: the cache model (lib/cachesim/cachesim.h) against a reference model written here
 * the plain way, from the model's documented rules: per set an array of ways, LRU as a list of
 * ways in recency order, pseudo-LRU as an array of tree nodes, the write-combining buffers as
 * byte maps, every step a loop. Random and scan-like traces go through both, and every counter
 * is compared after every step (and which lines each level holds, dirty or not, now and then):
 * random geometries of one to three levels with every replacement and inclusion, up to 64 ways,
 * every line size, the prefetcher, streaming stores and fences; the shapes that have their own
 * copy of the batch loop (those of configs/machines and machine=auto), small and at the
 * shipped machines' own sizes; and the batch entries (sb_cachesim_copy, aligned or not, temporal
 * or streaming, and sb_cachesim_access_lines) against one access at a time. Built three times:
 * against the library (whose models run the fastest code the CPU has: sb_cachesim_code_of),
 * against it with every model made to run the baseline code (SB_TEST_BASELINE_CODE), and with
 * lib/cachesim/model.c compiled with SB_CACHESIM_PORTABLE (no SSE2). */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cachesim/cachesim.h"
#include "cachesim/model.h"

/* --- the reference model ------------------------------------------------------------------- */

struct ref_way {
    uint64_t line;
    bool valid, dirty, prefetched;
};

struct ref_level {
    uint64_t sets;
    uint32_t ways;
    bool lru;
    enum sb_inclusion inclusion;
    struct ref_way *way;   /* sets * ways */
    uint8_t *order;        /* LRU: per set the ways, most recent first (sets * ways) */
    uint8_t *node;         /* PLRU: per set the tree's nodes 1..ways-1 (sets * ways) */
    struct sb_cachesim_level_counts n;
};

struct ref_wc {
    uint64_t line, age;
    bool busy;
    bool byte[SB_CACHESIM_MAX_LINE];
};

struct ref_model {
    unsigned nlevels;
    uint32_t line_size;
    bool prefetch;
    bool evade_full_line; /* SB_WA_FULL_LINE */
    unsigned nwc;
    uint64_t wc_age;
    struct ref_level level[SB_CACHESIM_MAX_LEVELS];
    struct ref_wc wc[SB_CACHESIM_MAX_WC_BUFFERS];
    struct sb_cachesim_counts n;
};

static void ref_create(struct ref_model *m, const struct sb_cachesim_config *cfg)
{
    memset(m, 0, sizeof *m);
    m->nlevels = cfg->nlevels;
    m->line_size = cfg->level[0].line_size;
    m->prefetch = cfg->prefetch;
    m->evade_full_line = cfg->write_allocate == SB_WA_FULL_LINE;
    m->nwc = cfg->wc_buffers;
    for (unsigned l = 0; l < m->nlevels; l++) {
        struct ref_level *L = &m->level[l];
        L->ways = cfg->level[l].associativity;
        L->sets = cfg->level[l].size / ((uint64_t)m->line_size * L->ways);
        L->lru = cfg->level[l].replacement == SB_REPL_LRU;
        L->inclusion = l == 0 ? SB_INCL_NON_INCLUSIVE : cfg->level[l].inclusion;
        L->way = calloc(L->sets * L->ways, sizeof *L->way);
        L->order = calloc(L->sets * L->ways, 1);
        L->node = calloc(L->sets * L->ways, 1);
        assert_non_null(L->way);
        assert_non_null(L->order);
        assert_non_null(L->node);
        for (uint64_t set = 0; set < L->sets; set++)
            for (uint32_t i = 0; i < L->ways; i++)
                L->order[set * L->ways + i] = (uint8_t)i; /* way 0 most recent */
    }
}

static void ref_destroy(struct ref_model *m)
{
    for (unsigned l = 0; l < m->nlevels; l++) {
        free(m->level[l].way);
        free(m->level[l].order);
        free(m->level[l].node);
    }
}

static struct ref_way *ref_ways(struct ref_level *L, uint64_t line)
{
    return &L->way[(line % L->sets) * L->ways];
}

static int ref_find(struct ref_level *L, uint64_t line)
{
    struct ref_way *w = ref_ways(L, line);

    for (uint32_t i = 0; i < L->ways; i++)
        if (w[i].valid && w[i].line == line)
            return (int)i;
    return -1;
}

/* LRU: moves way to position to (0: most recent, ways - 1: least). */
static void ref_lru_move(struct ref_level *L, uint64_t line, uint32_t way, uint32_t to)
{
    uint8_t *order = &L->order[(line % L->sets) * L->ways];
    uint8_t rest[64];
    uint32_t n = 0;

    for (uint32_t i = 0; i < L->ways; i++)
        if (order[i] != way)
            rest[n++] = order[i];
    for (uint32_t i = 0, r = 0; i < L->ways; i++)
        order[i] = i == to ? (uint8_t)way : rest[r++];
}

/* PLRU: every node on the way's path points away from it (a node's bit: 0 left, 1 right). */
static void ref_plru_touch(struct ref_level *L, uint64_t line, uint32_t way)
{
    uint8_t *node = &L->node[(line % L->sets) * L->ways];

    for (uint64_t n = way + L->ways; n > 1; n /= 2)
        node[n / 2] = (n % 2 == 0); /* came from the left child: point right */
}

static void ref_touch(struct ref_level *L, uint64_t line, uint32_t way)
{
    if (L->lru)
        ref_lru_move(L, line, way, 0);
    else
        ref_plru_touch(L, line, way);
}

static struct ref_way ref_take_out(struct ref_level *L, uint64_t line, uint32_t way)
{
    struct ref_way *w = &ref_ways(L, line)[way], old = *w;

    w->valid = false;
    if (L->lru)
        ref_lru_move(L, line, way, L->ways - 1);
    return old;
}

/* Places line; returns the way it replaced (valid false when the way was free). */
static struct ref_way ref_place(struct ref_level *L, uint64_t line, bool dirty, bool prefetched)
{
    struct ref_way *w = ref_ways(L, line), old;
    uint32_t way = L->ways;

    L->n.fills++;
    if (L->lru) {
        way = L->order[(line % L->sets) * L->ways + L->ways - 1];
    } else {
        for (uint32_t i = 0; i < L->ways && way == L->ways; i++)
            if (!w[i].valid)
                way = i;
        if (way == L->ways) {
            uint8_t *node = &L->node[(line % L->sets) * L->ways];
            uint64_t n = 1;
            while (n < L->ways)
                n = 2 * n + node[n];
            way = (uint32_t)(n - L->ways);
        }
    }
    old = w[way];
    w[way] = (struct ref_way){line, true, dirty, prefetched};
    ref_touch(L, line, way);
    return old;
}

static void ref_insert(struct ref_model *m, unsigned l, uint64_t line, bool dirty, bool pref)
{
    for (;;) {
        struct ref_level *L = &m->level[l];
        struct ref_way victim = ref_place(L, line, dirty, pref);
        bool vdirty;

        if (!victim.valid)
            return;
        vdirty = victim.dirty;
        if (l > 0 && L->inclusion == SB_INCL_INCLUSIVE) {
            for (unsigned k = 0; k < l; k++) {
                int w = ref_find(&m->level[k], victim.line);
                if (w >= 0) {
                    vdirty |= ref_take_out(&m->level[k], victim.line, (uint32_t)w).dirty;
                    m->level[k].n.invalidations++;
                }
            }
        }
        if (vdirty)
            L->n.writebacks++;
        if (l + 1 == m->nlevels) {
            if (vdirty)
                m->n.mem_write_bytes += m->line_size;
            return;
        }
        if (m->level[l + 1].inclusion != SB_INCL_EXCLUSIVE) {
            int w;
            if (!vdirty)
                return;
            w = ref_find(&m->level[l + 1], victim.line);
            if (w >= 0) {
                ref_ways(&m->level[l + 1], victim.line)[w].dirty = true;
                return;
            }
        }
        line = victim.line;
        dirty = vdirty;
        pref = false;
        l++;
    }
}

/* whole: a store of the whole line (it reads nothing under SB_WA_FULL_LINE) */
static void ref_fill_from_below(struct ref_model *m, uint64_t line, bool dirty_in, bool pref,
                                bool whole)
{
    unsigned found = m->nlevels;
    bool dirty = false;

    for (unsigned l = 1; l < m->nlevels; l++) {
        struct ref_level *L = &m->level[l];
        int w = ref_find(L, line);
        if (w >= 0) {
            L->n.hits++;
            if (L->inclusion == SB_INCL_EXCLUSIVE)
                dirty = ref_take_out(L, line, (uint32_t)w).dirty;
            else
                ref_touch(L, line, (uint32_t)w);
            found = l;
            break;
        }
        L->n.misses++;
    }
    if (found == m->nlevels && whole && m->evade_full_line)
        m->n.rfos_evaded++;
    else if (found == m->nlevels && whole)
        m->n.full_line_rfos++;
    if (found == m->nlevels && !(whole && m->evade_full_line))
        m->n.mem_read_bytes += m->line_size;
    for (unsigned l = found - 1; l >= 1; l--) {
        if (m->level[l].inclusion == SB_INCL_EXCLUSIVE)
            continue;
        ref_insert(m, l, line, dirty, false);
        dirty = false;
    }
    ref_insert(m, 0, line, dirty_in || dirty, pref);
}

static void ref_prefetch_after(struct ref_model *m, uint64_t line)
{
    uint64_t next = line + 1;

    if (next % (4096 / m->line_size) == 0 || ref_find(&m->level[0], next) >= 0)
        return;
    m->n.prefetches++;
    ref_fill_from_below(m, next, false, true, false);
}

static void ref_access(struct ref_model *m, uint64_t address, uint64_t size, bool write)
{
    if (size == 0)
        return;
    for (uint64_t line = address / m->line_size; line <= (address + size - 1) / m->line_size;
         line++) {
        struct ref_level *L1 = &m->level[0];
        int w = ref_find(L1, line);
        if (w >= 0) {
            struct ref_way *way = &ref_ways(L1, line)[w];
            bool was_prefetched = way->prefetched;
            L1->n.hits++;
            way->dirty |= write;
            way->prefetched = false;
            ref_touch(L1, line, (uint32_t)w);
            if (was_prefetched)
                ref_prefetch_after(m, line);
            continue;
        }
        L1->n.misses++;
        ref_fill_from_below(m, line, write, false,
                            write && line * m->line_size >= address &&
                                (line + 1) * m->line_size <= address + size);
        if (m->prefetch)
            ref_prefetch_after(m, line);
    }
}

static void ref_wc_flush(struct ref_model *m, struct ref_wc *b)
{
    uint64_t bytes = 0;

    for (unsigned l = 0; l < m->nlevels; l++) {
        int w = ref_find(&m->level[l], b->line);
        if (w < 0)
            continue;
        m->level[l].n.invalidations++;
        if (ref_take_out(&m->level[l], b->line, (uint32_t)w).dirty) {
            m->level[l].n.writebacks++;
            m->n.mem_write_bytes += m->line_size;
        }
    }
    for (uint32_t i = 0; i < m->line_size; i++)
        bytes += b->byte[i];
    if (bytes == m->line_size) {
        m->n.wc_full_lines++;
    } else {
        m->n.wc_partial_flushes++;
        m->n.wc_partial_bytes += bytes;
    }
    m->n.mem_write_bytes += bytes;
    b->busy = false;
}

static struct ref_wc *ref_wc_oldest(struct ref_model *m)
{
    struct ref_wc *oldest = NULL;

    for (unsigned i = 0; i < m->nwc; i++)
        if (m->wc[i].busy && (!oldest || m->wc[i].age < oldest->age))
            oldest = &m->wc[i];
    return oldest;
}

/* Streaming stores, line by line: each line's part goes into the buffer holding the line, or
 * a free one, or the oldest (flushed first); a buffer whose line is whole goes at once. */
static void ref_stream_store(struct ref_model *m, uint64_t address, uint64_t len)
{
    uint64_t a = address;

    while (a < address + len) {
        uint64_t line = a / m->line_size, end = (line + 1) * m->line_size;
        struct ref_wc *b = NULL;
        bool whole = true;
        if (end > address + len)
            end = address + len;
        m->n.line_accesses++;
        for (unsigned i = 0; i < m->nwc && !b; i++)
            if (m->wc[i].busy && m->wc[i].line == line)
                b = &m->wc[i];
        if (!b) {
            for (unsigned i = 0; i < m->nwc && !b; i++)
                if (!m->wc[i].busy)
                    b = &m->wc[i];
            if (!b) {
                b = ref_wc_oldest(m);
                ref_wc_flush(m, b);
            }
            memset(b, 0, sizeof *b);
            b->busy = true;
            b->line = line;
            b->age = ++m->wc_age;
        }
        for (; a < end; a++)
            b->byte[a % m->line_size] = true;
        for (uint32_t i = 0; i < m->line_size; i++)
            whole &= b->byte[i];
        if (whole)
            ref_wc_flush(m, b);
    }
}

static void ref_fence(struct ref_model *m)
{
    struct ref_wc *b;

    while ((b = ref_wc_oldest(m)) != NULL)
        ref_wc_flush(m, b);
}

static void ref_read_counts(const struct ref_model *m, struct sb_cachesim_counts *n)
{
    *n = m->n;
    for (unsigned l = 0; l < m->nlevels; l++)
        n->level[l] = m->level[l].n;
    n->line_accesses += n->level[0].hits + n->level[0].misses;
}

static void ref_reset_counts(struct ref_model *m)
{
    memset(&m->n, 0, sizeof m->n);
    for (unsigned l = 0; l < m->nlevels; l++)
        memset(&m->level[l].n, 0, sizeof m->level[l].n);
}

/* --- both at once ------------------------------------------------------------------------- */

struct pair {
    struct sb_cachesim *sim;
    struct ref_model ref;
    const char *what; /* the trace, for failure messages */
    uint64_t step;
};

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static void pair_create(struct pair *p, const struct sb_cachesim_config *cfg, const char *what)
{
    struct sb_error err = {0};

    if (sb_cachesim_create(cfg, &p->sim, &err) != SB_OK)
        fail_msg("%s: %s", what, err.msg);
#ifdef SB_TEST_BASELINE_CODE
    if (!sb_cachesim_use_code(p->sim, SB_CACHESIM_CODE_BASELINE))
        fail_msg("%s: the baseline code refused", what);
#endif
    ref_create(&p->ref, cfg);
    p->what = what;
    p->step = 0;
}

static void pair_destroy(struct pair *p)
{
    sb_cachesim_destroy(p->sim);
    ref_destroy(&p->ref);
}

#define COUNT_FIELD(f) {#f, offsetof(struct sb_cachesim_counts, f)}

/* Every counter of the model equals the reference's. */
static void pair_check(struct pair *p)
{
    static const struct {
        const char *name;
        size_t offset;
    } field[] = {COUNT_FIELD(line_accesses), COUNT_FIELD(prefetches),
                 COUNT_FIELD(mem_read_bytes), COUNT_FIELD(mem_write_bytes),
                 COUNT_FIELD(wc_full_lines), COUNT_FIELD(wc_partial_flushes),
                 COUNT_FIELD(wc_partial_bytes), COUNT_FIELD(full_line_rfos),
                 COUNT_FIELD(rfos_evaded)};
    static const char *const level_field[] = {"hits", "misses", "fills", "writebacks",
                                              "invalidations"};
    struct sb_cachesim_counts a, b;

    p->step++;
    sb_cachesim_read_counts(p->sim, &a);
    ref_read_counts(&p->ref, &b);
    for (size_t i = 0; i < sizeof field / sizeof *field; i++) {
        uint64_t x, y;
        memcpy(&x, (const char *)&a + field[i].offset, sizeof x);
        memcpy(&y, (const char *)&b + field[i].offset, sizeof y);
        if (x != y)
            fail_msg("%s, step %llu: %s %llu, reference %llu", p->what,
                     (unsigned long long)p->step, field[i].name, (unsigned long long)x,
                     (unsigned long long)y);
    }
    for (unsigned l = 0; l < SB_CACHESIM_MAX_LEVELS; l++) {
        const uint64_t *x = &a.level[l].hits, *y = &b.level[l].hits;
        for (int f = 0; f < 5; f++)
            if (x[f] != y[f])
                fail_msg("%s, step %llu: %s %s %llu, reference %llu", p->what,
                         (unsigned long long)p->step, sb_cache_level_names[l], level_field[f],
                         (unsigned long long)x[f], (unsigned long long)y[f]);
    }
}

/* Every line of lines lines from first is held, dirty or not, by the same levels in both. */
static void pair_check_contents(struct pair *p, uint64_t first, uint64_t lines)
{
    for (unsigned l = 0; l < p->ref.nlevels; l++) {
        for (uint64_t line = first; line < first + lines; line++) {
            bool dirty = false;
            bool held = sb_cachesim_holds(p->sim, l, line * p->ref.line_size, &dirty);
            int w = ref_find(&p->ref.level[l], line);
            if (held != (w >= 0) ||
                (held && dirty != ref_ways(&p->ref.level[l], line)[w].dirty))
                fail_msg("%s, step %llu: %s line %llu held %d dirty %d, reference held %d",
                         p->what, (unsigned long long)p->step, sb_cache_level_names[l],
                         (unsigned long long)line, held, dirty, w >= 0);
        }
    }
}

static void both_access(struct pair *p, uint64_t address, uint64_t size, bool write)
{
    sb_cachesim_access(p->sim, address, size, write);
    ref_access(&p->ref, address, size, write);
    pair_check(p);
}

static void both_stream(struct pair *p, uint64_t address, uint64_t len)
{
    sb_cachesim_stream_store(p->sim, address, len);
    ref_stream_store(&p->ref, address, len);
    pair_check(p);
}

static void both_fence(struct pair *p)
{
    sb_cachesim_fence(p->sim);
    ref_fence(&p->ref);
    pair_check(p);
}

/* The batch copy against the reference's line-sized chunks, one at a time. */
static void both_copy(struct pair *p, uint64_t src, uint64_t dst, uint64_t len, bool stream)
{
    const uint32_t line = p->ref.line_size;

    sb_cachesim_copy(p->sim, src, dst, len, stream);
    for (uint64_t off = 0; off < len; off += line) {
        ref_access(&p->ref, src + off, line, false);
        if (stream)
            ref_stream_store(&p->ref, dst + off, line);
        else
            ref_access(&p->ref, dst + off, line, true);
    }
    pair_check(p);
}

/* The line list (of a whole model: line numbers as they are, from first) against the
 * reference's accesses of one byte of each line, one at a time. */
static void both_lines(struct pair *p, uint64_t first, const uint16_t *entries, size_t n)
{
    sb_cachesim_access_lines(p->sim, first, entries, n);
    for (size_t i = 0; i < n; i++)
        ref_access(&p->ref, (first + (entries[i] >> SB_CACHESIM_ENTRY_SHIFT)) * p->ref.line_size,
                   1, entries[i] & SB_CACHESIM_LINE_WRITE);
    pair_check(p);
}

/* --- traces --------------------------------------------------------------------------------- */

/* A random valid configuration: one to three levels, tiny sets (so that lines meet), every
 * replacement, inclusion and line size, 1 to 6 WC buffers, the prefetcher on or off. */
static struct sb_cachesim_config random_config(void)
{
    struct sb_cachesim_config c;
    struct sb_cachesim_problem problem;

    do {
        const uint32_t line = 16u << (rnd() % 4);
        memset(&c, 0, sizeof c);
        c.nlevels = 1 + (unsigned)(rnd() % 3);
        for (unsigned l = 0; l < c.nlevels; l++) {
            struct sb_cachesim_level_config *L = &c.level[l];
            L->line_size = line;
            L->replacement = rnd() % 2 ? SB_REPL_LRU : SB_REPL_PLRU;
            L->associativity = L->replacement == SB_REPL_LRU ? 1 + (uint32_t)(rnd() % 16)
                                                             : 1u << (rnd() % 7);
            L->size = (1ull << (rnd() % 6)) * L->associativity * line;
            L->inclusion = (enum sb_inclusion)(l ? rnd() % 3 : 0);
        }
        c.wc_buffers = 1 + (unsigned)(rnd() % 6);
        c.prefetch = rnd() % 2;
        c.write_allocate = (enum sb_write_allocate)(rnd() % 3);
    } while (sb_cachesim_config_check(&c, &problem) != SB_OK);
    return c;
}

/* A random trace over span bytes: loads and stores of any size and alignment, streaming stores
 * (whole lines and pieces), fences, copies (aligned or not, temporal or streaming), lists,
 * count resets; the contents compared every 50 steps. */
static void random_trace(struct pair *p, uint64_t base, uint64_t span, int steps)
{
    const uint32_t line = p->ref.line_size;

    for (int step = 0; step < steps; step++) {
        uint64_t r = rnd() % 100, address = base + rnd() % span;
        if (r < 45) {
            both_access(p, address, rnd() % 3 ? 1 + rnd() % 16 : rnd() % (3 * line),
                        rnd() % 3 == 0);
        } else if (r < 60) {
            if (rnd() % 2)
                address &= ~(uint64_t)(line - 1);
            both_stream(p, address, rnd() % 2 ? line : rnd() % (3 * line));
        } else if (r < 65) {
            both_fence(p);
        } else if (r < 82) {
            uint64_t dst = base + rnd() % span, len = line * (1 + rnd() % 32);
            if (rnd() % 4) {
                address &= ~(uint64_t)(line - 1);
                dst &= ~(uint64_t)(line - 1);
            }
            if (rnd() % 8 == 0)
                len = rnd() % (3 * line);
            both_copy(p, address, dst, len, rnd() % 3 == 0);
        } else if (r < 97) {
            const uint64_t first = (base + rnd() % span) / line;
            uint16_t entries[24];
            size_t n = rnd() % 24;
            for (size_t i = 0; i < n; i++) { /* often the line before, as the op's walk */
                uint64_t at = i && rnd() % 3 == 0 ? entries[i - 1] >> SB_CACHESIM_ENTRY_SHIFT
                                                  : rnd() % (span / line);
                entries[i] = (uint16_t)(at << SB_CACHESIM_ENTRY_SHIFT |
                                        (rnd() % 3 == 0 ? SB_CACHESIM_LINE_WRITE : 0));
            }
            both_lines(p, first, entries, n);
        } else {
            sb_cachesim_reset_counts(p->sim);
            ref_reset_counts(&p->ref);
            pair_check(p);
        }
        if (step % 50 == 49)
            pair_check_contents(p, base / line, span / line + 3);
    }
}

static void test_random_configs(void **state)
{
    char what[128];

    (void)state;
    for (int i = 0; i < 300; i++) {
        struct sb_cachesim_config c = random_config();
        struct pair p;
        snprintf(what, sizeof what, "random configuration %d", i);
        pair_create(&p, &c, what);
        random_trace(&p, rnd() % 2 ? 0 : 1ull << 40, (uint64_t)c.level[0].line_size *
                     (16 + rnd() % 1024), 400);
        pair_destroy(&p);
    }
}

/* The shapes with their own copy of the batch loop (model.c), as configurations: the
 * levels' replacement, inclusion and the associativity the shape has as a constant (0: any);
 * sizes, and the ways left open, chosen by the caller. */
static const struct {
    const char *name;
    unsigned nlevels;
    enum sb_replacement replacement[3];
    enum sb_inclusion inclusion[3];
    uint32_t ways[3];
} shapes[] = {
    {"x4500", 2, {SB_REPL_LRU, SB_REPL_PLRU}, {0, SB_INCL_EXCLUSIVE}, {2, 16}},
    {"piii-1260", 2, {SB_REPL_PLRU, SB_REPL_PLRU}, {0, SB_INCL_NON_INCLUSIVE}, {4, 8}},
    {"xeon-1mb", 2, {SB_REPL_PLRU, SB_REPL_PLRU}, {0, SB_INCL_NON_INCLUSIVE}, {8, 8}},
    {"xeon-spr", 3, {SB_REPL_LRU, SB_REPL_LRU, SB_REPL_LRU},
     {0, SB_INCL_NON_INCLUSIVE, SB_INCL_NON_INCLUSIVE}, {0, 16, 0}},
    {"epyc-zen4", 3, {SB_REPL_LRU, SB_REPL_LRU, SB_REPL_LRU},
     {0, SB_INCL_INCLUSIVE, SB_INCL_EXCLUSIVE}, {8, 8, 16}},
    {"auto on AMD Zen", 3, {SB_REPL_LRU, SB_REPL_LRU, SB_REPL_LRU},
     {0, SB_INCL_NON_INCLUSIVE, SB_INCL_EXCLUSIVE}, {8, 8, 16}},
    {"auto on AMD", 3, {SB_REPL_LRU, SB_REPL_LRU, SB_REPL_LRU},
     {0, SB_INCL_NON_INCLUSIVE, SB_INCL_EXCLUSIVE}, {0, 0, 0}},
    {"auto elsewhere", 3, {SB_REPL_LRU, SB_REPL_LRU, SB_REPL_LRU},
     {0, SB_INCL_NON_INCLUSIVE, SB_INCL_INCLUSIVE}, {0, 0, 0}},
    {"auto, two levels", 2, {SB_REPL_LRU, SB_REPL_LRU}, {0, SB_INCL_NON_INCLUSIVE}, {0, 0}},
};

/* Each common shape at random small geometries (its own ways, or up to 16, no prefetcher: the
 * shape's own copy of the loop), through random traces and page copies. */
static void test_common_shapes_small(void **state)
{
    char what[128];

    (void)state;
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++) {
        for (int i = 0; i < 40; i++) {
            struct sb_cachesim_config c;
            struct sb_cachesim_problem problem;
            struct pair p;
            do {
                const uint32_t line = 16u << (rnd() % 4);
                memset(&c, 0, sizeof c);
                c.nlevels = shapes[s].nlevels;
                for (unsigned l = 0; l < c.nlevels; l++) {
                    struct sb_cachesim_level_config *L = &c.level[l];
                    L->line_size = line;
                    L->replacement = shapes[s].replacement[l];
                    if (shapes[s].ways[l])
                        L->associativity = shapes[s].ways[l];
                    else if (L->replacement == SB_REPL_LRU)
                        L->associativity = 1 + (uint32_t)(rnd() % 16);
                    else
                        L->associativity = 1u << (rnd() % 5);
                    L->size = (1ull << (rnd() % 6)) * L->associativity * line;
                    L->inclusion = shapes[s].inclusion[l];
                }
                c.wc_buffers = 1 + (unsigned)(rnd() % 6);
            } while (sb_cachesim_config_check(&c, &problem) != SB_OK);
            snprintf(what, sizeof what, "shape %s, configuration %d", shapes[s].name, i);
            pair_create(&p, &c, what);
            random_trace(&p, 1ull << 40, (uint64_t)c.level[0].line_size * (16 + rnd() % 512),
                         300);
            pair_destroy(&p);
        }
    }
}

/* The lines of size bytes at offset in the page, as line list entries from the page's first
 * line (a load, or a store if write). */
static size_t page_lines(uint16_t *entries, size_t n, uint32_t line_size, uint32_t offset,
                         uint32_t size, bool write)
{
    for (uint32_t line = offset / line_size; line <= (offset + size - 1) / line_size; line++)
        entries[n++] = (uint16_t)(line << SB_CACHESIM_ENTRY_SHIFT |
                                  (write ? SB_CACHESIM_LINE_WRITE : 0));
    return n;
}

/* A scan as counters_sim feeds it: for each page in block order the copy (temporal or
 * streaming, then a fence), then the op's reads and writes as a line list (pd_lower, each line
 * pointer and tuple header, some hint bits). The IO cache and the pool at their own 1TB bases. */
static void scan_trace(struct pair *p, uint64_t pages, uint32_t page_size, uint64_t pool_pages,
                       bool stream)
{
    const uint64_t table = 1ull << 40, pool = 2ull << 40;

    for (uint64_t page = 0; page < pages; page++) {
        uint64_t src = table + page * page_size;
        uint64_t dst = pool + (rnd() % pool_pages) * page_size;
        const uint32_t line = p->ref.line_size;
        uint16_t entries[256];
        size_t n = 0;
        both_copy(p, src, dst, page_size, stream);
        if (stream)
            both_fence(p);
        n = page_lines(entries, n, line, 12, 2, false);
        for (uint32_t item = 0; item < 40; item++) {
            uint32_t off = page_size - (item + 1) * (page_size / 48);
            n = page_lines(entries, n, line, 24 + 4 * item, 4, false);
            n = page_lines(entries, n, line, off + 4, 18, false);
            if (item % 3 == 0)
                n = page_lines(entries, n, line, off + 20, 2, true);
        }
        both_lines(p, dst / line, entries, n);
        if (page % 64 == 63)
            pair_check_contents(p, dst / p->ref.line_size, page_size / p->ref.line_size);
    }
}

static struct sb_cachesim_level_config lc(uint64_t size, uint32_t line, uint32_t ways,
                                          enum sb_replacement r, enum sb_inclusion inc)
{
    struct sb_cachesim_level_config c = {size, line, ways, r, inc};
    return c;
}

/* The shipped machines' geometries (configs/machines) and this kind of host's machine=auto,
 * through scan-like traces: 8KB pages over a pool of 96 pages, temporal and streaming. */
static void test_machines_scan(void **state)
{
    const struct {
        const char *name;
        struct sb_cachesim_config cfg;
    } machines[] = {
        {"x4500", {2, {lc(64 << 10, 64, 2, SB_REPL_LRU, 0),
                       lc(1 << 20, 64, 16, SB_REPL_PLRU, SB_INCL_EXCLUSIVE)}, 4, false,
                           SB_WA_NT_STORES}},
        {"piii-1260", {2, {lc(16 << 10, 32, 4, SB_REPL_PLRU, 0),
                           lc(512 << 10, 32, 8, SB_REPL_PLRU, SB_INCL_NON_INCLUSIVE)}, 4, false,
                               SB_WA_NT_STORES}},
        {"xeon-1mb", {2, {lc(16 << 10, 64, 8, SB_REPL_PLRU, 0),
                          lc(1 << 20, 64, 8, SB_REPL_PLRU, SB_INCL_NON_INCLUSIVE)}, 6, false,
                              SB_WA_NT_STORES}},
        {"xeon-spr", {3, {lc(48 << 10, 64, 12, SB_REPL_LRU, 0),
                          lc(2 << 20, 64, 16, SB_REPL_LRU, SB_INCL_NON_INCLUSIVE),
                          lc(60u << 20, 64, 15, SB_REPL_LRU, SB_INCL_NON_INCLUSIVE)}, 16, false,
                              SB_WA_NT_STORES}},
        {"epyc-zen4", {3, {lc(32 << 10, 64, 8, SB_REPL_LRU, 0),
                           lc(1 << 20, 64, 8, SB_REPL_LRU, SB_INCL_INCLUSIVE),
                           lc(32u << 20, 64, 16, SB_REPL_LRU, SB_INCL_EXCLUSIVE)}, 12, false,
                               SB_WA_NT_STORES}},
        {"auto (EPYC VM)", {3, {lc(32 << 10, 64, 8, SB_REPL_LRU, 0),
                                lc(512 << 10, 64, 8, SB_REPL_LRU, SB_INCL_NON_INCLUSIVE),
                                lc(32u << 20, 64, 16, SB_REPL_LRU, SB_INCL_EXCLUSIVE)},
                            10, false, SB_WA_NT_STORES}},
        {"x4500 with the prefetcher", {2, {lc(64 << 10, 64, 2, SB_REPL_LRU, 0),
                                           lc(1 << 20, 64, 16, SB_REPL_PLRU,
                                              SB_INCL_EXCLUSIVE)}, 4, true, SB_WA_NT_STORES}},
    };

    (void)state;
    for (size_t i = 0; i < sizeof machines / sizeof *machines; i++) {
        struct pair p;
        pair_create(&p, &machines[i].cfg, machines[i].name);
        scan_trace(&p, 400, 8192, 96, false);
        scan_trace(&p, 40, 8192, 96, true);
        pair_destroy(&p);
    }
}

/* Small caches under the scan: the pool and the table cycle through every level many times,
 * for each common shape and a wide (64-way) one. */
static void test_small_scan(void **state)
{
    char what[128];

    (void)state;
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++) {
        struct sb_cachesim_config c;
        struct pair p;
        memset(&c, 0, sizeof c);
        c.nlevels = shapes[s].nlevels;
        for (unsigned l = 0; l < c.nlevels; l++)
            c.level[l] = lc((2048u << (2 * l)) * (l == 2 ? 2 : 1), 64, 4 << l,
                            shapes[s].replacement[l], shapes[s].inclusion[l]);
        c.wc_buffers = 3;
        snprintf(what, sizeof what, "small scan, shape %s", shapes[s].name);
        pair_create(&p, &c, what);
        scan_trace(&p, 300, 1024, 24, false);
        scan_trace(&p, 50, 1024, 24, true);
        pair_destroy(&p);
    }
    {
        struct sb_cachesim_config wide = {2, {lc(4096, 64, 64, SB_REPL_PLRU, 0),
                                              lc(16384, 64, 32, SB_REPL_PLRU,
                                                 SB_INCL_INCLUSIVE)}, 2, false, SB_WA_NT_STORES};
        struct pair p;
        pair_create(&p, &wide, "small scan, 64 and 32 ways");
        scan_trace(&p, 300, 1024, 24, false);
        pair_destroy(&p);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_configs),
        cmocka_unit_test(test_common_shapes_small),
        cmocka_unit_test(test_machines_scan),
        cmocka_unit_test(test_small_scan),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
