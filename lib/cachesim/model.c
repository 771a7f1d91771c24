/* SPDX-License-Identifier: BSD-3-Clause */
/* model.c: the cache-hierarchy model (see model.h): lookups, fills, evictions through the
 * inclusion policies, write-backs, write-combining buffers and the next-line prefetcher.
 *
 * Each level keeps its sets in one flat array, a set after the other, each set's state together
 * (one or two lines of the host's cache for up to 8 ways), at offsets that are constants for a
 * level of up to 16 ways (so that a set is found with one multiply and no other load):
 *   repl   one word: for LRU the ways in recency order, 4 bits each, most recent in
 *          the low bits (so LRU sets have at most 16 ways); for pseudo-LRU a binary tree of
 *          ways-1 bits in heap order (node 1 the root, node n's children 2n and 2n+1, the leaves
 *          ways..2*ways-1; a bit of 0 sends the victim search left, 1 right; a touch points its
 *          path away from the way) and, up to 32 ways, the last way touched in the top 6 bits
 *   hints  one byte per way, rounded up to 16 bytes (32 or 64 for pseudo-LRU of more ways): a
 *          hash of the line (0x80..0xff, the same at every level), 0 for a free way, 0x7f for
 *          the padding; a lookup compares 16 at once (SSE2, or two words elsewhere) and reads
 *          only the tags of matching hints
 *   tags   one word per way: (line number << 3) | NTA | PREFETCHED | DIRTY, or TAG_INVALID
 *          (NTA: brought into L1d from memory by prefetchnta, see sb_cachesim_prefetch_nta).
 * Free LRU ways are kept at the least-recent end of the order, so the victim is always the
 * last way of the order.
 *
 * The replay's steps branch on the model's shape: the number of levels, each level's
 * replacement and inclusion, whether any level has more than 16 ways, the prefetcher. They
 * are inlined functions of a shape passed by value: the general path passes the model's own
 * (read at run time), and the copies of the batch loop (sb_cachesim_copy) for the common
 * shapes, those of configs/machines and of machine=auto, pass a constant one, so that the
 * compiler drops the branches and the code for the other shapes. Same code, same counts.
 *
 * Those copies, and the op's list loop, are compiled twice where the compiler can (x86-64):
 * for the baseline instruction set, and for AVX2 and BMI1/2 (andn, blsr, tzcnt and shifts by a
 * register that leave the flags alone, three-operand vector compares: 2-8% fewer instructions
 * on the three-level shapes), which a model runs where the CPU has them (sb_cachesim_code_of). */
#include "config.h"
#include "cachesim/model.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"

const char *const sb_replacement_names[] = {[SB_REPL_LRU] = "lru", [SB_REPL_PLRU] = "plru",
                                            [SB_REPL_PAIRS] = "pairs", NULL};
const char *const sb_inclusion_names[] = {[SB_INCL_NON_INCLUSIVE] = "non-inclusive",
                                          [SB_INCL_INCLUSIVE] = "inclusive",
                                          [SB_INCL_EXCLUSIVE] = "exclusive", NULL};
const char *const sb_write_allocate_names[] = {[SB_WA_NT_STORES] = "nt_stores",
                                               [SB_WA_FULL_LINE_LOADED] = "full_line_loaded",
                                               [SB_WA_FULL_LINE] = "full_line", NULL};
const char *const sb_cache_level_names[SB_CACHESIM_MAX_LEVELS] = {"L1d", "L2", "L3"};
const char *const sb_cachesim_code_names[SB_CACHESIM_NCODES] = {
    [SB_CACHESIM_CODE_BASELINE] = "baseline", [SB_CACHESIM_CODE_AVX2_BMI2] = "avx2+bmi2"};

/* The second copy of the batch loops: for AVX2 and BMI1/2, where configure found the compiler
 * able to build it (not in the portable build, which uses no x86 intrinsics). */
#if defined(SB_HAVE_AVX2_BMI2_CODE) && !defined(SB_CACHESIM_PORTABLE)
#define AVX2_BMI2_CODE 1
#define FOR_AVX2_BMI2 __attribute__((target("avx2,bmi,bmi2,popcnt")))

/* Whether this CPU has what FOR_AVX2_BMI2 compiles for (the same four features). */
static bool cpu_has_avx2_bmi2(void)
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") &&
           __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("popcnt");
}
#else
#define AVX2_BMI2_CODE 0
#endif

#include "cachesim/model_sets.h"

/* What the replay branches on: constant in the specialised copies, the model's own in the
 * general path. */
struct shape {
    unsigned nlevels;
    bool prefetch;
    bool wide; /* a level has more than NARROW_WAYS ways */
    struct level_kind level[SB_CACHESIM_MAX_LEVELS];
};

/* The shapes with a copy of the batch loop of their own: those of configs/machines, and of
 * machine=auto (LRU, a non-inclusive L2, an L3 that is an exclusive victim cache on AMD and
 * inclusive elsewhere, or no L3). Any other shape runs the general path. */
#define LRU_LEVEL(inclusion, ways) {true, inclusion, ways, false}
#define PLRU_LEVEL(inclusion, ways) {false, inclusion, ways, false}
#define PAIRS_LEVEL(inclusion, ways) {false, inclusion, ways, true}
#define NI SB_INCL_NON_INCLUSIVE
#define EXCL SB_INCL_EXCLUSIVE
#define INCL SB_INCL_INCLUSIVE
static const struct shape common_shapes[] = {
    /* x4500 (its L2's pairs since issue 19; the tree pseudo-LRU before it runs the general
     * path) */
    {2, false, false, {LRU_LEVEL(NI, 2), PAIRS_LEVEL(EXCL, 16)}},
    /* piii-1260 */
    {2, false, false, {PLRU_LEVEL(NI, 4), PLRU_LEVEL(NI, 8)}},
    /* xeon-1mb */
    {2, false, false, {PLRU_LEVEL(NI, 8), PLRU_LEVEL(NI, 8)}},
    /* xeon-spr (its 12-way L1d and 15-way L3 as the levels' own: as constants they took more
     * instructions, a multiply by 15 and 48-bit masks held in registers) */
    {3, false, false, {LRU_LEVEL(NI, 0), LRU_LEVEL(NI, 16), LRU_LEVEL(NI, 0)}},
    /* epyc-zen4 */
    {3, false, false, {LRU_LEVEL(NI, 8), LRU_LEVEL(INCL, 8), LRU_LEVEL(EXCL, 16)}},
    /* auto: AMD Zen 2 to 5 (8-way L1d and L2, a 16-way L3), AMD, others, no L3 */
    {3, false, false, {LRU_LEVEL(NI, 8), LRU_LEVEL(NI, 8), LRU_LEVEL(EXCL, 16)}},
    {3, false, false, {LRU_LEVEL(NI, 0), LRU_LEVEL(NI, 0), LRU_LEVEL(EXCL, 0)}},
    {3, false, false, {LRU_LEVEL(NI, 0), LRU_LEVEL(NI, 0), LRU_LEVEL(INCL, 0)}},
    {2, false, false, {LRU_LEVEL(NI, 0), LRU_LEVEL(NI, 0)}},
};
#undef NI
#undef EXCL
#undef INCL
#define NCOMMON_SHAPES (sizeof common_shapes / sizeof *common_shapes)

struct wc_buffer {
    uint64_t line;
    uint64_t mask[SB_CACHESIM_MAX_LINE / 64]; /* bytes of the line written so far */
    uint64_t age;                              /* allocation order: the oldest is flushed */
    bool busy;
};

struct sb_cachesim {
    _Alignas(SB_HOST_LINE) struct level level[SB_CACHESIM_MAX_LEVELS];
    /* a slice (sb_cachesim_create_slice) keeps the lines whose low slice_shift bits are
     * slice_index, numbered line >> slice_shift; a whole model has shift 0 */
    unsigned slice_shift;
    uint64_t slice_mask; /* (1 << slice_shift) - 1 */
    uint64_t slice_index;
    struct shape shape;
    int common_shape; /* its index in common_shapes, or -1 */
    enum sb_cachesim_code code; /* which copy of the batch loops it runs */
    unsigned nlevels;
    unsigned line_shift;
    uint32_t line_size;
    uint64_t lines_per_4k_mask; /* the prefetcher does not cross a 4KB page */
    bool prefetch;
    bool evade_full_line; /* SB_WA_FULL_LINE: a whole-line store miss reads nothing */
    unsigned nwc;
    unsigned wc_busy; /* buffers holding a line */
    uint64_t wc_age;
    uint64_t wc_full_mask[SB_CACHESIM_MAX_LINE / 64]; /* a buffer's mask when its line is whole */
    struct wc_buffer wc[SB_CACHESIM_MAX_WC_BUFFERS];
    struct sb_cachesim_counts n; /* the per-level counts live in level[].n */
    /* whole lines read from and written to memory, counted apart (an increment where bytes
     * would take the line size loaded too) and added to n's bytes by read_counts */
    uint64_t mem_read_lines, mem_write_lines;
};

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
        if (c->replacement != SB_REPL_LRU && c->replacement != SB_REPL_PLRU &&
            c->replacement != SB_REPL_PAIRS)
            return problem(p, (int)l, "replacement", "unknown replacement policy");
        if (c->replacement == SB_REPL_PAIRS &&
            (l == 0 || c->associativity % 2 || c->associativity > PAIRS_MAX_WAYS))
            return problem(p, (int)l, "replacement", "pairs (the K8 L2's) is for L2 and L3, of "
                           "an even number of ways up to %u, not %s of %u ways", PAIRS_MAX_WAYS,
                           sb_cache_level_names[l], c->associativity);
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
    if ((unsigned)cfg->write_allocate > SB_WA_FULL_LINE)
        return problem(p, -1, "write_allocate", "unknown write-allocate rule");
    return SB_OK;
}

/* The words of one level's state: a replacement word, the hint words and the tags per set. */
static uint64_t level_words(const struct level *L)
{
    return L->sets * L->set_words;
}

/* Sets up level l's geometry (the sets of one slice of 1 << slice_shift) and its cold state;
 * false when out of memory. */
static bool level_init(struct level *L, const struct sb_cachesim_level_config *c,
                       unsigned slice_shift)
{
    const bool lru = c->replacement == SB_REPL_LRU;
    size_t bytes;

    L->ways = c->associativity;
    L->sets = c->size / ((uint64_t)c->line_size * c->associativity) >> slice_shift;
    L->set_mask = L->sets - 1;
    L->hint_bytes = hint_bytes_for(L->ways); /* LRU: up to 16 ways; PLRU: a power of two */
    L->tags_word = tags_word_for(L->ways);
    L->set_words = set_words_for(L->ways);
    /* LRU keeps 4 bits per way, at most 16 ways; pseudo-LRU (up to 64 ways) never uses it */
    L->order_mask = order_mask_for(L->ways);
    L->lru_shift = lru_shift_for(L->ways);
    L->plru_down = plru_down_for(L->ways);
    L->mru_known = lru || (c->replacement == SB_REPL_PLRU && L->ways <= PLRU_MRU_MAX_WAYS);
    plru_masks(L);
    /* page aligned (so a set of 8 tags is one line of the host's caches), and a mapping of its
     * own: from malloc, a sweep that makes and frees models of several sizes grows the heap
     * (glibc raises its mmap threshold to the largest block freed, then fragments) */
    bytes = (size_t)level_words(L) * sizeof(uint64_t);
    L->mem = sb_mem_alloc(bytes);
    if (!L->mem)
        return false;
    L->mem_bytes = bytes;
    L->set0 = L->mem;
    for (uint64_t set = 0; set < L->sets; set++)
        set_clear(L, c->replacement, set);
    return true;
}

/* Whether the model's shape own (of configuration cfg) is the common shape c: the same
 * levels, and the same associativities where c has them. */
static bool shape_fits(const struct shape *own, const struct sb_cachesim_config *cfg,
                       const struct shape *c)
{
    if (own->nlevels != c->nlevels || own->prefetch != c->prefetch || own->wide != c->wide)
        return false;
    for (unsigned l = 0; l < own->nlevels; l++)
        if (own->level[l].lru != c->level[l].lru || own->level[l].pairs != c->level[l].pairs ||
            own->level[l].inclusion != c->level[l].inclusion ||
            (c->level[l].ways && c->level[l].ways != cfg->level[l].associativity))
            return false;
    return true;
}

/* The model's shape, and which common one it is. */
static void shape_init(struct sb_cachesim *s, const struct sb_cachesim_config *cfg)
{
    memset(&s->shape, 0, sizeof s->shape);
    s->shape.nlevels = cfg->nlevels;
    s->shape.prefetch = cfg->prefetch;
    for (unsigned l = 0; l < cfg->nlevels; l++) {
        s->shape.level[l].lru = cfg->level[l].replacement == SB_REPL_LRU;
        s->shape.level[l].pairs = cfg->level[l].replacement == SB_REPL_PAIRS;
        s->shape.level[l].inclusion = l == 0 ? SB_INCL_NON_INCLUSIVE : cfg->level[l].inclusion;
        s->shape.wide |= cfg->level[l].associativity > NARROW_WAYS;
    }
    s->common_shape = -1;
    for (size_t i = 0; i < NCOMMON_SHAPES && s->common_shape < 0; i++)
        if (shape_fits(&s->shape, cfg, &common_shapes[i]))
            s->common_shape = (int)i; /* the first: those of constant ways come first */
}

unsigned sb_cachesim_max_slice_shift(const struct sb_cachesim_config *cfg)
{
    unsigned shift = SB_CACHESIM_MAX_SLICE_SHIFT;

    if (cfg->prefetch) /* the next line is in another slice */
        return 0;
    for (unsigned l = 0; l < cfg->nlevels && l < SB_CACHESIM_MAX_LEVELS; l++) {
        const struct sb_cachesim_level_config *c = &cfg->level[l];
        uint64_t set_bytes = (uint64_t)c->line_size * c->associativity;
        uint64_t sets = set_bytes ? c->size / set_bytes : 0;
        while (shift > 0 && sets >> shift == 0)
            shift--;
    }
    return shift;
}

int sb_cachesim_create(const struct sb_cachesim_config *cfg, struct sb_cachesim **out,
                       struct sb_error *err)
{
    return sb_cachesim_create_slice(cfg, 0, 0, out, err);
}

/* The configuration checked, and the slice: one the model can be cut into (no prefetcher,
 * enough sets), within range. */
static int check_slice(const struct sb_cachesim_config *cfg, unsigned slice_shift,
                       uint64_t slice_index, struct sb_error *err)
{
    struct sb_cachesim_problem p;

    if (sb_cachesim_config_check(cfg, &p) != SB_OK)
        return sb_fail(err, SB_ERR_INPUT, "%s%s%s: %s",
                       p.level >= 0 ? sb_cache_level_names[p.level] : "", p.level >= 0 ? " " : "",
                       p.key, p.what);
    if (slice_shift > sb_cachesim_max_slice_shift(cfg) || slice_index >> slice_shift)
        return sb_fail(err, SB_ERR_INPUT, "slice %llu of %u: the model %s", (unsigned long long)
                       slice_index, 1u << slice_shift, cfg->prefetch ? "has a prefetcher (its "
                       "next line is in another slice)" : "has too few sets or the slice is "
                       "out of range");
    return SB_OK;
}

/* The model's own fields: its slice, line geometry, prefetcher, write-combining buffers (and
 * the mask of a full line's bytes), shape and code path. */
static void model_init(struct sb_cachesim *s, const struct sb_cachesim_config *cfg,
                       unsigned slice_shift, uint64_t slice_index)
{
    memset(s, 0, sizeof *s);
    s->slice_shift = slice_shift;
    s->slice_mask = (1ull << slice_shift) - 1;
    s->slice_index = slice_index;
    s->nlevels = cfg->nlevels;
    s->line_size = cfg->level[0].line_size;
    s->line_shift = log2_of(s->line_size);
    s->lines_per_4k_mask = (4096u >> s->line_shift) - 1;
    s->prefetch = cfg->prefetch;
    s->evade_full_line = cfg->write_allocate == SB_WA_FULL_LINE;
    s->nwc = cfg->wc_buffers;
    shape_init(s, cfg);
    if (!sb_cachesim_use_code(s, SB_CACHESIM_CODE_AVX2_BMI2))
        s->code = SB_CACHESIM_CODE_BASELINE;
    for (uint32_t word = 0; word * 64 < s->line_size; word++) {
        uint32_t bits = s->line_size - word * 64 >= 64 ? 64 : s->line_size - word * 64;
        s->wc_full_mask[word] = bits == 64 ? UINT64_MAX : (1ull << bits) - 1;
    }
}

int sb_cachesim_create_slice(const struct sb_cachesim_config *cfg, unsigned slice_shift,
                             uint64_t slice_index, struct sb_cachesim **out,
                             struct sb_error *err)
{
    struct sb_cachesim *s = NULL;
    int status;

    *out = NULL;
    status = check_slice(cfg, slice_shift, slice_index, err);
    if (status != SB_OK)
        goto out;
    /* on cache lines of its own: the slices' models, written at every access on their own
     * threads, share none (a line shared with the next slice's geometry halved the speed) */
    s = aligned_alloc(SB_HOST_LINE, sizeof *s);
    if (!s) {
        status = sb_fail(err, SB_ERR_RUN, "out of memory for the cache model");
        goto out;
    }
    model_init(s, cfg, slice_shift, slice_index);
    for (unsigned l = 0; l < s->nlevels; l++) {
        if (!level_init(&s->level[l], &cfg->level[l], slice_shift)) {
            status = sb_fail(err, SB_ERR_RUN, "out of memory for the cache model's %s",
                             sb_cache_level_names[l]);
            goto out;
        }
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
        sb_mem_free(s->level[l].mem, s->level[l].mem_bytes);
    free(s);
}

/* --- the hierarchy --------------------------------------------------------------------------- */

/* The hierarchy's steps take their level (0, 1 or 2) and the shape as constants, so that each
 * level's fields sit at a fixed offset, no loop runs over the levels and the branches on the
 * shape fold: shape_id is an index in common_shapes, or -1 for the model's own shape. */

static ALWAYS_INLINE const struct shape *shape_of(const struct sb_cachesim *s, const int shape_id)
{
    return shape_id >= 0 ? &common_shapes[shape_id] : &s->shape;
}

/* An inclusive level l dropped line: the copies above it go too; returns whether any of them
 * was dirty (its data then leaves with level l's copy). */
static ALWAYS_INLINE bool invalidate_above(struct sb_cachesim *s, const int shape_id,
                                           const unsigned l, uint64_t line, byte_key key)
{
    const struct shape *sh = shape_of(s, shape_id);
    bool dirty = false;

    for (unsigned k = 0; k < l; k++) {
        struct level *K = &s->level[k];
        struct set_ref r = set_ref_of(K, sh->level[k], line, sh->wide);
        int w = find_way(K, r, line, key, sh->wide);
        if (w >= 0) {
            dirty |= take_out(K, sh->level[k], r, (uint32_t)w) & TAG_DIRTY;
            K->n.invalidations++;
        }
    }
    return dirty;
}

/* Places tag (hint: its line's) into level l, in its set r (the line is not there), and deals
 * with the victim:
 * dropped, marked dirty in the level below (a write-back to a level that holds it), written to
 * memory below the last level, or returned: the tag to place into level l + 1 (a victim cache
 * takes clean and dirty lines; a non-inclusive level that no longer holds a dirty line
 * allocates it), its hint in *next_hint. Returns TAG_INVALID when nothing goes further. An
 * inclusive level's victim takes its copies above with it. */
static ALWAYS_INLINE uint64_t place_and_evict(struct sb_cachesim *s, const int shape_id,
                                              const unsigned l, struct set_ref r, uint64_t tag,
                                              uint8_t hint, uint8_t *next_hint)
{
    const struct shape *sh = shape_of(s, shape_id);
    struct level *L = &s->level[l], *below;
    uint8_t victim_hint;
    uint64_t victim = place(L, sh->level[l], sh->wide, r, tag, hint, &victim_hint), line;
    struct set_ref rb;
    bool dirty;
    int w;

    if (victim == TAG_INVALID)
        return TAG_INVALID;
    line = LINE_OF(victim);
    dirty = victim & TAG_DIRTY;
    if (l > 0 && sh->level[l].inclusion == SB_INCL_INCLUSIVE)
        dirty |= invalidate_above(s, shape_id, l, line, key_of(victim_hint));
    if (dirty)
        L->n.writebacks++;
    if (l + 1 >= SB_CACHESIM_MAX_LEVELS || l + 1 == sh->nlevels) {
        if (dirty)
            s->mem_write_lines++;
        return TAG_INVALID;
    }
    below = &s->level[l + 1];
    *next_hint = victim_hint;
    if (sh->level[l + 1].inclusion == SB_INCL_EXCLUSIVE) {
        if (l == 0 && !dirty && (victim & TAG_NTA))
            return TAG_INVALID; /* a prefetchnta line from memory: not into the victim cache */
        return TAG_OF(line, dirty ? TAG_DIRTY : 0);
    }
    if (!dirty)
        return TAG_INVALID;
    rb = set_ref_of(below, sh->level[l + 1], line, sh->wide);
    w = find_way(below, rb, line, key_of(victim_hint), sh->wide);
    if (w < 0)
        return TAG_OF(line, TAG_DIRTY);
    rb.tags[w] |= TAG_DIRTY;
    return TAG_INVALID;
}

/* Places tag (hint: its line's) into level l, in its set r (the line is not there), and
 * follows the victims down (each into its own set of the level below). */
static ALWAYS_INLINE void insert(struct sb_cachesim *s, const int shape_id, const unsigned l,
                                 struct set_ref r, uint64_t tag, uint8_t hint)
{
    switch (l) {
    case 0:
        tag = place_and_evict(s, shape_id, 0, r, tag, hint, &hint);
        if (tag == TAG_INVALID)
            return;
        r = set_ref_of(&s->level[1], shape_of(s, shape_id)->level[1], LINE_OF(tag),
                       shape_of(s, shape_id)->wide);
        /* fall through */
    case 1:
        tag = place_and_evict(s, shape_id, 1, r, tag, hint, &hint);
        if (tag == TAG_INVALID)
            return;
        r = set_ref_of(&s->level[2], shape_of(s, shape_id)->level[2], LINE_OF(tag),
                       shape_of(s, shape_id)->wide);
        /* fall through */
    default:
        place_and_evict(s, shape_id, 2, r, tag, hint, &hint);
    }
}

/* Looks for line in level l (below L1d), in its set *r (set here): a hit in an exclusive level
 * moves the line out of it (*dirty: whether it was dirty), in another touches it. */
static ALWAYS_INLINE bool lookup_below(struct sb_cachesim *s, const int shape_id,
                                       const unsigned l, uint64_t line, byte_key key, bool *dirty,
                                       struct set_ref *r)
{
    const struct shape *sh = shape_of(s, shape_id);
    struct level *L = &s->level[l];
    int w = find_way(L, *r = set_ref_of(L, sh->level[l], line, sh->wide), line,
                     key, sh->wide);

    if (w < 0) {
        L->n.misses++;
        return false;
    }
    L->n.hits++;
    if (sh->level[l].inclusion == SB_INCL_EXCLUSIVE)
        *dirty = take_out(L, sh->level[l], *r, (uint32_t)w) & TAG_DIRTY;
    else
        touch(L, sh->level[l], *r, (uint32_t)w);
    return true;
}

/* L1d missed line (hint: its hint; r1: its set in L1d): looks in each level below in turn (a
 * hit in an exclusive level moves the line up and out of it), reads memory below the last (a
 * store of the whole line, whole, counts it as such, and under SB_WA_FULL_LINE reads nothing),
 * then fills the non-exclusive levels from the bottom up, each in the set its lookup found,
 * L1d last (its tag flags: flags). */
static ALWAYS_INLINE void fill_from_below(struct sb_cachesim *s, const int shape_id,
                                          uint64_t line, uint8_t hint, uint64_t flags,
                                          bool whole, struct set_ref r1)
{
    const struct shape *sh = shape_of(s, shape_id);
    unsigned found = sh->nlevels;
    bool dirty = false;
    struct set_ref r2 = {NULL, NULL, NULL}, r3 = {NULL, NULL, NULL};

    if (sh->nlevels > 1) {
        const byte_key key = key_of(hint);
        if (lookup_below(s, shape_id, 1, line, key, &dirty, &r2))
            found = 1;
        else if (sh->nlevels > 2 && lookup_below(s, shape_id, 2, line, key, &dirty, &r3))
            found = 2;
    }
    if (found == sh->nlevels && whole && s->evade_full_line) {
        s->n.rfos_evaded++;
    } else if (found == sh->nlevels) {
        s->mem_read_lines++;
        s->n.full_line_rfos += whole;
    }
    /* a victim cache is not filled from below; the level filled keeps the dirty data */
    if (found > 2 && sh->level[2].inclusion != SB_INCL_EXCLUSIVE) {
        insert(s, shape_id, 2, r3, TAG_OF(line, dirty ? TAG_DIRTY : 0), hint);
        dirty = false;
    }
    if (found > 1 && sh->level[1].inclusion != SB_INCL_EXCLUSIVE) {
        insert(s, shape_id, 1, r2, TAG_OF(line, dirty ? TAG_DIRTY : 0), hint);
        dirty = false;
    }
    insert(s, shape_id, 0, r1, TAG_OF(line, flags | (dirty ? TAG_DIRTY : 0)), hint);
}

/* Tagged next-line prefetch: after a miss, or the first hit on a prefetched line, the next
 * line (within the same 4KB page) is brought into L1d, marked as prefetched. */
static __attribute__((noinline)) void prefetch_after(struct sb_cachesim *s, uint64_t line)
{
    struct level *L1 = &s->level[0];
    const uint64_t next = line + 1;
    const uint8_t hint = hint_of(next);
    const struct set_ref r1 = set_ref_of(L1, s->shape.level[0], next, s->shape.wide);

    if ((next & s->lines_per_4k_mask) == 0 ||
        find_way(L1, r1, next, key_of(hint), s->shape.wide) >= 0)
        return;
    s->n.prefetches++;
    fill_from_below(s, -1, next, hint, TAG_PREFETCHED, false, r1);
}

/* prefetchnta's fill of line, which L1d does not hold (r1: its set there): the levels below
 * looked up as for a load. Found in one, the line comes up as a load's would (from an
 * exclusive level it moves up and out, and goes back there when L1d evicts it). From memory it
 * goes into L1d marked TAG_NTA, and into the inclusive levels below (which must hold it), not
 * into the others (see sb_cachesim_prefetch_nta). */
static __attribute__((noinline)) void prefetch_nta_fill(struct sb_cachesim *s, uint64_t line,
                                                        uint8_t hint, struct set_ref r1)
{
    const struct shape *sh = &s->shape;
    unsigned found = sh->nlevels;
    bool dirty = false;
    struct set_ref r2 = {NULL, NULL, NULL}, r3 = {NULL, NULL, NULL};

    if (sh->nlevels > 1) {
        const byte_key key = key_of(hint);
        if (lookup_below(s, -1, 1, line, key, &dirty, &r2))
            found = 1;
        else if (sh->nlevels > 2 && lookup_below(s, -1, 2, line, key, &dirty, &r3))
            found = 2;
    }
    if (found < sh->nlevels) { /* as a load's hit below (fill_from_below's steps) */
        if (found > 1 && sh->level[1].inclusion != SB_INCL_EXCLUSIVE) {
            insert(s, -1, 1, r2, TAG_OF(line, dirty ? TAG_DIRTY : 0), hint);
            dirty = false;
        }
        insert(s, -1, 0, r1, TAG_OF(line, dirty ? TAG_DIRTY : 0), hint);
        return;
    }
    s->mem_read_lines++;
    s->n.nta_prefetches++;
    if (sh->nlevels > 2 && sh->level[2].inclusion == SB_INCL_INCLUSIVE)
        insert(s, -1, 2, r3, TAG_OF(line, 0), hint);
    if (sh->nlevels > 1 && sh->level[1].inclusion == SB_INCL_INCLUSIVE)
        insert(s, -1, 1, r2, TAG_OF(line, 0), hint);
    insert(s, -1, 0, r1, TAG_OF(line, TAG_NTA), hint);
}

/* L1d misses line (a load, or a store when write is TAG_DIRTY, of the whole line when whole;
 * hint: its hint; r1: its set): the levels below, then the prefetcher. */
static ALWAYS_INLINE void l1_miss(struct sb_cachesim *s, const int shape_id, uint64_t line,
                                  uint8_t hint, uint64_t write, bool whole, struct set_ref r1)
{
    const struct shape *sh = shape_of(s, shape_id);
    s->level[0].n.misses++;
    fill_from_below(s, shape_id, line, hint, write, whole && write, r1);
    if (sh->prefetch)
        prefetch_after(s, line);
}

/* The same for the model's own shape, out of line: for accesses that mostly hit. */
static __attribute__((noinline)) void l1_miss_call(struct sb_cachesim *s, uint64_t line,
                                                   uint8_t hint, uint64_t write, bool whole)
{
    l1_miss(s, -1, line, hint, write, whole,
            set_ref_of(&s->level[0], s->shape.level[0], line, s->shape.wide));
}

/* One line looked up in L1d: a load, or a store when write is TAG_DIRTY (of the whole line when
 * whole). With mru_first (for
 * accesses that often return to a line) the most recently used way is tried first, where a
 * hit changes no replacement state. With inline_miss (a copy's lines, which mostly miss) the
 * path below is inlined, else called. */
static ALWAYS_INLINE void access_line(struct sb_cachesim *s, const int shape_id,
                                      uint64_t line, uint64_t write, bool whole, bool mru_first,
                                      bool inline_miss)
{
    const struct shape *sh = shape_of(s, shape_id);
    struct level *L1 = &s->level[0];
    const struct set_ref r1 = set_ref_of(L1, sh->level[0], line, sh->wide);
    uint64_t *tags = r1.tags, tag;
    uint8_t hint;
    int w;

    if (mru_first && L1->mru_known) {
        uint32_t mru = mru_way(sh->level[0], *r1.repl);
        tag = tags[mru];
        if (LINE_OF(tag) == line && !(tag & TAG_PREFETCHED)) {
            L1->n.hits++;
            tags[mru] = tag | write;
            return;
        }
    }
    hint = hint_of(line);
    w = find_way(L1, r1, line, key_of(hint), sh->wide);
    if (__builtin_expect(w < 0, inline_miss)) { /* a copy's lines mostly miss */
        if (inline_miss)
            l1_miss(s, shape_id, line, hint, write, whole, r1);
        else
            l1_miss_call(s, line, hint, write, whole);
        return;
    }
    tag = tags[w] | write;
    L1->n.hits++;
    tags[w] = tag & ~(uint64_t)TAG_PREFETCHED;
    touch(L1, sh->level[0], r1, (uint32_t)w);
    if (tag & TAG_PREFETCHED)
        prefetch_after(s, line);
}

/* Whether the model (a slice) keeps line, a line number of the whole address space. */
static ALWAYS_INLINE bool in_slice(const struct sb_cachesim *s, uint64_t line)
{
    return ((line ^ s->slice_index) & s->slice_mask) == 0;
}

void sb_cachesim_access(struct sb_cachesim *s, uint64_t address, uint64_t size, bool is_write)
{
    uint64_t line, last;

    if (size == 0)
        return;
    line = address >> s->line_shift;
    last = (address + size - 1) >> s->line_shift;
    for (; line <= last; line++)
        if (in_slice(s, line)) {
            const bool whole = (line << s->line_shift) >= address &&
                               ((line + 1) << s->line_shift) <= address + size;
            access_line(s, -1, line >> s->slice_shift, is_write ? TAG_DIRTY : 0, whole, true,
                        false);
        }
}

void sb_cachesim_prefetch_nta(struct sb_cachesim *s, uint64_t address)
{
    struct level *L1 = &s->level[0];
    uint64_t line = address >> s->line_shift;
    struct set_ref r1;
    uint8_t hint;

    if (!in_slice(s, line))
        return;
    line >>= s->slice_shift;
    hint = hint_of(line);
    r1 = set_ref_of(L1, s->shape.level[0], line, s->shape.wide);
    if (find_way(L1, r1, line, key_of(hint), s->shape.wide) >= 0)
        return; /* in L1d: nothing happens */
    prefetch_nta_fill(s, line, hint, r1);
}

/* An L1d access that did not hit the set's most recently used way, out of line. */
static __attribute__((noinline)) void access_line_call(struct sb_cachesim *s, uint64_t line,
                                                       uint64_t write)
{
    access_line(s, -1, line, write, false, false, false);
}

/* sb_cachesim_access_lines, for an L1d of LRU (lru true) or pseudo-LRU replacement (constants,
 * so that where the set's word keeps its most recently used way is one too: a shift by a
 * variable takes a register of its own on x86), in a narrow model (wide false: a set's tags at a
 * constant offset) or not, of ways ways (a constant of a common shape, 0: the level's own). */
static ALWAYS_INLINE void access_lines_as(struct sb_cachesim *s, uint64_t first,
                                          const uint16_t *entries, size_t n, const bool lru,
                                          const bool wide, const unsigned ways)
{
    struct level *L1 = &s->level[0];
    const struct level_kind k = {lru, SB_INCL_NON_INCLUSIVE, ways, false};
    const uint16_t *p, *end = entries + n;
    const uint64_t first_tag = TAG_OF(first, 0);
    /* the fields the loop reads, in locals: the stores to the tags may alias any field */
    const uint64_t set_mask = L1->set_mask, set_words = set_words_of(L1, k);
    uint64_t *const set0 = L1->set0;
    uint64_t *const tags0 = set0 + (wide ? L1->tags_word : NARROW_TAGS_WORD);
    uint64_t hits = 0;
    const unsigned mru_shift = lru ? 0 : PLRU_MRU_SHIFT;
    const uint64_t mru_mask = lru ? 15 : !L1->mru_known ? 0 : 63;
    _Static_assert(SB_CACHESIM_LINE_WRITE == TAG_DIRTY &&
                       TAG_OF(1, 0) == 1 << SB_CACHESIM_ENTRY_SHIFT,
                   "an entry is its line's tag, the write bit the dirty bit");

    for (p = entries; p < end; p++) {
        const uint64_t entry = first_tag + *p; /* the line's tag, with the write bit */
        const uint64_t set = (LINE_OF(entry) & set_mask) * set_words;
        const uint64_t repl = set0[set];
        uint64_t *tag = tags0 + set + ((repl >> mru_shift) & mru_mask);
        /* the common case: the set's most recently used way (no replacement state changes),
         * as the op's accesses return to the lines the copy just left. A way holds the line
         * (and is not a prefetched one) if its tag and the entry differ at most in the dirty
         * bit. */
        if (mru_mask && (*tag ^ entry) <= TAG_DIRTY) {
            *tag |= entry & TAG_DIRTY;
            hits++;
            continue;
        }
        if (lru && ways != 1) { /* LRU: the second and third most recent ways, read off the
                                   * order word (a level of fewer ways reads way 0 there, already
                                   * tried) */
            tag = tags0 + set + ((repl >> 4) & 15);
            if ((*tag ^ entry) <= TAG_DIRTY) {
                *tag |= entry & TAG_DIRTY;
                hits++;
                set0[set] = lru_to_front(repl, 0xf, (repl >> 4) & 15);
                continue;
            }
            tag = tags0 + set + ((repl >> 8) & 15);
            if (ways != 2 && (*tag ^ entry) <= TAG_DIRTY) {
                *tag |= entry & TAG_DIRTY;
                hits++;
                set0[set] = lru_to_front(repl, 0xff, (repl >> 8) & 15);
                continue;
            }
        }
        if (!lru) { /* pseudo-LRU: another way, found by its hint and touched */
            const struct set_ref r = set_at(L1, set0 + set, wide);
            const uint64_t line = LINE_OF(entry);
            const int w = find_way(L1, r, line, key_of(hint_of(line)), wide);
            if (w >= 0 && !(r.tags[w] & TAG_PREFETCHED)) {
                r.tags[w] |= entry & TAG_DIRTY;
                hits++;
                touch(L1, k, r, (uint32_t)w);
                continue;
            }
        }
        /* LRU: a way further down the order (rare: out of line, so that the loop keeps its
         * values in registers); a miss; the first hit on a prefetched line */
        access_line_call(s, LINE_OF(entry), entry & TAG_DIRTY);
    }
    L1->n.hits += hits;
}

/* sb_cachesim_access_lines for the model's L1d: the copy of the loop for its shape. */
static ALWAYS_INLINE void access_lines_of_shape(struct sb_cachesim *s, uint64_t first,
                                                const uint16_t *entries, size_t n)
{
    const unsigned ways = s->common_shape >= 0 ? common_shapes[s->common_shape].level[0].ways : 0;

    if (s->shape.wide)
        access_lines_as(s, first, entries, n, s->shape.level[0].lru, true, 0);
    else if (s->shape.level[0].lru && ways == 8) /* Zen's, this kind of host's */
        access_lines_as(s, first, entries, n, true, false, 8);
    else if (s->shape.level[0].lru && ways == 2) /* the X4500's */
        access_lines_as(s, first, entries, n, true, false, 2);
    else if (s->shape.level[0].lru)
        access_lines_as(s, first, entries, n, true, false, 0);
    else
        access_lines_as(s, first, entries, n, false, false, 0);
}

static __attribute__((noinline)) void access_lines_baseline(struct sb_cachesim *s,
                                                            uint64_t first,
                                                            const uint16_t *entries, size_t n)
{
    access_lines_of_shape(s, first, entries, n);
}

#if AVX2_BMI2_CODE
static __attribute__((noinline)) FOR_AVX2_BMI2 void
access_lines_avx2_bmi2(struct sb_cachesim *s, uint64_t first, const uint16_t *entries, size_t n)
{
    access_lines_of_shape(s, first, entries, n);
}
#endif

void sb_cachesim_access_lines(struct sb_cachesim *s, uint64_t first, const uint16_t *entries,
                              size_t n)
{
#if AVX2_BMI2_CODE
    if (s->code == SB_CACHESIM_CODE_AVX2_BMI2) {
        access_lines_avx2_bmi2(s, first, entries, n);
        return;
    }
#endif
    access_lines_baseline(s, first, entries, n);
}

void sb_cachesim_slice_of(const struct sb_cachesim *s, unsigned *shift, uint64_t *index)
{
    *shift = s->slice_shift;
    *index = s->slice_index;
}

/* --- write combining ------------------------------------------------------------------------- */

/* The caches give up the line a streaming store wrote (a dirty copy is written back first). */
static void stream_invalidate(struct sb_cachesim *s, uint64_t line)
{
    for (unsigned l = 0; l < s->nlevels; l++) {
        struct level *L = &s->level[l];
        const struct set_ref r = set_ref_of(L, s->shape.level[l], line, s->shape.wide);
        int w = find_way(L, r, line, key_of(hint_of(line)), s->shape.wide);
        if (w < 0)
            continue;
        L->n.invalidations++;
        if (take_out(L, s->shape.level[l], r, (uint32_t)w) & TAG_DIRTY) {
            L->n.writebacks++;
            s->mem_write_lines++;
        }
    }
}

static bool wc_full(const struct sb_cachesim *s, const struct wc_buffer *b)
{
    for (uint32_t word = 0; word < SB_CACHESIM_MAX_LINE / 64; word++)
        if ((b->mask[word] & s->wc_full_mask[word]) != s->wc_full_mask[word])
            return false;
    return true;
}

/* A whole line leaves a WC buffer: written without a read. */
static void wc_write_line(struct sb_cachesim *s, uint64_t line)
{
    stream_invalidate(s, line);
    s->n.wc_full_lines++;
    s->mem_write_lines++;
}

/* Writes the buffer to memory: a whole line without a read, a partial one as a partial
 * write; the buffer becomes free. */
static void wc_flush(struct sb_cachesim *s, struct wc_buffer *b)
{
    if (wc_full(s, b)) {
        wc_write_line(s, b->line);
    } else {
        uint64_t bytes = 0;
        stream_invalidate(s, b->line);
        for (uint32_t word = 0; word < SB_CACHESIM_MAX_LINE / 64; word++)
            bytes += (uint64_t)__builtin_popcountll(b->mask[word]);
        s->n.wc_partial_flushes++;
        s->n.wc_partial_bytes += bytes;
        s->n.mem_write_bytes += bytes;
    }
    b->busy = false;
    s->wc_busy--;
}

/* The buffer holding line (NULL if none), and in *idle the first free one and in *oldest the
 * oldest busy one. */
static struct wc_buffer *wc_find(struct sb_cachesim *s, uint64_t line, struct wc_buffer **idle,
                                 struct wc_buffer **oldest)
{
    *idle = *oldest = NULL;
    for (unsigned i = 0; i < s->nwc; i++) {
        struct wc_buffer *c = &s->wc[i];
        if (!c->busy) {
            if (!*idle)
                *idle = c;
        } else if (c->line == line) {
            return c;
        } else if (!*oldest || c->age < (*oldest)->age) {
            *oldest = c;
        }
    }
    return NULL;
}

/* Bytes offset..offset+len-1 of line into its WC buffer (a new one if none holds the line: a
 * free one, else the oldest, flushed first); a buffer whose line is whole goes at once. */
static void wc_write(struct sb_cachesim *s, uint64_t line, uint32_t offset, uint32_t len)
{
    struct wc_buffer *idle = &s->wc[0], *oldest = NULL, *b = NULL;

    if (s->wc_busy)
        b = wc_find(s, line, &idle, &oldest);
    if (!b) {
        if (idle) {
            b = idle;
        } else {
            wc_flush(s, oldest);
            b = oldest;
        }
        b->busy = true;
        s->wc_busy++;
        b->line = line;
        b->age = ++s->wc_age;
        memset(b->mask, 0, sizeof b->mask);
    }
    for (uint32_t word = offset / 64; word * 64 < offset + len; word++) {
        uint32_t from = offset > word * 64 ? offset - word * 64 : 0;
        uint32_t to = offset + len - word * 64 < 64 ? offset + len - word * 64 : 64;
        uint64_t upto = to == 64 ? UINT64_MAX : (1ull << to) - 1;
        b->mask[word] |= upto & ~((1ull << from) - 1);
    }
    if (wc_full(s, b))
        wc_flush(s, b);
}

/* A whole line streamed: the same as wc_write of every byte (it fills whichever buffer it
 * gets, which is then flushed at once), without filling a buffer. */
static void wc_write_whole_line(struct sb_cachesim *s, uint64_t line)
{
    if (s->wc_busy) {
        struct wc_buffer *idle, *oldest, *b = wc_find(s, line, &idle, &oldest);
        if (b) { /* its buffer becomes whole */
            b->busy = false;
            s->wc_busy--;
            wc_write_line(s, line);
            return;
        }
        if (!idle)
            wc_flush(s, oldest); /* the buffer it takes */
    }
    s->wc_age++;
    wc_write_line(s, line);
}

static inline void stream_line(struct sb_cachesim *s, uint64_t address, uint32_t offset,
                               uint32_t len)
{
    const uint64_t line = address >> s->line_shift;

    if (!in_slice(s, line))
        return;
    s->n.line_accesses++; /* L1d's hits and misses are added in read_counts */
    if (len == s->line_size)
        wc_write_whole_line(s, line >> s->slice_shift);
    else
        wc_write(s, line >> s->slice_shift, offset, len);
}

void sb_cachesim_stream_store(struct sb_cachesim *s, uint64_t address, uint64_t len)
{
    while (len > 0) {
        uint32_t offset = (uint32_t)(address & (s->line_size - 1));
        uint32_t n = s->line_size - offset;
        if (n > len)
            n = (uint32_t)len;
        stream_line(s, address, offset, n);
        address += n;
        len -= n;
    }
}

void sb_cachesim_fence(struct sb_cachesim *s)
{
    /* oldest first, as the buffers drain in order */
    while (s->wc_busy) {
        struct wc_buffer *oldest = NULL;
        for (unsigned i = 0; i < s->nwc; i++)
            if (s->wc[i].busy && (!oldest || s->wc[i].age < oldest->age))
                oldest = &s->wc[i];
        wc_flush(s, oldest);
    }
}

/* --- batches ------------------------------------------------------------------------------- */

/* A copy of lines whole lines: src_line's loaded, dst_line's stored or streamed, in turn. */
static ALWAYS_INLINE void copy_lines(struct sb_cachesim *s, const int shape_id,
                                     uint64_t src_line, uint64_t dst_line, uint64_t lines,
                                     bool stream)
{
    for (uint64_t i = 0; i < lines; i++) {
        access_line(s, shape_id, src_line + i, 0, false, false, true);
        if (stream) {
            s->n.line_accesses++;
            wc_write_whole_line(s, dst_line + i);
        } else {
            access_line(s, shape_id, dst_line + i, TAG_DIRTY, true, false, true);
        }
    }
}

/* Each shape's copy of the loop is a function of its own (the register allocation of one, a
 * long inlined path short of registers, then does not shift with the code of the others), and
 * a second one for AVX2 and BMI1/2 where this build has it (else the baseline's again). */
#define COPY_LINES_BASELINE(shape_id, name)                                                    \
    static __attribute__((noinline)) void name(struct sb_cachesim *s, uint64_t src_line,      \
                                               uint64_t dst_line, uint64_t lines, bool stream) \
    {                                                                                          \
        copy_lines(s, shape_id, src_line, dst_line, lines, stream);                            \
    }
#if AVX2_BMI2_CODE
#define COPY_LINES_AVX2_BMI2(shape_id, name)                                                   \
    static __attribute__((noinline)) FOR_AVX2_BMI2 void name##_avx2_bmi2(                     \
        struct sb_cachesim *s, uint64_t src_line, uint64_t dst_line, uint64_t lines,           \
        bool stream)                                                                           \
    {                                                                                          \
        copy_lines(s, shape_id, src_line, dst_line, lines, stream);                            \
    }
#define AVX2_BMI2_OR_BASELINE(name) name##_avx2_bmi2
#else
#define COPY_LINES_AVX2_BMI2(shape_id, name)
#define AVX2_BMI2_OR_BASELINE(name) name
#endif
#define COPY_LINES_OF(shape_id, name)                                                          \
    COPY_LINES_BASELINE(shape_id, name)                                                        \
    COPY_LINES_AVX2_BMI2(shape_id, name)
COPY_LINES_OF(0, copy_lines_0)
COPY_LINES_OF(1, copy_lines_1)
COPY_LINES_OF(2, copy_lines_2)
COPY_LINES_OF(3, copy_lines_3)
COPY_LINES_OF(4, copy_lines_4)
COPY_LINES_OF(5, copy_lines_5)
COPY_LINES_OF(6, copy_lines_6)
COPY_LINES_OF(7, copy_lines_7)
COPY_LINES_OF(8, copy_lines_8)
COPY_LINES_OF(-1, copy_lines_own)
#undef COPY_LINES_OF
#undef COPY_LINES_AVX2_BMI2
#undef COPY_LINES_BASELINE

/* The copies by code, then by common_shape + 1 (the model's own shape's first). */
#define COPY_LINES_ROW(code_of)                                                                \
    {code_of(copy_lines_own), code_of(copy_lines_0), code_of(copy_lines_1),                    \
     code_of(copy_lines_2),   code_of(copy_lines_3), code_of(copy_lines_4),                    \
     code_of(copy_lines_5),   code_of(copy_lines_6), code_of(copy_lines_7),                    \
     code_of(copy_lines_8)}
#define BASELINE(name) name
static void (*const copy_lines_of[SB_CACHESIM_NCODES][NCOMMON_SHAPES + 1])(
    struct sb_cachesim *, uint64_t, uint64_t, uint64_t, bool) = {
    [SB_CACHESIM_CODE_BASELINE] = COPY_LINES_ROW(BASELINE),
    [SB_CACHESIM_CODE_AVX2_BMI2] = COPY_LINES_ROW(AVX2_BMI2_OR_BASELINE)};
_Static_assert(NCOMMON_SHAPES == 9, "a copy of the loop per common shape in COPY_LINES_ROW");
#undef BASELINE
#undef COPY_LINES_ROW
#undef AVX2_BMI2_OR_BASELINE

void sb_cachesim_copy(struct sb_cachesim *s, uint64_t src, uint64_t dst, uint64_t len,
                      bool stream)
{
    const uint64_t line_size = s->line_size;
    uint64_t src_line = src >> s->line_shift, dst_line = dst >> s->line_shift;
    uint64_t lines = (len + line_size - 1) >> s->line_shift;

    /* each chunk spans two lines of each, or (in a slice) the source and destination lines of
     * a chunk fall in different slices: line by line */
    if ((src | dst) & (line_size - 1) || ((src_line ^ dst_line) & s->slice_mask)) {
        for (uint64_t off = 0; off < len; off += line_size) {
            sb_cachesim_access(s, src + off, line_size, false);
            if (stream)
                sb_cachesim_stream_store(s, dst + off, line_size);
            else
                sb_cachesim_access(s, dst + off, line_size, true);
        }
        return;
    }
    if (s->slice_mask) { /* the chunks whose lines are in the slice: every (mask + 1)th */
        uint64_t first = (s->slice_index - src_line) & s->slice_mask;
        if (first >= lines)
            return;
        lines = (lines - first + s->slice_mask) >> s->slice_shift;
        src_line = (src_line + first) >> s->slice_shift;
        dst_line = (dst_line + first) >> s->slice_shift;
    }
    copy_lines_of[s->code][s->common_shape + 1](s, src_line, dst_line, lines, stream);
}

/* --- counts and inspection ------------------------------------------------------------------- */

void sb_cachesim_read_counts(const struct sb_cachesim *s, struct sb_cachesim_counts *counts)
{
    *counts = s->n;
    for (unsigned l = 0; l < SB_CACHESIM_MAX_LEVELS; l++)
        counts->level[l] = s->level[l].n;
    /* memory is read only in whole lines (n.mem_read_bytes stays 0); written in whole lines
     * and in partly written WC buffers' bytes (those in n.mem_write_bytes) */
    counts->mem_read_bytes = s->mem_read_lines * s->line_size;
    counts->mem_write_bytes += s->mem_write_lines * s->line_size;
    counts->line_accesses += counts->level[0].hits + counts->level[0].misses;
}

void sb_cachesim_counts_add(struct sb_cachesim_counts *sum, const struct sb_cachesim_counts *more)
{
    for (unsigned l = 0; l < SB_CACHESIM_MAX_LEVELS; l++) {
        sum->level[l].hits += more->level[l].hits;
        sum->level[l].misses += more->level[l].misses;
        sum->level[l].fills += more->level[l].fills;
        sum->level[l].writebacks += more->level[l].writebacks;
        sum->level[l].invalidations += more->level[l].invalidations;
    }
    sum->line_accesses += more->line_accesses;
    sum->prefetches += more->prefetches;
    sum->nta_prefetches += more->nta_prefetches;
    sum->mem_read_bytes += more->mem_read_bytes;
    sum->mem_write_bytes += more->mem_write_bytes;
    sum->wc_full_lines += more->wc_full_lines;
    sum->wc_partial_flushes += more->wc_partial_flushes;
    sum->wc_partial_bytes += more->wc_partial_bytes;
    sum->full_line_rfos += more->full_line_rfos;
    sum->rfos_evaded += more->rfos_evaded;
}

void sb_cachesim_counts_sub(struct sb_cachesim_counts *diff, const struct sb_cachesim_counts *a,
                            const struct sb_cachesim_counts *b)
{
    for (unsigned l = 0; l < SB_CACHESIM_MAX_LEVELS; l++) {
        diff->level[l].hits = a->level[l].hits - b->level[l].hits;
        diff->level[l].misses = a->level[l].misses - b->level[l].misses;
        diff->level[l].fills = a->level[l].fills - b->level[l].fills;
        diff->level[l].writebacks = a->level[l].writebacks - b->level[l].writebacks;
        diff->level[l].invalidations = a->level[l].invalidations - b->level[l].invalidations;
    }
    diff->line_accesses = a->line_accesses - b->line_accesses;
    diff->prefetches = a->prefetches - b->prefetches;
    diff->nta_prefetches = a->nta_prefetches - b->nta_prefetches;
    diff->mem_read_bytes = a->mem_read_bytes - b->mem_read_bytes;
    diff->mem_write_bytes = a->mem_write_bytes - b->mem_write_bytes;
    diff->wc_full_lines = a->wc_full_lines - b->wc_full_lines;
    diff->wc_partial_flushes = a->wc_partial_flushes - b->wc_partial_flushes;
    diff->wc_partial_bytes = a->wc_partial_bytes - b->wc_partial_bytes;
    diff->full_line_rfos = a->full_line_rfos - b->full_line_rfos;
    diff->rfos_evaded = a->rfos_evaded - b->rfos_evaded;
}

void sb_cachesim_reset_counts(struct sb_cachesim *s)
{
    memset(&s->n, 0, sizeof s->n);
    s->mem_read_lines = s->mem_write_lines = 0;
    for (unsigned l = 0; l < SB_CACHESIM_MAX_LEVELS; l++)
        memset(&s->level[l].n, 0, sizeof s->level[l].n);
}

bool sb_cachesim_holds(const struct sb_cachesim *s, unsigned level, uint64_t address, bool *dirty)
{
    const struct level *L;
    uint64_t line = address >> s->line_shift;
    struct set_ref r;
    int w;

    if (level >= s->nlevels || !in_slice(s, line))
        return false;
    line >>= s->slice_shift;
    L = &s->level[level];
    r = set_ref_of(L, s->shape.level[level], line, s->shape.wide);
    w = find_way(L, r, line, key_of(hint_of(line)), s->shape.wide);
    if (w >= 0 && dirty)
        *dirty = r.tags[w] & TAG_DIRTY;
    return w >= 0;
}

uint32_t sb_cachesim_line_size(const struct sb_cachesim *s) { return s->line_size; }

enum sb_cachesim_code sb_cachesim_code_of(const struct sb_cachesim *s) { return s->code; }

bool sb_cachesim_use_code(struct sb_cachesim *s, enum sb_cachesim_code code)
{
    switch (code) {
    case SB_CACHESIM_CODE_BASELINE:
        break;
    case SB_CACHESIM_CODE_AVX2_BMI2:
#if AVX2_BMI2_CODE
        if (cpu_has_avx2_bmi2())
            break;
#endif
        return false;
    default:
        return false;
    }
    s->code = code;
    return true;
}

size_t sb_cachesim_state_bytes(const struct sb_cachesim *s)
{
    size_t bytes = sizeof *s;

    for (unsigned l = 0; l < s->nlevels; l++)
        bytes += level_words(&s->level[l]) * sizeof(uint64_t);
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
        uint64_t words = set_words_for(c->associativity);
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
