/* SPDX-License-Identifier: BSD-3-Clause */
#include "config.h"
/* test_cachesim.c: unit tests for lib/cachesim/cachesim.h, the cache-hierarchy model. Tiny geometries
 * (one set of 2 to 4 ways, 64-byte lines) fed hand-traced sequences; each test spells out the
 * state after every step so the expected counts can be checked by reading. Letters name lines:
 * A is line 0 (address 0), B line 1 (address 64), ... In a one-set cache every line maps to the
 * only set. LRU orders are written most-recent first: [C B A]. */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "cachesim/cachesim.h"
#include "cachesim/model.h"

#define LINE 64u
enum { A, B, C, D, E, F, G, H, I, J };
#define AT(l) ((uint64_t)(l) * LINE)

static struct sb_cachesim_level_config level(uint64_t size, uint32_t ways, enum sb_replacement r,
                                             enum sb_inclusion inc)
{
    struct sb_cachesim_level_config c = {size, LINE, ways, r, inc};
    return c;
}

static struct sb_cachesim *make(struct sb_cachesim_config *cfg)
{
    struct sb_cachesim *sim = NULL;
    struct sb_error err = {0};

    if (cfg->wc_buffers == 0)
        cfg->wc_buffers = 4;
    assert_int_equal(sb_cachesim_create(cfg, &sim, &err), SB_OK);
    assert_non_null(sim);
    return sim;
}

static void rd(struct sb_cachesim *s, int l) { sb_cachesim_access(s, AT(l), 8, false); }
static void wr(struct sb_cachesim *s, int l) { sb_cachesim_access(s, AT(l), 8, true); }
static bool in(struct sb_cachesim *s, unsigned lvl, int l)
{
    return sb_cachesim_holds(s, lvl, AT(l), NULL);
}

static struct sb_cachesim_counts counts(struct sb_cachesim *s)
{
    struct sb_cachesim_counts n;
    sb_cachesim_read_counts(s, &n);
    return n;
}

/* One level, one set of 4 ways, LRU. Reads A B C D A E B F:
 *   A B C D  misses, fills           [D C B A]
 *   A        hit                     [A D C B]
 *   E        miss, evicts B (LRU)    [E A D C]
 *   B        miss, evicts C          [B E A D]
 *   F        miss, evicts D          [F B E A]
 * hits 1, misses 7, fills 7, 7 lines read from memory, nothing written. */
static void test_lru_one_set(void **state)
{
    struct sb_cachesim_config cfg = {1, {level(4 * LINE, 4, SB_REPL_LRU, 0)}, 0, false,
        SB_WA_NT_STORES};
    struct sb_cachesim *s = make(&cfg);
    struct sb_cachesim_counts n;

    (void)state;
    rd(s, A), rd(s, B), rd(s, C), rd(s, D), rd(s, A), rd(s, E);
    assert_false(in(s, 0, B));
    assert_true(in(s, 0, A) && in(s, 0, C) && in(s, 0, D) && in(s, 0, E));
    rd(s, B);
    assert_false(in(s, 0, C));
    rd(s, F);
    assert_false(in(s, 0, D));
    assert_true(in(s, 0, A) && in(s, 0, B) && in(s, 0, E) && in(s, 0, F));
    n = counts(s);
    assert_int_equal(n.level[0].hits, 1);
    assert_int_equal(n.level[0].misses, 7);
    assert_int_equal(n.level[0].fills, 7);
    assert_int_equal(n.level[0].writebacks, 0);
    assert_int_equal(n.mem_read_bytes, 7 * LINE);
    assert_int_equal(n.mem_write_bytes, 0);
    assert_int_equal(n.line_accesses, 8);
    sb_cachesim_destroy(s);
}

/* The same reads, tree pseudo-LRU (4 ways: root bit 1 chooses between the pairs, bit 2 between
 * ways 0 and 1, bit 3 between ways 2 and 3; 0 = go left; a touch points its path away):
 *   A B C D  fill ways 0..3 (the first invalid way). After D: bit1=0, bit2=0 (last set by B:
 *            B is way 1, a right child, so bit2 points left at A), bit3=0.
 *   A        hit way 0: bit2=1, bit1=1.
 *   E        miss: bit1=1 -> right pair, bit3=0 -> way 2: evicts C (LRU would evict B).
 *            E in way 2: bit1=0, bit3=1.
 *   B        hit (way 1): bit2=0, bit1=1.
 *   F        miss: bit1=1 -> right pair, bit3=1 -> way 3: evicts D.
 * hits 2, misses 6, fills 6; ends holding A B E F. */
static void test_plru_one_set(void **state)
{
    struct sb_cachesim_config cfg = {1, {level(4 * LINE, 4, SB_REPL_PLRU, 0)}, 0, false,
        SB_WA_NT_STORES};
    struct sb_cachesim *s = make(&cfg);
    struct sb_cachesim_counts n;

    (void)state;
    rd(s, A), rd(s, B), rd(s, C), rd(s, D), rd(s, A), rd(s, E);
    assert_false(in(s, 0, C));
    assert_true(in(s, 0, A) && in(s, 0, B) && in(s, 0, D) && in(s, 0, E));
    rd(s, B);
    rd(s, F);
    assert_false(in(s, 0, D));
    assert_true(in(s, 0, A) && in(s, 0, B) && in(s, 0, E) && in(s, 0, F));
    n = counts(s);
    assert_int_equal(n.level[0].hits, 2);
    assert_int_equal(n.level[0].misses, 6);
    assert_int_equal(n.level[0].fills, 6);
    assert_int_equal(n.mem_read_bytes, 6 * LINE);
    sb_cachesim_destroy(s);
}

/* The K8 L2's replacement (pairs): an L2 of one set of 4 ways (pairs {0,1} and {2,3}) under a
 * one-line L1d, non-inclusive; the pairs in LRU order, a random way of the least recent pair,
 * from the set's xorshift32 seeded 0x9e3779b9, whose first low bits are 1, 0, 0. Reads
 * A B C D A E F B G (every read misses L1d, which holds one line):
 *   A B C D  fill the free ways 0..3 in order              pairs [1 0]
 *   A        L2 hit (way 0)                                 pairs [0 1]
 *   E        miss: least recent pair 1, bit 1: way 3, evicts D   [1 0]
 *   F        miss: least recent pair 0, bit 0: way 0, evicts A   [0 1]
 *   B        L2 hit (way 1)                                 pairs [0 1]
 *   G        miss: least recent pair 1, bit 0: way 2, evicts C   [1 0]
 * L2: hits 2, misses 7, fills 7; it ends holding F B G E. */
static void test_pairs_one_set(void **state)
{
    struct sb_cachesim_config cfg = {2, {level(LINE, 1, SB_REPL_LRU, 0),
                                         level(4 * LINE, 4, SB_REPL_PAIRS,
                                               SB_INCL_NON_INCLUSIVE)}, 0, false, SB_WA_NT_STORES};
    struct sb_cachesim *s = make(&cfg);
    struct sb_cachesim_counts n;

    (void)state;
    rd(s, A), rd(s, B), rd(s, C), rd(s, D), rd(s, A), rd(s, E);
    assert_false(in(s, 1, D));
    assert_true(in(s, 1, A) && in(s, 1, B) && in(s, 1, C) && in(s, 1, E));
    rd(s, F);
    assert_false(in(s, 1, A));
    rd(s, B), rd(s, G);
    assert_false(in(s, 1, C));
    assert_true(in(s, 1, F) && in(s, 1, B) && in(s, 1, G) && in(s, 1, E));
    n = counts(s);
    assert_int_equal(n.level[1].hits, 2);
    assert_int_equal(n.level[1].misses, 7);
    assert_int_equal(n.level[1].fills, 7);
    sb_cachesim_destroy(s);
}

/* Two sets of 2 ways: even lines go to set 0, odd to set 1 (power-of-two sets: line & 1).
 * Reads A C E (set 0: E evicts A) and B (set 1, untouched by the others). */
static void test_sets_are_independent(void **state)
{
    struct sb_cachesim_config cfg = {1, {level(4 * LINE, 2, SB_REPL_LRU, 0)}, 0, false,
        SB_WA_NT_STORES};
    struct sb_cachesim *s = make(&cfg);

    (void)state;
    rd(s, B), rd(s, A), rd(s, C), rd(s, E);
    assert_false(in(s, 0, A));
    assert_true(in(s, 0, B) && in(s, 0, C) && in(s, 0, E));
    assert_int_equal(counts(s).level[0].misses, 4);
    sb_cachesim_destroy(s);
}

/* Write-back, write-allocate. One set of 2 ways:
 *   write A  miss: A is read (RFO, 64 bytes) and dirtied      [A*]
 *   read B   miss                                             [B A*]
 *   read C   miss, evicts A dirty: written back (64 bytes)    [C B]
 *   read D   miss, evicts B clean: nothing written            [D C]
 * 4 misses, 4 lines read, 1 write-back, 64 bytes written. An access spanning two lines counts
 * both; reset keeps the contents: C and D then hit. */
static void test_write_back_write_allocate(void **state)
{
    struct sb_cachesim_config cfg = {1, {level(2 * LINE, 2, SB_REPL_LRU, 0)}, 0, false,
        SB_WA_NT_STORES};
    struct sb_cachesim *s = make(&cfg);
    struct sb_cachesim_counts n;
    bool dirty = false;

    (void)state;
    wr(s, A);
    assert_true(sb_cachesim_holds(s, 0, AT(A), &dirty) && dirty);
    rd(s, B), rd(s, C), rd(s, D);
    n = counts(s);
    assert_int_equal(n.level[0].misses, 4);
    assert_int_equal(n.level[0].writebacks, 1);
    assert_int_equal(n.mem_read_bytes, 4 * LINE);
    assert_int_equal(n.mem_write_bytes, LINE);

    sb_cachesim_reset_counts(s);
    sb_cachesim_access(s, AT(C) + 60, 8, false); /* bytes 188..195: lines C and D */
    n = counts(s);
    assert_int_equal(n.level[0].hits, 2);
    assert_int_equal(n.level[0].misses, 0);
    assert_int_equal(n.line_accesses, 2);
    assert_int_equal(n.mem_read_bytes, 0);
    sb_cachesim_destroy(s);
}

/* Non-inclusive L2: filled with L1d on a miss, evicts without touching L1d. L1d and L2 both
 * one set of 2 ways, LRU.
 *   read A, B  both miss in both levels                L1 [B A]    L2 [B A]
 *   read A     L1 hit; L2 does not see it              L1 [A B]    L2 [B A]
 *   read C     misses both; L2 evicts A (its LRU) while L1d keeps A; L1 evicts B (clean:
 *              dropped)                                L1 [C A]    L2 [C B]
 *   write A    L1 hit, A dirty                         L1 [A* C]   L2 [C B]
 *   read D     misses both; L2 evicts B; L1 evicts C   L1 [D A*]   L2 [D C]
 *   read E     misses both; L2 evicts C; L1 evicts A dirty: written back into L2, which no
 *              longer holds it: allocated there dirty, evicting D (clean)
 *                                                      L1 [E D]    L2 [A* E]
 * L1: hits 2, misses 5, write-backs 1. L2: hits 0, misses 5, fills 6 (A B C D E and A's
 * write-back), write-backs 0; 5 lines read from memory, nothing written. */
static void test_non_inclusive(void **state)
{
    struct sb_cachesim_config cfg = {2, {level(2 * LINE, 2, SB_REPL_LRU, 0),
                                         level(2 * LINE, 2, SB_REPL_LRU, SB_INCL_NON_INCLUSIVE)},
                                     0, false, SB_WA_NT_STORES};
    struct sb_cachesim *s = make(&cfg);
    struct sb_cachesim_counts n;
    bool dirty = false;

    (void)state;
    rd(s, A), rd(s, B), rd(s, A), rd(s, C);
    assert_true(in(s, 0, A));
    assert_false(in(s, 1, A));
    assert_true(in(s, 1, B) && in(s, 1, C));
    wr(s, A), rd(s, D), rd(s, E);
    assert_true(sb_cachesim_holds(s, 1, AT(A), &dirty) && dirty);
    assert_true(in(s, 1, E));
    assert_false(in(s, 1, D) || in(s, 1, C));
    assert_true(in(s, 0, D) && in(s, 0, E));
    n = counts(s);
    assert_int_equal(n.level[0].hits, 2);
    assert_int_equal(n.level[0].misses, 5);
    assert_int_equal(n.level[0].writebacks, 1);
    assert_int_equal(n.level[1].hits, 0);
    assert_int_equal(n.level[1].misses, 5);
    assert_int_equal(n.level[1].fills, 6);
    assert_int_equal(n.level[1].writebacks, 0);
    assert_int_equal(n.mem_read_bytes, 5 * LINE);
    assert_int_equal(n.mem_write_bytes, 0);
    sb_cachesim_destroy(s);
}

/* Inclusive L2 (one set of 3 ways) under L1d (one set of 2 ways): an L2 eviction
 * back-invalidates L1d, and a dirty L1d copy leaves with it.
 *   write A  L1 [A*]          L2 [A]
 *   read B   L1 [B A*]        L2 [B A]
 *   read A   L1 hit [A* B]    L2 unchanged [B A]
 *   read C   L2 fills C       L2 [C B A]; L1 evicts B (clean; L2 has it): L1 [C A*]
 *   read D   L2 evicts A (LRU): back-invalidates L1d's dirty A: L2 writes A back (64 bytes);
 *            L2 [D C B]; L1d puts D in the freed way, evicting nothing: L1 [D C]
 * L1: misses 4, hits 1, invalidations 1, write-backs 0. L2: misses 4, fills 4, write-backs 1. */
static void test_inclusive_back_invalidation(void **state)
{
    struct sb_cachesim_config cfg = {2, {level(2 * LINE, 2, SB_REPL_LRU, 0),
                                         level(3 * LINE, 3, SB_REPL_LRU, SB_INCL_INCLUSIVE)},
                                     0, false, SB_WA_NT_STORES};
    struct sb_cachesim *s = make(&cfg);
    struct sb_cachesim_counts n;

    (void)state;
    wr(s, A), rd(s, B), rd(s, A), rd(s, C);
    assert_true(in(s, 0, A) && in(s, 0, C));
    rd(s, D);
    assert_false(in(s, 0, A));
    assert_false(in(s, 1, A));
    assert_true(in(s, 0, C) && in(s, 0, D));
    n = counts(s);
    assert_int_equal(n.level[0].misses, 4);
    assert_int_equal(n.level[0].hits, 1);
    assert_int_equal(n.level[0].invalidations, 1);
    assert_int_equal(n.level[0].writebacks, 0);
    assert_int_equal(n.level[1].misses, 4);
    assert_int_equal(n.level[1].fills, 4);
    assert_int_equal(n.level[1].writebacks, 1);
    assert_int_equal(n.mem_read_bytes, 4 * LINE);
    assert_int_equal(n.mem_write_bytes, LINE);
    sb_cachesim_destroy(s);
}

/* Exclusive L2 (K8's victim cache), L1d and L2 each one set of 2 ways, LRU.
 *   read A, B  miss both; L2 is not filled from memory   L1 [B A]    L2 []
 *   read C     miss both; L1 evicts A into L2            L1 [C B]    L2 [A]
 *   read A     L1 miss, L2 hit: A moves up (out of L2); L1 evicts B into L2
 *                                                        L1 [A C]    L2 [B]
 *   write D    miss both, read from memory; L1 evicts C into L2     L1 [D* A]   L2 [C B]
 *   read E     L1 evicts A into L2, which evicts B (clean: dropped) L1 [E D*]   L2 [A C]
 *   read F     L1 evicts D dirty into L2 (an L1 write-back, no memory write); L2 evicts C
 *                                                        L1 [F E]    L2 [D* A]
 *   read D     L2 hit: D moves up dirty; L1 evicts E into L2's freed way
 *                                                        L1 [D* F]   L2 [E A]
 *   read G     L1 evicts F into L2, which evicts A       L1 [G D*]   L2 [F E]
 *   read H     L1 evicts D dirty into L2, which evicts E L1 [H G]    L2 [D* F]
 *   read I     L1 evicts G; L2 evicts F                  L1 [I H]    L2 [G D*]
 *   read J     L1 evicts H; L2 evicts D dirty: written to memory
 *                                                        L1 [J I]    L2 [H G]
 * Memory reads: A B C D E F G H I J = 10 lines (A's and D's second uses came from L2).
 * L1: misses 12, write-backs 2 (D twice). L2: hits 2, misses 10, fills 10 (one per L1d eviction:
 * A B C A D E F G D H), write-backs 1, 64 bytes written. */
static void test_exclusive_victim_cache(void **state)
{
    struct sb_cachesim_config cfg = {2, {level(2 * LINE, 2, SB_REPL_LRU, 0),
                                         level(2 * LINE, 2, SB_REPL_LRU, SB_INCL_EXCLUSIVE)},
                                     0, false, SB_WA_NT_STORES};
    struct sb_cachesim *s = make(&cfg);
    struct sb_cachesim_counts n;
    bool dirty = false;

    (void)state;
    rd(s, A), rd(s, B);
    assert_false(in(s, 1, A) || in(s, 1, B));
    assert_int_equal(counts(s).level[1].fills, 0);
    rd(s, C);
    assert_true(in(s, 1, A));
    rd(s, A);
    assert_true(in(s, 0, A));
    assert_false(in(s, 1, A));
    assert_true(in(s, 1, B));
    wr(s, D), rd(s, E), rd(s, F);
    assert_true(sb_cachesim_holds(s, 1, AT(D), &dirty) && dirty);
    assert_false(in(s, 0, D));
    rd(s, D);
    assert_true(sb_cachesim_holds(s, 0, AT(D), &dirty) && dirty);
    assert_false(in(s, 1, D));
    assert_true(in(s, 1, E) && in(s, 1, A));
    assert_int_equal(counts(s).mem_write_bytes, 0);
    rd(s, G), rd(s, H), rd(s, I), rd(s, J);
    assert_true(in(s, 1, H) && in(s, 1, G));
    n = counts(s);
    assert_int_equal(n.level[0].misses, 12);
    assert_int_equal(n.level[0].hits, 0);
    assert_int_equal(n.level[0].writebacks, 2);
    assert_int_equal(n.level[1].hits, 2);
    assert_int_equal(n.level[1].misses, 10);
    assert_int_equal(n.level[1].fills, 10);
    assert_int_equal(n.level[1].writebacks, 1);
    assert_int_equal(n.mem_read_bytes, 10 * LINE);
    assert_int_equal(n.mem_write_bytes, LINE);
    sb_cachesim_destroy(s);
}

static void nta(struct sb_cachesim *s, int l) { sb_cachesim_prefetch_nta(s, AT(l)); }

/* prefetchnta over K8's exclusive L2 (AMD 25112 rev 3.06 section 5.6), L1d and L2 each one set
 * of 2 ways, LRU.
 *   nta A     L1, L2 miss; memory: A into L1d only, marked      L1 [A']     L2 []
 *   nta A     in L1d: nothing (no count, no recency)
 *   read B    miss both                                          L1 [B A']   L2 []
 *   read A    L1 hit (the mark stays)                            L1 [A' B]   L2 []
 *   read C    L1 evicts B (unmarked) into L2                     L1 [C A']   L2 [B]
 *   read D    L1 evicts A' clean: dropped, not into L2           L1 [D C]    L2 [B]
 *   nta B     L2 hit: as a load's, B moves up unmarked; L1 evicts C into L2
 *                                                                L1 [B D]    L2 [C]
 *   nta E     memory; L1 evicts D into L2                        L1 [E' B]   L2 [D C]
 *   write E   L1 hit: E' dirty (marked)                          L1 [E'* B]
 *   read F    L1 evicts B into L2 (evicts C)                     L1 [F E'*]  L2 [B D]
 *   read G    L1 evicts E'* dirty: a write-back into L2 as any   L1 [G F]    L2 [E* B]
 * Memory reads A B C D E F G = 7 lines. L1d (prefetches count neither): misses 5 (reads B C D
 * F G), hits 2 (read A, write E), write-backs 1 (E), line accesses 7. L2: misses 7 (reads B C
 * D F G, nta A, nta E), hits 1 (nta B), fills 5 (L1d's evictions B, C, D, B, E; not A'),
 * write-backs 0 (the dirty E is still there), nothing written to memory.
 * nta_prefetches 2 (A, E: from memory). */
static void test_prefetch_nta_victim_l2(void **state)
{
    struct sb_cachesim_config cfg = {2, {level(2 * LINE, 2, SB_REPL_LRU, 0),
                                         level(2 * LINE, 2, SB_REPL_LRU, SB_INCL_EXCLUSIVE)},
                                     0, false, SB_WA_NT_STORES};
    struct sb_cachesim *s = make(&cfg);
    struct sb_cachesim_counts n;
    bool dirty = false;

    (void)state;
    nta(s, A);
    assert_true(in(s, 0, A));
    assert_false(in(s, 1, A));
    nta(s, A), rd(s, B), rd(s, A), rd(s, C);
    assert_true(in(s, 1, B));
    rd(s, D);
    assert_false(in(s, 0, A) || in(s, 1, A));
    nta(s, B);
    assert_true(in(s, 0, B) && in(s, 1, C));
    assert_false(in(s, 1, B));
    nta(s, E), wr(s, E), rd(s, F);
    assert_true(in(s, 1, B) && in(s, 1, D));
    rd(s, G);
    assert_true(sb_cachesim_holds(s, 1, AT(E), &dirty) && dirty);
    n = counts(s);
    assert_int_equal(n.level[0].misses, 5);
    assert_int_equal(n.level[0].hits, 2);
    assert_int_equal(n.level[0].writebacks, 1);
    assert_int_equal(n.level[1].misses, 7);
    assert_int_equal(n.level[1].hits, 1);
    assert_int_equal(n.level[1].fills, 5);
    assert_int_equal(n.level[1].writebacks, 0);
    assert_int_equal(n.nta_prefetches, 2);
    assert_int_equal(n.prefetches, 0);
    assert_int_equal(n.line_accesses, 7);
    assert_int_equal(n.mem_read_bytes, 7 * LINE);
    assert_int_equal(n.mem_write_bytes, 0);
    sb_cachesim_destroy(s);
}

/* prefetchnta over a non-inclusive L2 and over an inclusive one (each one set: L1d 2 ways, L2
 * 4 ways, LRU). Non-inclusive: nta A fills L1d only (a load would fill L2 too); read A hits
 * L1d; read B, read C evict A' clean (silently, as any clean line over a non-inclusive L2): A
 * is then nowhere, and read A misses both and reads memory again: 4 memory reads, L2 fills 3
 * (B, C, A: loads' fills), nta_prefetches 1. Inclusive: nta A fills L2 and L1d (L2 holds
 * what L1d holds); after reads B, C, read A misses L1d and hits L2: 3 memory reads. */
static void test_prefetch_nta_other_l2(void **state)
{
    struct sb_cachesim_config ni = {2, {level(2 * LINE, 2, SB_REPL_LRU, 0),
                                        level(4 * LINE, 4, SB_REPL_LRU, SB_INCL_NON_INCLUSIVE)},
                                    0, false, SB_WA_NT_STORES};
    struct sb_cachesim_config incl = {2, {level(2 * LINE, 2, SB_REPL_LRU, 0),
                                          level(4 * LINE, 4, SB_REPL_LRU, SB_INCL_INCLUSIVE)},
                                      0, false, SB_WA_NT_STORES};
    struct sb_cachesim *s = make(&ni);
    struct sb_cachesim_counts n;

    (void)state;
    nta(s, A);
    assert_true(in(s, 0, A));
    assert_false(in(s, 1, A));
    rd(s, A), rd(s, B), rd(s, C);
    assert_false(in(s, 0, A) || in(s, 1, A));
    rd(s, A);
    n = counts(s);
    assert_int_equal(n.level[0].hits, 1);
    assert_int_equal(n.level[0].misses, 3);
    assert_int_equal(n.level[1].misses, 4);
    assert_int_equal(n.level[1].fills, 3);
    assert_int_equal(n.nta_prefetches, 1);
    assert_int_equal(n.mem_read_bytes, 4 * LINE);
    sb_cachesim_destroy(s);

    s = make(&incl);
    nta(s, A);
    assert_true(in(s, 0, A) && in(s, 1, A));
    rd(s, A), rd(s, B), rd(s, C), rd(s, A);
    n = counts(s);
    assert_int_equal(n.level[1].hits, 1);
    assert_int_equal(n.level[1].misses, 3);
    assert_int_equal(n.mem_read_bytes, 3 * LINE);
    sb_cachesim_destroy(s);
}

/* Three levels, Zen-like: L2 inclusive of L1d, L3 an exclusive victim cache of L2.
 * L1d one set of 2 ways, L2 one set of 4 ways, L3 one set of 2 ways.
 *   read A B C D  miss everywhere; L2 [D C B A]; L1 [D C] (A, B evicted clean: L2 has them)
 *   read E        L2 evicts A (not in L1d) into L3; L1 evicts C       L2 [E D C B] L3 [A]
 *   read A        L1, L2 miss; L3 hit: A moves up; L2 evicts B into L3; L1 evicts D
 *                 L1 [A E]  L2 [A E D C]  L3 [B]
 * Memory reads 5 lines; L3 hits 1, misses 5, fills 2 (A, B). */
static void test_three_levels_victim_l3(void **state)
{
    struct sb_cachesim_config cfg = {3, {level(2 * LINE, 2, SB_REPL_LRU, 0),
                                         level(4 * LINE, 4, SB_REPL_LRU, SB_INCL_INCLUSIVE),
                                         level(2 * LINE, 2, SB_REPL_LRU, SB_INCL_EXCLUSIVE)},
                                     0, false, SB_WA_NT_STORES};
    struct sb_cachesim *s = make(&cfg);
    struct sb_cachesim_counts n;

    (void)state;
    rd(s, A), rd(s, B), rd(s, C), rd(s, D), rd(s, E);
    assert_true(in(s, 2, A));
    assert_false(in(s, 1, A));
    rd(s, A);
    assert_true(in(s, 0, A) && in(s, 0, E));
    assert_true(in(s, 1, A) && in(s, 1, E) && in(s, 1, D) && in(s, 1, C));
    assert_true(in(s, 2, B));
    assert_false(in(s, 2, A));
    n = counts(s);
    assert_int_equal(n.level[2].hits, 1);
    assert_int_equal(n.level[2].misses, 5);
    assert_int_equal(n.level[2].fills, 2);
    assert_int_equal(n.level[1].misses, 6);
    assert_int_equal(n.mem_read_bytes, 5 * LINE);
    assert_int_equal(n.mem_write_bytes, 0);
    sb_cachesim_destroy(s);
}

/* Write-combining buffers (2 of them) in front of a one-level cache of one set of 2 ways.
 *   stream A (64 bytes)       a whole line: written at once, no read: 64 written, 0 read
 *   write B, stream B         B is read (RFO) and dirtied by the ordinary store; the streaming
 *                             store's flush takes B out of the cache, writing the dirty copy
 *                             back first (64), then the line (64)
 *   stream C 16 bytes, D 32   two partial buffers
 *   stream E 8 bytes          no buffer free: the oldest (C) is flushed: a 16-byte write
 *   fence                     D (32 bytes) and E (8 bytes) flushed
 *   stream F 0..31, F 32..63  the second fills the line: a whole-line write
 *   stream G+48, 32 bytes     spans G (16 bytes) and H (16 bytes); fence: two partial writes
 * Written: 64 + 128 + 16 + 40 + 64 + 32 = 344 bytes; read 64 (B's RFO). */
static void test_write_combining(void **state)
{
    struct sb_cachesim_config cfg = {1, {level(2 * LINE, 2, SB_REPL_LRU, 0)}, 2, false,
        SB_WA_NT_STORES};
    struct sb_cachesim *s = make(&cfg);
    struct sb_cachesim_counts n;

    (void)state;
    sb_cachesim_stream_store(s, AT(A), LINE);
    n = counts(s);
    assert_int_equal(n.wc_full_lines, 1);
    assert_int_equal(n.mem_write_bytes, LINE);
    assert_int_equal(n.mem_read_bytes, 0);
    assert_int_equal(n.level[0].fills, 0);

    wr(s, B);
    sb_cachesim_stream_store(s, AT(B), LINE);
    assert_false(in(s, 0, B));
    n = counts(s);
    assert_int_equal(n.level[0].writebacks, 1);
    assert_int_equal(n.level[0].invalidations, 1);
    assert_int_equal(n.wc_full_lines, 2);
    assert_int_equal(n.mem_write_bytes, 3 * LINE);
    assert_int_equal(n.mem_read_bytes, LINE);

    sb_cachesim_stream_store(s, AT(C), 16);
    sb_cachesim_stream_store(s, AT(D), 32);
    assert_int_equal(counts(s).wc_partial_flushes, 0);
    sb_cachesim_stream_store(s, AT(E), 8);
    n = counts(s);
    assert_int_equal(n.wc_partial_flushes, 1);
    assert_int_equal(n.wc_partial_bytes, 16);
    sb_cachesim_fence(s);
    n = counts(s);
    assert_int_equal(n.wc_partial_flushes, 3);
    assert_int_equal(n.wc_partial_bytes, 56);
    sb_cachesim_fence(s); /* nothing left: no change */
    assert_int_equal(counts(s).wc_partial_flushes, 3);

    sb_cachesim_stream_store(s, AT(F), 32);
    sb_cachesim_stream_store(s, AT(F) + 32, 32);
    assert_int_equal(counts(s).wc_full_lines, 3);
    sb_cachesim_stream_store(s, AT(G) + 48, 32);
    sb_cachesim_fence(s);
    n = counts(s);
    assert_int_equal(n.wc_partial_flushes, 5);
    assert_int_equal(n.wc_partial_bytes, 88);
    assert_int_equal(n.mem_write_bytes, 344);
    assert_int_equal(n.mem_read_bytes, LINE);
    assert_int_equal(n.level[0].fills, 1);
    sb_cachesim_destroy(s);
}

/* The tagged next-line prefetcher, L1d of 8 sets of 2 ways over memory. Reading lines 0..3:
 * off: 4 misses, 4 lines read. On: line 0 misses and prefetches 1; each first hit on a
 * prefetched line prefetches the next: 1 miss, 3 hits, 4 prefetches (1..4), 5 lines read. The
 * prefetcher does not cross a 4KB page: a miss on line 63 (the page's last) prefetches nothing. */
static void test_prefetcher(void **state)
{
    struct sb_cachesim_config off = {1, {level(16 * LINE, 2, SB_REPL_LRU, 0)}, 0, false,
        SB_WA_NT_STORES};
    struct sb_cachesim_config on = {1, {level(16 * LINE, 2, SB_REPL_LRU, 0)}, 0, true,
        SB_WA_NT_STORES};
    struct sb_cachesim *s = make(&off);
    struct sb_cachesim_counts n;

    (void)state;
    sb_cachesim_access(s, 0, 4 * LINE, false);
    n = counts(s);
    assert_int_equal(n.level[0].misses, 4);
    assert_int_equal(n.prefetches, 0);
    assert_int_equal(n.mem_read_bytes, 4 * LINE);
    sb_cachesim_destroy(s);

    s = make(&on);
    sb_cachesim_access(s, 0, 4 * LINE, false);
    n = counts(s);
    assert_int_equal(n.level[0].misses, 1);
    assert_int_equal(n.level[0].hits, 3);
    assert_int_equal(n.prefetches, 4);
    assert_int_equal(n.level[0].fills, 5);
    assert_int_equal(n.mem_read_bytes, 5 * LINE);
    assert_true(in(s, 0, 4));
    sb_cachesim_reset_counts(s);
    rd(s, 63);
    n = counts(s);
    assert_int_equal(n.level[0].misses, 1);
    assert_int_equal(n.prefetches, 0);
    assert_false(in(s, 0, 64));
    sb_cachesim_destroy(s);
}

/* Write-allocate and its evasion, two levels (L1d one set of 2 ways, L2 one set of 8, LRU,
 * non-inclusive), under each rule. The trace: a copy of 2 lines from A-B to E-F (whole-line
 * loads, then whole-line stores), a partial store to C, a whole-line store to A, then one to G.
 *   copy: A load miss (read)       L1d [A]    L2 [A]
 *         E store miss, whole      L1d [E A]  L2 [E A]
 *         B load miss (read)       L1d [B E]  L2 [B E A]       (A evicted clean: silent)
 *         F store miss, whole      L1d [F B]  L2 [F B E A]     (E written back into L2)
 *   C 8-byte store: miss, never whole: read under every rule
 *                                  L1d [C F]  L2 [C F B E A]
 *   A whole-line store: L1d misses, L2 hits: no memory at all
 *                                  L1d [A C]  L2 [A C F B E]   (F written back into L2)
 *   G whole-line store: misses both, whole
 *                                  L1d [G A]
 * nt_stores and full_line_loaded (the cache model reads; the time model may evade): 3 whole-line
 * stores read their lines (E, F, G): mem reads A B E F C G = 6 lines, full_line_rfos 3.
 * full_line: E, F and G read nothing: mem reads A B C = 3 lines, rfos_evaded 3. Either way the
 * stored lines end dirty in the caches, and the same lines are where they are. */
static void test_write_allocate_rules(void **state)
{
    static const enum sb_write_allocate rules[] = {SB_WA_NT_STORES, SB_WA_FULL_LINE_LOADED,
                                                   SB_WA_FULL_LINE};

    (void)state;
    for (int r = 0; r < 3; r++) {
        struct sb_cachesim_config cfg = {2, {level(2 * LINE, 2, SB_REPL_LRU, 0),
                                             level(8 * LINE, 8, SB_REPL_LRU, 0)}, 0, false,
                                         rules[r]};
        struct sb_cachesim *s = make(&cfg);
        struct sb_cachesim_counts n;
        bool dirty = false, evade = rules[r] == SB_WA_FULL_LINE;

        sb_cachesim_copy(s, AT(A), AT(E), 2 * LINE, false);
        wr(s, C);
        sb_cachesim_access(s, AT(A), LINE, true);
        sb_cachesim_access(s, AT(G), LINE, true);
        n = counts(s);
        assert_int_equal(n.mem_read_bytes, (evade ? 3 : 6) * LINE);
        assert_int_equal(n.full_line_rfos, evade ? 0 : 3);
        assert_int_equal(n.rfos_evaded, evade ? 3 : 0);
        assert_int_equal(n.level[1].hits, 1); /* A's store */
        assert_true(sb_cachesim_holds(s, 0, AT(G), &dirty) && dirty);
        assert_true(sb_cachesim_holds(s, 0, AT(A), &dirty) && dirty);
        /* a store of a line and a half: the first line whole, the second not */
        sb_cachesim_reset_counts(s);
        sb_cachesim_access(s, AT(H), LINE + LINE / 2, true);
        n = counts(s);
        assert_int_equal(n.mem_read_bytes, (evade ? 1 : 2) * LINE);
        assert_int_equal(n.full_line_rfos + n.rfos_evaded, 1);
        sb_cachesim_destroy(s);
    }
}

static void expect_problem(struct sb_cachesim_config cfg, int want_level, const char *want_key,
                           const char *want_text)
{
    struct sb_cachesim_problem p;
    struct sb_cachesim *sim = NULL;
    struct sb_error err = {0};

    assert_int_equal(sb_cachesim_config_check(&cfg, &p), SB_ERR_INPUT);
    assert_int_equal(p.level, want_level);
    assert_string_equal(p.key, want_key);
    if (!strstr(p.what, want_text))
        fail_msg("problem \"%s\" lacks \"%s\"", p.what, want_text);
    assert_int_equal(sb_cachesim_create(&cfg, &sim, &err), SB_ERR_INPUT);
    assert_null(sim);
    assert_non_null(strstr(err.msg, want_key));
}

static void test_config_checks(void **state)
{
    struct sb_cachesim_config good = {2, {level(32 << 10, 8, SB_REPL_LRU, 0),
                                          level(1 << 20, 16, SB_REPL_PLRU, SB_INCL_INCLUSIVE)},
                                      4, false, SB_WA_NT_STORES};
    struct sb_cachesim_config c;
    struct sb_cachesim_problem p;

    (void)state;
    assert_int_equal(sb_cachesim_config_check(&good, &p), SB_OK);
    c = good, c.level[1].size = 96 << 10; /* 96 sets */
    expect_problem(c, 1, "size", "96 sets of 16 ways x 64B lines, not a power of two");
    c = good, c.level[0].size = 256; /* fewer bytes than one set */
    expect_problem(c, 0, "size", "0 sets");
    c = good, c.level[0].size = (32 << 10) + 64;
    expect_problem(c, 0, "size", "not a whole number of sets");
    c = good, c.level[0].associativity = 0;
    expect_problem(c, 0, "associativity", "0 ways");
    c = good, c.level[0].line_size = 48;
    expect_problem(c, 0, "line_size", "48 is not a power of two");
    c = good, c.level[1].line_size = 128;
    expect_problem(c, 1, "line_size", "differs from L1d's 64");
    c = good, c.level[1].associativity = 12, c.level[1].size = 768 << 10;
    expect_problem(c, 1, "replacement", "power-of-two associativity, not 12 ways");
    c = good, c.level[1].size = 32 << 10, c.level[1].associativity = 8;
    expect_problem(c, 1, "size", "an inclusive L2 of 32KB must be larger than the L1d of 32KB");
    c = good, c.level[1].inclusion = SB_INCL_EXCLUSIVE, c.level[1].size = 32 << 10,
    c.level[1].associativity = 8;
    assert_int_equal(sb_cachesim_config_check(&c, &p), SB_OK); /* a victim cache may be small */
    c = good, c.wc_buffers = 0;
    expect_problem(c, -1, "wc_buffers", "0 write-combining buffers");
    c = good, c.level[1].replacement = (enum sb_replacement)7;
    expect_problem(c, 1, "replacement", "unknown");
    c = good, c.level[1].inclusion = (enum sb_inclusion)7;
    expect_problem(c, 1, "inclusion", "unknown");
    c = good, c.level[1].replacement = SB_REPL_LRU, c.level[1].associativity = 32,
    c.level[1].size = 2 << 20;
    expect_problem(c, 1, "replacement", "lru keeps at most 16 ways in order, not 32");
    c = good, c.level[1].replacement = SB_REPL_PAIRS;
    assert_int_equal(sb_cachesim_config_check(&c, &p), SB_OK);
    c = good, c.level[0].replacement = SB_REPL_PAIRS;
    expect_problem(c, 0, "replacement", "pairs (the K8 L2's) is for L2 and L3");
    c = good, c.level[1].replacement = SB_REPL_PAIRS, c.level[1].associativity = 32,
    c.level[1].size = 2 << 20;
    expect_problem(c, 1, "replacement", "up to 16, not L2 of 32 ways");
}

/* The state of a set is one word of replacement state, one hint byte per way rounded up to 16
 * (two words), and one 8-byte tag per way; plus the fixed struct (WC buffers, PLRU masks).
 * L1d 32KB 8-way: 64 sets of 1 + 2 + 8 words = 5632 bytes (11 per line); L2 1MB 16-way:
 * 1024 sets of 1 + 2 + 16 words = 155648 bytes (9.5 per line). What the plan counts before
 * building it is the same. */
static void test_state_bytes(void **state)
{
    struct sb_cachesim_config cfg = {2, {level(32 << 10, 8, SB_REPL_LRU, 0),
                                         level(1 << 20, 16, SB_REPL_PLRU, SB_INCL_INCLUSIVE)},
                                     4, false, SB_WA_NT_STORES};
    struct sb_cachesim *s = make(&cfg);
    size_t fixed;

    (void)state;
    assert_int_equal(sb_cachesim_lines(s), 512 + 16384);
    fixed = sb_cachesim_state_bytes(s) - 5632 - 155648;
    assert_true(fixed < 8192);
    assert_int_equal(sb_cachesim_state_bytes(s), sb_cachesim_config_state_bytes(&cfg));
    sb_cachesim_destroy(s);
}

/* The machine code a model runs: a new one runs the AVX2+BMI2 code exactly where it may
 * (use_code accepts it), the baseline code is always there, and nothing else is. */
static void test_code_choice(void **state)
{
    struct sb_cachesim_config cfg = {1, {level(4 * LINE, 4, SB_REPL_LRU, 0)}, 4, false,
        SB_WA_NT_STORES};
    struct sb_cachesim *s = make(&cfg);
    const enum sb_cachesim_code chosen = sb_cachesim_code_of(s);

    (void)state;
    assert_int_equal(chosen, sb_cachesim_use_code(s, SB_CACHESIM_CODE_AVX2_BMI2)
                                 ? SB_CACHESIM_CODE_AVX2_BMI2
                                 : SB_CACHESIM_CODE_BASELINE);
    assert_true(sb_cachesim_use_code(s, SB_CACHESIM_CODE_BASELINE));
    assert_int_equal(sb_cachesim_code_of(s), SB_CACHESIM_CODE_BASELINE);
    assert_false(sb_cachesim_use_code(s, SB_CACHESIM_NCODES));
    assert_int_equal(sb_cachesim_code_of(s), SB_CACHESIM_CODE_BASELINE);
    assert_string_equal(sb_cachesim_code_names[SB_CACHESIM_CODE_AVX2_BMI2], "avx2+bmi2");
    sb_cachesim_destroy(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lru_one_set),
        cmocka_unit_test(test_plru_one_set),
        cmocka_unit_test(test_pairs_one_set),
        cmocka_unit_test(test_sets_are_independent),
        cmocka_unit_test(test_write_back_write_allocate),
        cmocka_unit_test(test_non_inclusive),
        cmocka_unit_test(test_inclusive_back_invalidation),
        cmocka_unit_test(test_exclusive_victim_cache),
        cmocka_unit_test(test_prefetch_nta_victim_l2),
        cmocka_unit_test(test_prefetch_nta_other_l2),
        cmocka_unit_test(test_three_levels_victim_l3),
        cmocka_unit_test(test_write_combining),
        cmocka_unit_test(test_write_allocate_rules),
        cmocka_unit_test(test_prefetcher),
        cmocka_unit_test(test_config_checks),
        cmocka_unit_test(test_state_bytes),
        cmocka_unit_test(test_code_choice),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
