/* cachesim.c: the cache-hierarchy model (see cachesim.h): lookups, fills, evictions through the
 * inclusion policies, write-backs, write-combining buffers and the next-line prefetcher.
 *
 * Each level is one flat array of sets; a set is one block of uint64 words:
 *   word 0           the replacement state: for LRU the ways in recency order, 4 bits each,
 *                    most recent in the low bits (so LRU sets have at most 16 ways); for
 *                    pseudo-LRU a binary tree of ways-1 bits in heap order (node 1 the root,
 *                    node n's children 2n and 2n+1, the leaves ways..2*ways-1; a bit of 0 sends
 *                    the victim search left, 1 right; a touch points its path away from the way)
 *   hint words       one byte per way: a hash of the line (0x80..0xff), 0 for a free way, 0xff
 *                    for the padding up to a multiple of 8 ways; eight ways are compared at once
 *                    (a zero-byte search on hints ^ key), and only a matching hint's tag is read
 *   tag words        (line number << 2) | PREFETCHED | DIRTY, or TAG_INVALID for a free way.
 * Free LRU ways are kept at the least-recent end of the order, so the victim is always the
 * last way of the order. */
#include "config.h"
#include "cachesim.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "units.h"

#define TAG_DIRTY 1u
#define TAG_PREFETCHED 2u
#define TAG_INVALID UINT64_MAX
#define TAG_OF(line, flags) (((line) << 2) | (flags))
#define LINE_OF(tag) ((tag) >> 2)

const char *const sb_replacement_names[] = {[SB_REPL_LRU] = "lru", [SB_REPL_PLRU] = "plru", NULL};
const char *const sb_inclusion_names[] = {[SB_INCL_NON_INCLUSIVE] = "non-inclusive",
                                          [SB_INCL_INCLUSIVE] = "inclusive",
                                          [SB_INCL_EXCLUSIVE] = "exclusive", NULL};
const char *const sb_cache_level_names[SB_CACHESIM_MAX_LEVELS] = {"L1d", "L2", "L3"};

struct level {
    uint64_t *sets_mem;   /* sets * stride words */
    uint64_t set_mask;    /* sets - 1 */
    uint64_t sets;
    uint64_t order_mask;  /* LRU: the low 4 * ways bits of the order word */
    unsigned set_bits;    /* log2(sets) */
    uint32_t ways;
    uint32_t hint_words;  /* ceil(ways / 8) */
    uint32_t stride;      /* words per set: 1 + hint_words + ways */
    uint32_t tag_offset;  /* 1 + hint_words */
    enum sb_replacement replacement;
    enum sb_inclusion inclusion;
    struct sb_cachesim_level_counts n;
    uint64_t plru_clear[SB_CACHESIM_MAX_WAYS]; /* PLRU: a touch of way w is */
    uint64_t plru_set[SB_CACHESIM_MAX_WAYS];   /* (bits & ~plru_clear[w]) | plru_set[w] */
};

struct wc_buffer {
    uint64_t line;
    uint64_t mask[SB_CACHESIM_MAX_LINE / 64]; /* bytes of the line written so far */
    uint64_t age;                              /* allocation order: the oldest is flushed */
    bool busy;
};

struct sb_cachesim {
    struct level level[SB_CACHESIM_MAX_LEVELS];
    unsigned nlevels;
    unsigned line_shift;
    uint32_t line_size;
    uint64_t lines_per_4k_mask; /* the prefetcher does not cross a 4KB page */
    bool prefetch;
    unsigned nwc;
    uint64_t wc_age;
    struct wc_buffer wc[SB_CACHESIM_MAX_WC_BUFFERS];
    struct sb_cachesim_counts n; /* the per-level counts live in level[].n */
};

static bool is_pow2(uint64_t x) { return x && !(x & (x - 1)); }

static unsigned log2_of(uint64_t x)
{
    unsigned s = 0;
    while ((1ull << s) < x)
        s++;
    return s;
}

/* --- one set --------------------------------------------------------------------------------- */

#define BYTES_01 0x0101010101010101ull
#define BYTES_80 0x8080808080808080ull
#define NIBBLES_1 0x1111111111111111ull

static inline uint64_t *set_of(const struct level *L, uint64_t line)
{
    return L->sets_mem + (line & L->set_mask) * L->stride;
}

static inline uint64_t *tags_of(const struct level *L, uint64_t *set)
{
    return set + L->tag_offset;
}

/* The line's hint byte: 0x80 | the low 7 bits of the tag above the set index (never 0, the
 * mark of a free way, nor 0x7f, the padding's). */
static inline uint64_t hint_of(const struct level *L, uint64_t line)
{
    return 0x80 | ((line >> L->set_bits) & 0x7f);
}

static inline void set_hint(const struct level *L, uint64_t *set, uint32_t way, uint64_t hint)
{
    uint64_t *word = set + 1 + way / 8;
    unsigned shift = (way % 8) * 8;
    (void)L;
    *word = (*word & ~(0xffull << shift)) | (hint << shift);
}

/* The high bit of every byte of x that is zero (exact: no carry crosses a byte). */
static inline uint64_t zero_bytes(uint64_t x)
{
    return ~(((x & ~BYTES_80) + ~BYTES_80) | x | ~BYTES_80);
}

/* The way holding line, or -1: the ways whose hint matches, then their tags. */
static inline int find_way(const struct level *L, uint64_t *set, uint64_t line)
{
    uint64_t key = hint_of(L, line) * BYTES_01;
    const uint64_t *tags = tags_of(L, set);
    uint32_t i = 0;

    do {
        uint64_t m = zero_bytes(set[1 + i] ^ key);
        while (m) {
            uint32_t w = i * 8 + (uint32_t)(__builtin_ctzll(m) >> 3);
            if (LINE_OF(tags[w]) == line)
                return (int)w;
            m &= m - 1;
        }
    } while (++i < L->hint_words);
    return -1;
}

/* An empty set: every way free, LRU order 0, 1, 2, ... (way 0 most recent), PLRU bits 0. */
static void set_clear(const struct level *L, uint64_t *set)
{
    set[0] = L->replacement == SB_REPL_LRU ? 0xfedcba9876543210ull & L->order_mask : 0;
    for (uint32_t i = 0; i < L->hint_words; i++)
        set[1 + i] = 0;
    for (uint32_t w = L->ways; w < L->hint_words * 8; w++)
        set_hint(L, set, w, 0x7f); /* padding: never free, never a line's hint */
    for (uint32_t w = 0; w < L->ways; w++)
        tags_of(L, set)[w] = TAG_INVALID;
}

/* LRU: where way sits in the order (0 = most recent). */
static inline unsigned lru_position(const struct level *L, uint64_t order, uint32_t way)
{
    uint64_t x = order ^ (way * NIBBLES_1);
    uint64_t nonzero = (x | (x >> 1) | (x >> 2) | (x >> 3)) & NIBBLES_1;
    return (unsigned)__builtin_ctzll(~nonzero & NIBBLES_1 & L->order_mask) / 4;
}

static inline uint64_t low_nibbles(unsigned n) { return n >= 16 ? UINT64_MAX : (1ull << (4 * n)) - 1; }

/* Pseudo-LRU: point every node on the way's path away from it (masks made by plru_masks). */
static inline uint64_t plru_touch(const struct level *L, uint64_t bits, uint32_t way)
{
    return (bits & ~L->plru_clear[way]) | L->plru_set[way];
}

static void plru_masks(struct level *L)
{
    for (uint32_t way = 0; way < L->ways; way++) {
        L->plru_clear[way] = L->plru_set[way] = 0;
        for (uint64_t node = way + L->ways; node > 1; node >>= 1) {
            uint64_t parent = node >> 1;
            L->plru_clear[way] |= 1ull << parent;
            if (!(node & 1)) /* came from the left: the victim search goes right */
                L->plru_set[way] |= 1ull << parent;
        }
    }
}

static inline uint32_t plru_victim(const struct level *L, uint64_t bits)
{
    uint64_t node = 1;

    while (node < L->ways)
        node = 2 * node + ((bits >> node) & 1);
    return (uint32_t)(node - L->ways);
}

/* A hit: the way becomes the most recently used; its tag becomes tag. */
static inline void touch(const struct level *L, uint64_t *set, uint32_t way, uint64_t tag)
{
    tags_of(L, set)[way] = tag;
    if (L->replacement == SB_REPL_LRU) {
        uint64_t order = set[0];
        unsigned p;
        if ((order & 15) == way)
            return; /* already the most recent */
        p = lru_position(L, order, way);
        set[0] = (order & ~low_nibbles(p + 1)) | ((order & low_nibbles(p)) << 4) | way;
    } else {
        set[0] = plru_touch(L, set[0], way);
    }
}

/* Takes the line out of the set (the way becomes free); returns its tag. */
static inline uint64_t take_out(const struct level *L, uint64_t *set, uint32_t way)
{
    uint64_t *tags = tags_of(L, set);
    uint64_t tag = tags[way];

    tags[way] = TAG_INVALID;
    set_hint(L, set, way, 0);
    if (L->replacement == SB_REPL_LRU) {
        uint64_t order = set[0];
        unsigned p = lru_position(L, order, way);
        set[0] = (order & low_nibbles(p)) | ((order >> 4) & ~low_nibbles(p)) |
                 ((uint64_t)way << (4 * (L->ways - 1)));
    }
    return tag;
}

/* Places tag in its set as the most recently used; returns the tag it replaced (TAG_INVALID
 * when a way was free). */
static inline uint64_t place(struct level *L, uint64_t tag)
{
    uint64_t line = LINE_OF(tag);
    uint64_t *set = set_of(L, line);
    uint64_t *tags = tags_of(L, set);
    uint64_t victim;
    uint32_t way;

    L->n.fills++;
    if (L->replacement == SB_REPL_LRU) {
        uint64_t order = set[0];
        way = (uint32_t)(order >> (4 * (L->ways - 1))) & 15;
        set[0] = ((order << 4) & L->order_mask) | way;
    } else {
        way = L->ways;
        for (uint32_t i = 0; i < L->hint_words; i++) {
            uint64_t m = zero_bytes(set[1 + i]);
            if (m) {
                way = i * 8 + (uint32_t)(__builtin_ctzll(m) >> 3);
                break;
            }
        }
        if (way >= L->ways)
            way = plru_victim(L, set[0]);
        set[0] = plru_touch(L, set[0], way);
    }
    victim = tags[way];
    tags[way] = tag;
    set_hint(L, set, way, hint_of(L, line));
    return victim;
}

/* --- configuration ------------------------------------------------------------------------ */

static int problem(struct sb_cachesim_problem *p, int level, const char *key, const char *fmt,
                   ...) __attribute__((format(printf, 4, 5)));

static int problem(struct sb_cachesim_problem *p, int level, const char *key, const char *fmt, ...)
{
    va_list ap;

    p->level = level;
    p->key = key;
    va_start(ap, fmt);
    vsnprintf(p->what, sizeof p->what, fmt, ap);
    va_end(ap);
    return SB_ERR_INPUT;
}

int sb_cachesim_config_check(const struct sb_cachesim_config *cfg, struct sb_cachesim_problem *p)
{
    char a[32], b[32];

    if (cfg->nlevels < 1 || cfg->nlevels > SB_CACHESIM_MAX_LEVELS)
        return problem(p, -1, "levels", "%u levels (want 1 to %d)", cfg->nlevels,
                       SB_CACHESIM_MAX_LEVELS);
    for (unsigned l = 0; l < cfg->nlevels; l++) {
        const struct sb_cachesim_level_config *c = &cfg->level[l];
        uint64_t set_bytes, sets;

        if (!is_pow2(c->line_size) || c->line_size < SB_CACHESIM_MIN_LINE ||
            c->line_size > SB_CACHESIM_MAX_LINE)
            return problem(p, (int)l, "line_size", "%u is not a power of two from %u to %u bytes",
                           c->line_size, SB_CACHESIM_MIN_LINE, SB_CACHESIM_MAX_LINE);
        if (l > 0 && c->line_size != cfg->level[0].line_size)
            return problem(p, (int)l, "line_size", "%u differs from L1d's %u (the model needs one "
                           "line size at every level)", c->line_size, cfg->level[0].line_size);
        if (c->associativity < 1 || c->associativity > SB_CACHESIM_MAX_WAYS)
            return problem(p, (int)l, "associativity", "%u ways (want 1 to %d)",
                           c->associativity, SB_CACHESIM_MAX_WAYS);
        if (c->replacement != SB_REPL_LRU && c->replacement != SB_REPL_PLRU)
            return problem(p, (int)l, "replacement", "unknown replacement policy");
        if (c->inclusion != SB_INCL_NON_INCLUSIVE && c->inclusion != SB_INCL_INCLUSIVE &&
            c->inclusion != SB_INCL_EXCLUSIVE)
            return problem(p, (int)l, "inclusion", "unknown inclusion policy");
        set_bytes = (uint64_t)c->line_size * c->associativity;
        sets = c->size / set_bytes;
        if (sets == 0)
            return problem(p, (int)l, "size", "%s makes 0 sets of %u ways x %uB lines",
                           sb_format_size(c->size, a, sizeof a), c->associativity, c->line_size);
        if (c->size % set_bytes)
            return problem(p, (int)l, "size", "%s is not a whole number of sets of %u ways x %uB "
                           "lines", sb_format_size(c->size, a, sizeof a), c->associativity,
                           c->line_size);
        if (!is_pow2(sets))
            return problem(p, (int)l, "size", "%s makes %llu sets of %u ways x %uB lines, not a "
                           "power of two", sb_format_size(c->size, a, sizeof a),
                           (unsigned long long)sets, c->associativity, c->line_size);
        if (c->replacement == SB_REPL_LRU && c->associativity > SB_CACHESIM_MAX_LRU_WAYS)
            return problem(p, (int)l, "replacement", "lru keeps at most %d ways in order, not %u "
                           "(plru takes up to %d)", SB_CACHESIM_MAX_LRU_WAYS, c->associativity,
                           SB_CACHESIM_MAX_WAYS);
        if (c->replacement == SB_REPL_PLRU && !is_pow2(c->associativity))
            return problem(p, (int)l, "replacement", "plru (a binary tree) needs a power-of-two "
                           "associativity, not %u ways", c->associativity);
        if (l > 0 && c->inclusion == SB_INCL_INCLUSIVE && c->size <= cfg->level[l - 1].size)
            return problem(p, (int)l, "size", "an inclusive %s of %s must be larger than the %s "
                           "of %s above it", sb_cache_level_names[l],
                           sb_format_size(c->size, a, sizeof a), sb_cache_level_names[l - 1],
                           sb_format_size(cfg->level[l - 1].size, b, sizeof b));
    }
    if (cfg->wc_buffers < 1 || cfg->wc_buffers > SB_CACHESIM_MAX_WC_BUFFERS)
        return problem(p, -1, "wc_buffers", "%u write-combining buffers (want 1 to %d)",
                       cfg->wc_buffers, SB_CACHESIM_MAX_WC_BUFFERS);
    return SB_OK;
}

int sb_cachesim_create(const struct sb_cachesim_config *cfg, struct sb_cachesim **out,
                       struct sb_error *err)
{
    struct sb_cachesim_problem p;
    struct sb_cachesim *s = NULL;
    int status = SB_OK;

    *out = NULL;
    if (sb_cachesim_config_check(cfg, &p) != SB_OK) {
        status = sb_fail(err, SB_ERR_INPUT, "%s%s%s: %s",
                         p.level >= 0 ? sb_cache_level_names[p.level] : "", p.level >= 0 ? " " : "",
                         p.key, p.what);
        goto out;
    }
    s = calloc(1, sizeof *s);
    if (!s) {
        status = sb_fail(err, SB_ERR_RUN, "out of memory for the cache model");
        goto out;
    }
    s->nlevels = cfg->nlevels;
    s->line_size = cfg->level[0].line_size;
    s->line_shift = log2_of(s->line_size);
    s->lines_per_4k_mask = (4096u >> s->line_shift) - 1;
    s->prefetch = cfg->prefetch;
    s->nwc = cfg->wc_buffers;
    for (unsigned l = 0; l < s->nlevels; l++) {
        const struct sb_cachesim_level_config *c = &cfg->level[l];
        struct level *L = &s->level[l];

        L->ways = c->associativity;
        L->sets = c->size / ((uint64_t)c->line_size * c->associativity);
        L->set_mask = L->sets - 1;
        L->set_bits = log2_of(L->sets);
        L->hint_words = (L->ways + 7) / 8;
        L->tag_offset = 1 + L->hint_words;
        L->stride = L->tag_offset + L->ways;
        /* LRU keeps 4 bits per way, at most 16 ways; pseudo-LRU (up to 64 ways) never uses it */
        L->order_mask = L->ways >= 16 ? UINT64_MAX : (1ull << (4 * L->ways)) - 1;
        L->replacement = c->replacement;
        L->inclusion = l == 0 ? SB_INCL_NON_INCLUSIVE : c->inclusion;
        plru_masks(L);
        L->sets_mem = malloc(L->sets * L->stride * sizeof *L->sets_mem);
        if (!L->sets_mem) {
            status = sb_fail(err, SB_ERR_RUN, "out of memory for the cache model's %s",
                             sb_cache_level_names[l]);
            goto out;
        }
        for (uint64_t set = 0; set < L->sets; set++)
            set_clear(L, L->sets_mem + set * L->stride);
    }
out:
    if (status == SB_OK)
        *out = s;
    else
        sb_cachesim_destroy(s);
    return status;
}

void sb_cachesim_destroy(struct sb_cachesim *s)
{
    if (!s)
        return;
    for (unsigned l = 0; l < SB_CACHESIM_MAX_LEVELS; l++)
        free(s->level[l].sets_mem);
    free(s);
}

/* --- the hierarchy --------------------------------------------------------------------------- */

/* An inclusive level l dropped line: the copies above it go too; returns whether any of them
 * was dirty (its data then leaves with level l's copy). */
static bool invalidate_above(struct sb_cachesim *s, unsigned l, uint64_t line)
{
    bool dirty = false;

    for (unsigned k = 0; k < l; k++) {
        struct level *K = &s->level[k];
        uint64_t *set = set_of(K, line);
        int w = find_way(K, set, line);
        if (w >= 0) {
            dirty |= take_out(K, set, (uint32_t)w) & TAG_DIRTY;
            K->n.invalidations++;
        }
    }
    return dirty;
}

/* Places tag into level l (the line is not there) and follows the victim down: into the
 * exclusive level below (a victim cache takes clean and dirty lines), or, if dirty, written
 * back into the level below (marked dirty there, or allocated where a non-inclusive level no
 * longer holds it) or to memory. An inclusive level's victim takes its copies above with it. */
static void insert(struct sb_cachesim *s, unsigned l, uint64_t tag)
{
    for (;;) {
        struct level *L = &s->level[l], *below;
        uint64_t victim = place(L, tag), line;
        bool dirty;

        if (victim == TAG_INVALID)
            return;
        line = LINE_OF(victim);
        dirty = victim & TAG_DIRTY;
        if (l > 0 && L->inclusion == SB_INCL_INCLUSIVE)
            dirty |= invalidate_above(s, l, line);
        if (dirty)
            L->n.writebacks++;
        if (l + 1 == s->nlevels) {
            if (dirty)
                s->n.mem_write_bytes += s->line_size;
            return;
        }
        below = &s->level[l + 1];
        if (below->inclusion != SB_INCL_EXCLUSIVE) {
            uint64_t *set;
            int w;
            if (!dirty)
                return;
            set = set_of(below, line);
            w = find_way(below, set, line);
            if (w >= 0) {
                tags_of(below, set)[w] |= TAG_DIRTY;
                return;
            }
        }
        tag = TAG_OF(line, dirty ? TAG_DIRTY : 0);
        l++;
    }
}

/* L1d missed line: looks in each level below in turn (a hit in an exclusive level moves the
 * line up and out of it), reads memory below the last, then fills the non-exclusive levels
 * from the bottom up, L1d last. */
static void fill_from_below(struct sb_cachesim *s, uint64_t line, unsigned flags)
{
    unsigned found = s->nlevels;
    bool dirty = false;

    for (unsigned l = 1; l < s->nlevels; l++) {
        struct level *L = &s->level[l];
        uint64_t *set = set_of(L, line);
        int w = find_way(L, set, line);
        if (w >= 0) {
            L->n.hits++;
            if (L->inclusion == SB_INCL_EXCLUSIVE)
                dirty = take_out(L, set, (uint32_t)w) & TAG_DIRTY;
            else
                touch(L, set, (uint32_t)w, tags_of(L, set)[w]);
            found = l;
            break;
        }
        L->n.misses++;
    }
    if (found == s->nlevels)
        s->n.mem_read_bytes += s->line_size;
    for (unsigned l = found - 1; l >= 1; l--) {
        if (s->level[l].inclusion == SB_INCL_EXCLUSIVE)
            continue; /* a victim cache is not filled from below */
        insert(s, l, TAG_OF(line, dirty ? TAG_DIRTY : 0));
        dirty = false; /* the level just filled keeps the dirty data */
    }
    insert(s, 0, TAG_OF(line, flags | (dirty ? TAG_DIRTY : 0)));
}

/* Tagged next-line prefetch: after a miss, or the first hit on a prefetched line, the next
 * line (within the same 4KB page) is brought into L1d, marked as prefetched. */
static void prefetch_after(struct sb_cachesim *s, uint64_t line)
{
    struct level *L1 = &s->level[0];
    uint64_t next = line + 1;

    if ((next & s->lines_per_4k_mask) == 0 || find_way(L1, set_of(L1, next), next) >= 0)
        return;
    s->n.prefetches++;
    fill_from_below(s, next, TAG_PREFETCHED);
}

static inline void access_line(struct sb_cachesim *s, uint64_t line, bool is_write)
{
    struct level *L1 = &s->level[0];
    uint64_t *set = set_of(L1, line);
    int w = find_way(L1, set, line);

    if (w >= 0) {
        uint64_t tag = tags_of(L1, set)[w] | (is_write ? TAG_DIRTY : 0);
        L1->n.hits++;
        touch(L1, set, (uint32_t)w, tag & ~(uint64_t)TAG_PREFETCHED);
        if (tag & TAG_PREFETCHED)
            prefetch_after(s, line);
        return;
    }
    L1->n.misses++;
    fill_from_below(s, line, is_write ? TAG_DIRTY : 0);
    if (s->prefetch)
        prefetch_after(s, line);
}

void sb_cachesim_prefetch(const struct sb_cachesim *s, uint64_t address)
{
    uint64_t line = address >> s->line_shift;

    for (unsigned l = 0; l < s->nlevels; l++) {
        const uint64_t *set = set_of(&s->level[l], line);
        __builtin_prefetch(set);
        __builtin_prefetch(set + 8);
    }
}

void sb_cachesim_access(struct sb_cachesim *s, uint64_t address, uint64_t size, bool is_write)
{
    uint64_t line, last;

    if (size == 0)
        return;
    line = address >> s->line_shift;
    last = (address + size - 1) >> s->line_shift;
    for (; line <= last; line++)
        access_line(s, line, is_write);
}

/* --- write combining ------------------------------------------------------------------------- */

static bool wc_full(const struct sb_cachesim *s, const struct wc_buffer *b)
{
    for (uint32_t word = 0; word * 64 < s->line_size; word++) {
        uint32_t bits = s->line_size - word * 64 >= 64 ? 64 : s->line_size - word * 64;
        uint64_t want = bits == 64 ? UINT64_MAX : (1ull << bits) - 1;
        if ((b->mask[word] & want) != want)
            return false;
    }
    return true;
}

/* Writes the buffer to memory: the caches give up the line first (a dirty copy is written
 * back), then a whole line goes out without a read, a partial one as a partial write. */
static void wc_flush(struct sb_cachesim *s, struct wc_buffer *b)
{
    for (unsigned l = 0; l < s->nlevels; l++) {
        struct level *L = &s->level[l];
        uint64_t *set = set_of(L, b->line);
        int w = find_way(L, set, b->line);
        if (w < 0)
            continue;
        L->n.invalidations++;
        if (take_out(L, set, (uint32_t)w) & TAG_DIRTY) {
            L->n.writebacks++;
            s->n.mem_write_bytes += s->line_size;
        }
    }
    if (wc_full(s, b)) {
        s->n.wc_full_lines++;
        s->n.mem_write_bytes += s->line_size;
    } else {
        uint64_t bytes = 0;
        for (uint32_t word = 0; word < SB_CACHESIM_MAX_LINE / 64; word++)
            bytes += (uint64_t)__builtin_popcountll(b->mask[word]);
        s->n.wc_partial_flushes++;
        s->n.wc_partial_bytes += bytes;
        s->n.mem_write_bytes += bytes;
    }
    b->busy = false;
}

static void wc_write(struct sb_cachesim *s, uint64_t line, uint32_t offset, uint32_t len)
{
    struct wc_buffer *b = NULL, *oldest = NULL, *idle = NULL;

    for (unsigned i = 0; i < s->nwc; i++) {
        struct wc_buffer *c = &s->wc[i];
        if (!c->busy) {
            if (!idle)
                idle = c;
        } else if (c->line == line) {
            b = c;
            break;
        } else if (!oldest || c->age < oldest->age) {
            oldest = c;
        }
    }
    if (!b) {
        if (idle) {
            b = idle;
        } else {
            wc_flush(s, oldest);
            b = oldest;
        }
        b->busy = true;
        b->line = line;
        b->age = ++s->wc_age;
        memset(b->mask, 0, sizeof b->mask);
    }
    for (uint32_t i = offset; i < offset + len; i++)
        b->mask[i / 64] |= 1ull << (i % 64);
    if (wc_full(s, b))
        wc_flush(s, b);
}

void sb_cachesim_stream_store(struct sb_cachesim *s, uint64_t address, uint64_t len)
{
    while (len > 0) {
        uint32_t offset = (uint32_t)(address & (s->line_size - 1));
        uint32_t n = s->line_size - offset;
        if (n > len)
            n = (uint32_t)len;
        s->n.line_accesses++; /* L1d's hits and misses are added in read_counts */
        wc_write(s, address >> s->line_shift, offset, n);
        address += n;
        len -= n;
    }
}

void sb_cachesim_fence(struct sb_cachesim *s)
{
    /* oldest first, as the buffers drain in order */
    for (;;) {
        struct wc_buffer *oldest = NULL;
        for (unsigned i = 0; i < s->nwc; i++)
            if (s->wc[i].busy && (!oldest || s->wc[i].age < oldest->age))
                oldest = &s->wc[i];
        if (!oldest)
            return;
        wc_flush(s, oldest);
    }
}

/* --- counts and inspection ------------------------------------------------------------------- */

void sb_cachesim_read_counts(const struct sb_cachesim *s, struct sb_cachesim_counts *counts)
{
    *counts = s->n;
    for (unsigned l = 0; l < SB_CACHESIM_MAX_LEVELS; l++)
        counts->level[l] = s->level[l].n;
    counts->line_accesses += counts->level[0].hits + counts->level[0].misses;
}

void sb_cachesim_reset_counts(struct sb_cachesim *s)
{
    memset(&s->n, 0, sizeof s->n);
    for (unsigned l = 0; l < SB_CACHESIM_MAX_LEVELS; l++)
        memset(&s->level[l].n, 0, sizeof s->level[l].n);
}

bool sb_cachesim_holds(const struct sb_cachesim *s, unsigned level, uint64_t address, bool *dirty)
{
    const struct level *L;
    uint64_t line = address >> s->line_shift;
    uint64_t *set;
    int w;

    if (level >= s->nlevels)
        return false;
    L = &s->level[level];
    set = set_of(L, line);
    w = find_way(L, set, line);
    if (w >= 0 && dirty)
        *dirty = tags_of(L, set)[w] & TAG_DIRTY;
    return w >= 0;
}

uint32_t sb_cachesim_line_size(const struct sb_cachesim *s) { return s->line_size; }

size_t sb_cachesim_state_bytes(const struct sb_cachesim *s)
{
    size_t bytes = sizeof *s;

    for (unsigned l = 0; l < s->nlevels; l++)
        bytes += s->level[l].sets * s->level[l].stride * sizeof(uint64_t);
    return bytes;
}

uint64_t sb_cachesim_config_state_bytes(const struct sb_cachesim_config *cfg)
{
    uint64_t bytes = sizeof(struct sb_cachesim);

    for (unsigned l = 0; l < cfg->nlevels && l < SB_CACHESIM_MAX_LEVELS; l++) {
        const struct sb_cachesim_level_config *c = &cfg->level[l];
        uint64_t set_bytes = (uint64_t)c->line_size * c->associativity;
        /* a set as sb_cachesim_create lays it out: the replacement word, the hint words, the
         * tags */
        uint64_t words = 1 + (c->associativity + 7) / 8 + c->associativity;
        bytes += (set_bytes ? c->size / set_bytes : 0) * words * sizeof(uint64_t);
    }
    return bytes;
}

uint64_t sb_cachesim_lines(const struct sb_cachesim *s)
{
    uint64_t lines = 0;

    for (unsigned l = 0; l < s->nlevels; l++)
        lines += s->level[l].sets * s->level[l].ways;
    return lines;
}
