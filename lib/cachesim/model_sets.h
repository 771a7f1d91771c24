/* SPDX-License-Identifier: BSD-3-Clause */
/* model_sets.h: the cache model's private set code, for model.c alone (no other file includes
 * it): a level's geometry and its sets' state (model.c's header comment has the layout), and
 * one set's lookup, touch, victim, take-out and placement for LRU, tree pseudo-LRU and the
 * K8's pairs, as static functions, the replay's steps always inlined (so that a shape's
 * constants fold into them). The helpers called once per level (set_clear, plru_masks,
 * log2_of) stay plain static: marked inline, GCC laid the model out otherwise, and sim-speed
 * ran 2.8% slower on x4500 and 5% faster on epyc-zen4; as they are, model.o's instructions are
 * those it had before the set code moved here. Users of the model see model.h, users of
 * machine files machine.h: neither rebuilds when this file changes. */
#ifndef SB_CACHESIM_MODEL_SETS_H
#define SB_CACHESIM_MODEL_SETS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "cachesim/model_types.h"

#define TAG_DIRTY 1u
#define TAG_PREFETCHED 2u
#define TAG_NTA 4u /* L1d only: a clean eviction does not go into an exclusive L2 */
#define TAG_INVALID UINT64_MAX
#define TAG_OF(line, flags) (((line) << 3) | (flags))
#define LINE_OF(tag) ((tag) >> 3)

#define HINT_FREE 0x00u
#define HINT_PADDING 0x7fu /* never free, never a line's hint */
#define PLRU_MRU_SHIFT 58  /* pseudo-LRU up to 32 ways: the last way touched */
#define PLRU_MRU_MAX_WAYS 32u
#define NARROW_WAYS 16u    /* a level of up to 16 ways has its hints compared at once */

struct level {
    uint64_t *set0;       /* the first set: its words (repl, hints, tags) then the next set's */
    uint64_t set_mask;    /* sets - 1 */
    uint64_t set_words;   /* words per set: tags_word + ways */
    uint64_t tags_word;   /* where a set's tags start: 1 + hint_bytes / 8 (3 up to 16 ways) */
    uint64_t order_mask;  /* LRU: the low 4 * ways bits of the order word */
    uint64_t ways;
    uint64_t hint_bytes;  /* ways rounded up to 16, 32 or 64 */
    unsigned lru_shift;   /* LRU: 4 * (ways - 1), where the least recent way sits */
    unsigned plru_down;   /* PLRU: the levels of the tree below the first 3 (plru_top's) */
    bool mru_known;       /* the set's word names its most recently used way */
    uint64_t sets;
    uint64_t *mem;        /* the one allocation holding the sets (set0) */
    size_t mem_bytes;     /* its length (a mapping of its own: see level_init) */
    struct sb_cachesim_level_counts n;
    uint64_t plru_clear[SB_CACHESIM_MAX_WAYS]; /* PLRU: a touch of way w is */
    uint64_t plru_set[SB_CACHESIM_MAX_WAYS];   /* (bits & ~plru_clear[w]) | plru_set[w] */
    uint8_t plru_top[128]; /* PLRU: the node of depth 3 (or the tree's depth, if less) that
                              tree bits 1..7 lead to */
};

/* What the replay branches on, per level. */
struct level_kind {
    bool lru; /* else pseudo-LRU (or pairs) */
    enum sb_inclusion inclusion;
    unsigned ways; /* a common shape's associativity, a constant there; 0: the level's own */
    bool pairs; /* the K8 L2's LRU over pairs of ways (SB_REPL_PAIRS) */
};

/* The steps of the replay are always inlined (a call costs as much as a step, and the shape
 * folds only into inlined code). */
#define ALWAYS_INLINE inline __attribute__((always_inline))

static bool is_pow2(uint64_t x) { return x && !(x & (x - 1)); }

static unsigned log2_of(uint64_t x)
{
    unsigned s = 0;
    while ((1ull << s) < x)
        s++;
    return s;
}

/* --- a level's geometry, from its associativity --------------------------------------------
 * Computed once per level by level_init, and the same formulas folded into constants where a
 * common shape fixes the ways (the *_of helpers further down). */

/* Hint bytes per set: the ways rounded up to 16, 32 or 64. */
static ALWAYS_INLINE uint64_t hint_bytes_for(uint64_t ways)
{
    return ways <= 16 ? 16 : 1ull << log2_of(ways);
}

/* Where a set's tags start (after the replacement word and the hints), and its words. */
static ALWAYS_INLINE uint64_t tags_word_for(uint64_t ways) { return 1 + hint_bytes_for(ways) / 8; }
static ALWAYS_INLINE uint64_t set_words_for(uint64_t ways) { return tags_word_for(ways) + ways; }

/* LRU, 4 bits per way (at most 16 ways): the bits of the order word, and where its least
 * recent way sits. */
static ALWAYS_INLINE uint64_t order_mask_for(uint64_t ways)
{
    return ways >= 16 ? UINT64_MAX : (1ull << (4 * ways)) - 1;
}

static ALWAYS_INLINE unsigned lru_shift_for(uint64_t ways) { return 4 * ((unsigned)ways - 1); }

/* Pseudo-LRU: the levels of the tree below its first 3 (see plru_victim). */
static ALWAYS_INLINE unsigned plru_down_for(uint64_t ways)
{
    return log2_of(ways) > 3 ? log2_of(ways) - 3 : 0;
}

/* --- one set --------------------------------------------------------------------------------- */

#define BYTES_01 0x0101010101010101ull
#define BYTES_80 0x8080808080808080ull
#define NIBBLES_1 0x1111111111111111ull
#define NIBBLES_8 0x8888888888888888ull

/* The line's hint byte, the same at every level: 0x80 | 7 bits of a multiplicative hash of the
 * line number (never 0, the mark of a free way, nor 0x7f, the padding's). */
static ALWAYS_INLINE uint8_t hint_of(uint64_t line)
{
    return (uint8_t)(0x80 | ((line * 0x9e3779b97f4a7c15ull) >> 57));
}

/* byte_key(b) holds b in every byte; bytes_equal(bytes, n, key) has bit i set where bytes[i] is
 * the key's byte, for n = 16, 32 or 64 bytes. SSE2 compares 16 bytes at once (every x86-64 has
 * it); elsewhere, or built with SB_CACHESIM_PORTABLE, a zero-byte search on words does. */
#if defined(__SSE2__) && !defined(SB_CACHESIM_PORTABLE)
#include <emmintrin.h>

typedef __m128i byte_key;

/* Every byte's key, made at compile time: a key is one load (four instructions made at run
 * time), and an aligned one, which the comparison can take straight from memory. */
#define KEY_ROW(b) {b, b, b, b, b, b, b, b, b, b, b, b, b, b, b, b}
#define KEY_ROWS_16(h)                                                                        \
    KEY_ROW(h##0), KEY_ROW(h##1), KEY_ROW(h##2), KEY_ROW(h##3), KEY_ROW(h##4), KEY_ROW(h##5), \
    KEY_ROW(h##6), KEY_ROW(h##7), KEY_ROW(h##8), KEY_ROW(h##9), KEY_ROW(h##a), KEY_ROW(h##b), \
    KEY_ROW(h##c), KEY_ROW(h##d), KEY_ROW(h##e), KEY_ROW(h##f)
static const uint8_t key_rows[256][16] __attribute__((aligned(16))) = {
    KEY_ROWS_16(0x0), KEY_ROWS_16(0x1), KEY_ROWS_16(0x2), KEY_ROWS_16(0x3),
    KEY_ROWS_16(0x4), KEY_ROWS_16(0x5), KEY_ROWS_16(0x6), KEY_ROWS_16(0x7),
    KEY_ROWS_16(0x8), KEY_ROWS_16(0x9), KEY_ROWS_16(0xa), KEY_ROWS_16(0xb),
    KEY_ROWS_16(0xc), KEY_ROWS_16(0xd), KEY_ROWS_16(0xe), KEY_ROWS_16(0xf)};
#undef KEY_ROWS_16
#undef KEY_ROW

static ALWAYS_INLINE byte_key key_of(uint8_t byte)
{
    return _mm_load_si128((const __m128i *)(const void *)key_rows[byte]);
}

static ALWAYS_INLINE uint64_t bytes_equal(const uint8_t *bytes, uint32_t n, byte_key key)
{
    uint64_t m = 0;

    for (uint32_t i = 0; i < n; i += 16)
        m |= (uint64_t)(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(
                 _mm_loadu_si128((const __m128i *)(const void *)(bytes + i)), key)) << i;
    return m;
}
#else
typedef uint64_t byte_key;

static ALWAYS_INLINE byte_key key_of(uint8_t byte) { return byte * BYTES_01; }

/* Eight bytes as one word, byte i in bits 8i..8i+7 whatever the host's byte order. */
static ALWAYS_INLINE uint64_t load_bytes(const uint8_t *p)
{
    uint64_t word;

    memcpy(&word, p, sizeof word);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    word = __builtin_bswap64(word);
#endif
    return word;
}

/* The high bit of every byte of x that is zero (exact: no carry crosses a byte). */
static ALWAYS_INLINE uint64_t zero_bytes(uint64_t x)
{
    return ~(((x & ~BYTES_80) + ~BYTES_80) | x | ~BYTES_80);
}

static ALWAYS_INLINE uint64_t bytes_equal(const uint8_t *bytes, uint32_t n, byte_key key)
{
    uint64_t m = 0;

    for (uint32_t i = 0; i < n; i += 8) {
        uint64_t z = zero_bytes(load_bytes(bytes + i) ^ key) >> 7; /* 1 in each equal byte */
        m |= ((z * 0x0102040810204080ull) >> 56) << i;               /* gathered: bit per byte */
    }
    return m;
}
#endif

/* A set of a level: where its replacement word, hints and tags are. A line's set is found
 * once per level and access (its lookup), and kept for the fill that follows: recomputed after
 * the stores in between, it would cost the level's geometry loaded again (a hint store, a char
 * store, may alias any of it). */
struct set_ref {
    uint64_t *repl;
    uint8_t *hints;
    uint64_t *tags;
};

#define NARROW_TAGS_WORD 3u /* the repl word, 16 hint bytes */

/* The set whose words start at set (wide: whether a level of the model, not necessarily
 * this one, has more than 16 ways; if not, the tags' offset is a constant). */
static ALWAYS_INLINE struct set_ref set_at(const struct level *L, uint64_t *set, bool wide)
{
    return (struct set_ref){set, (uint8_t *)(set + 1), set + (wide ? L->tags_word
                                                                   : NARROW_TAGS_WORD)};
}

/* A level's geometry: the shape's constant where it has one (k.ways), else the level's own. */
static ALWAYS_INLINE uint64_t set_words_of(const struct level *L, struct level_kind k)
{
    return k.ways ? set_words_for(k.ways) : L->set_words;
}

static ALWAYS_INLINE uint64_t order_mask_of(const struct level *L, struct level_kind k)
{
    return k.ways ? order_mask_for(k.ways) : L->order_mask;
}

static ALWAYS_INLINE unsigned lru_shift_of(const struct level *L, struct level_kind k)
{
    return k.ways ? lru_shift_for(k.ways) : L->lru_shift;
}

static ALWAYS_INLINE struct set_ref set_ref_of(const struct level *L, struct level_kind k,
                                               uint64_t line, bool wide)
{
    return set_at(L, L->set0 + (line & L->set_mask) * set_words_of(L, k), wide);
}

/* The ways of the set (its hints) whose hint is the key's byte. A narrow model (wide false in
 * its shape) compares 16 bytes. No mask keeps the set's ways: the padding's hint (0x7f) is
 * neither a line's nor a free way's, so no key matches it. */
static ALWAYS_INLINE uint64_t hints_equal(const struct level *L, const uint8_t *hints,
                                          byte_key key, bool wide)
{
    if (!wide)
        return bytes_equal(hints, 16, key);
    return bytes_equal(hints, (uint32_t)L->hint_bytes, key);
}

/* The way of the set holding line, or -1: the ways whose hint matches, then their tags. */
static ALWAYS_INLINE int find_way(const struct level *L, struct set_ref r,
                                  uint64_t line, byte_key key, bool wide)
{
    const uint64_t *tags = r.tags;
    uint64_t m = hints_equal(L, r.hints, key, wide);

    while (m) {
        uint32_t w = (uint32_t)__builtin_ctzll(m);
        if (LINE_OF(tags[w]) == line)
            return (int)w;
        m &= m - 1;
    }
    return -1;
}

/* The set's most recently used way (mru_known levels only). */
static ALWAYS_INLINE uint32_t mru_way(struct level_kind k, uint64_t repl)
{
    return k.lru ? (uint32_t)(repl & 15) : (uint32_t)(repl >> PLRU_MRU_SHIFT);
}

/* Pairs: the low 32 bits of a set's word hold the pairs' LRU order (a nibble each, the most
 * recent first), the high 32 the state of its own xorshift32 generator, seeded alike in every
 * set (a set's choices depend on its own history only: exact, and the same in every slice). */
#define PAIRS_SEED 0x9e3779b9ull
#define PAIRS_MAX_WAYS 16u

/* An empty set: every way free, LRU order 0, 1, 2, ... (way 0 most recent), PLRU bits 0;
 * pairs in order 0, 1, 2, ... with the generator's seed. */
static void set_clear(const struct level *L, enum sb_replacement repl, uint64_t set)
{
    const struct set_ref r = set_at(L, L->set0 + set * L->set_words, true);

    *r.repl = repl == SB_REPL_LRU     ? 0xfedcba9876543210ull & L->order_mask
              : repl == SB_REPL_PAIRS ? (0xfedcba9876543210ull & order_mask_for(L->ways / 2)) |
                                            PAIRS_SEED << 32
                                      : 0;
    memset(r.hints, HINT_FREE, L->ways);
    memset(r.hints + L->ways, HINT_PADDING, L->hint_bytes - L->ways);
    for (uint32_t w = 0; w < L->ways; w++)
        r.tags[w] = TAG_INVALID;
}

/* LRU: the nibbles of the order more recent than way (the low p nibbles, where way sits at
 * position p, 0 = most recent). The nibbles equal to way's number are x's zero nibbles, and
 * (x - 0x11..1) & ~x & 0x88..8 flags the lowest of them exactly (a borrow runs only upward
 * from it): way's own, as the unused high nibbles of a level of fewer than 16 ways (zero, so
 * equal to way 0) lie above it. */
static ALWAYS_INLINE uint64_t lru_more_recent(uint64_t order, uint32_t way)
{
    const uint64_t x = order ^ (way * NIBBLES_1);
    const uint64_t zero = (x - NIBBLES_1) & ~x & NIBBLES_8;
    return ((zero & -zero) >> 3) - 1;
}

/* LRU: the order with way, whose more recent ways are the nibbles newer (lru_more_recent),
 * moved to the front, those ways one place back. */
static ALWAYS_INLINE uint64_t lru_to_front(uint64_t order, uint64_t newer, uint32_t way)
{
    return (order & ~((newer << 4) | 15)) | ((order & newer) << 4) | way;
}

/* Pseudo-LRU: point every node on the way's path away from it (masks made by plru_masks),
 * and, up to 32 ways, record the way as the most recent. */
static ALWAYS_INLINE uint64_t plru_touch(const struct level *L, uint64_t bits, uint32_t way)
{
    return (bits & ~L->plru_clear[way]) | L->plru_set[way];
}

static void plru_masks(struct level *L)
{
    const unsigned depth = log2_of(L->ways);

    for (uint64_t top = 0; top < 128; top++) {
        uint64_t bits = top << 1, node = 1;
        for (unsigned step = 0; step < 3 && step < depth; step++)
            node = 2 * node + ((bits >> node) & 1);
        L->plru_top[top] = (uint8_t)node;
    }
    for (uint32_t way = 0; way < L->ways; way++) {
        L->plru_clear[way] = L->plru_set[way] = 0;
        for (uint64_t node = way + L->ways; node > 1; node >>= 1) {
            uint64_t parent = node >> 1;
            L->plru_clear[way] |= 1ull << parent;
            if (!(node & 1)) /* came from the left: the victim search goes right */
                L->plru_set[way] |= 1ull << parent;
        }
        if (L->mru_known) {
            L->plru_clear[way] |= ~0ull << PLRU_MRU_SHIFT;
            L->plru_set[way] |= (uint64_t)way << PLRU_MRU_SHIFT;
        }
    }
}

/* Pseudo-LRU: the first free way, else the way the tree points at. */
static ALWAYS_INLINE uint32_t plru_victim(const struct level *L, struct level_kind k,
                                          const uint8_t *hints, uint64_t bits, bool wide)
{
    uint64_t free = hints_equal(L, hints, key_of(HINT_FREE), wide);
    uint64_t node;

    if (free)
        return (uint32_t)__builtin_ctzll(free);
    /* the first three steps (or fewer) at once, then one step per level further down (at
     * most three) */
    node = L->plru_top[(bits >> 1) & 127];
    for (unsigned down = k.ways ? plru_down_for(k.ways) : L->plru_down; down; down--)
        node = 2 * node + ((bits >> node) & 1);
    return (uint32_t)(node - (k.ways ? k.ways : L->ways));
}

/* Pairs: way's pair becomes the most recent (the order's nibbles are in the low 32 bits and
 * every pair is among them, so the lowest nibble equal to the pair is its own). */
static ALWAYS_INLINE uint64_t pairs_touch(uint64_t repl, uint32_t way)
{
    const uint32_t pair = way >> 1;

    if ((repl & 15) == pair)
        return repl;
    return lru_to_front(repl, lru_more_recent(repl, pair), pair);
}

/* Pairs: the first free way, else one of the least recent pair's two at random (the set's
 * generator steps once); *repl the word with the generator stepped and the pair made most
 * recent. */
static ALWAYS_INLINE uint32_t pairs_victim(const struct level *L, struct level_kind k,
                                           const uint8_t *hints, uint64_t *repl, bool wide)
{
    const unsigned ways = k.ways ? k.ways : (unsigned)L->ways;
    uint64_t free = hints_equal(L, hints, key_of(HINT_FREE), wide);
    uint32_t way, rnd;

    if (free) {
        way = (uint32_t)__builtin_ctzll(free);
    } else {
        rnd = (uint32_t)(*repl >> 32);
        rnd ^= rnd << 13;
        rnd ^= rnd >> 17;
        rnd ^= rnd << 5;
        way = 2 * (uint32_t)((*repl >> (4 * (ways / 2 - 1))) & 15) + (rnd & 1);
        *repl = (*repl & 0xffffffffull) | (uint64_t)rnd << 32;
    }
    *repl = pairs_touch(*repl, way);
    return way;
}

/* A hit: the way becomes the most recently used. */
static ALWAYS_INLINE void touch(const struct level *L, struct level_kind k, struct set_ref r,
                                uint32_t way)
{
    uint64_t repl = *r.repl;

    if (k.pairs) {
        *r.repl = pairs_touch(repl, way);
    } else if (k.lru) {
        if ((repl & 15) == way)
            return; /* already the most recent */
        *r.repl = lru_to_front(repl, lru_more_recent(repl, way), way);
    } else {
        *r.repl = plru_touch(L, repl, way);
    }
}

/* Takes the line out of the set (the way becomes free); returns its tag. */
static ALWAYS_INLINE uint64_t take_out(const struct level *L, struct level_kind k,
                                       struct set_ref r, uint32_t way)
{
    uint64_t *tag = &r.tags[way];
    uint64_t old = *tag;

    *tag = TAG_INVALID;
    if (k.lru) {
        uint64_t order = *r.repl;
        uint64_t newer = lru_more_recent(order, way);
        *r.repl = (order & newer) | ((order >> 4) & ~newer) |
                         ((uint64_t)way << lru_shift_of(L, k));
    }
    r.hints[way] = HINT_FREE;
    return old;
}

/* Places tag (whose line's hint is hint) in its set r as the most recently used; returns the
 * tag it replaced (TAG_INVALID when a way was free) and in *victim_hint that tag's hint (read
 * from the set rather than hashed again). */
static ALWAYS_INLINE uint64_t place(struct level *L, struct level_kind k, bool wide,
                                    struct set_ref r, uint64_t tag, uint8_t hint,
                                    uint8_t *victim_hint)
{
    const uint64_t repl = *r.repl;
    uint64_t *slot, victim;
    uint8_t *hint_slot;
    uint32_t way;

    L->n.fills++;
    if (k.pairs) {
        uint64_t word = repl;
        way = pairs_victim(L, k, r.hints, &word, wide);
        *r.repl = word;
    } else if (k.lru) {
        way = (uint32_t)(repl >> lru_shift_of(L, k)) & 15;
        *r.repl = ((repl << 4) & order_mask_of(L, k)) | way;
    } else {
        way = plru_victim(L, k, r.hints, repl, wide);
        *r.repl = plru_touch(L, repl, way);
    }
    slot = &r.tags[way];
    hint_slot = &r.hints[way];
    victim = *slot;
    *victim_hint = *hint_slot;
    *slot = tag;
    *hint_slot = hint;
    return victim;
}

#endif
