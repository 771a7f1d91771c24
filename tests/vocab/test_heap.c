/* SPDX-License-Identifier: BSD-3-Clause */
#include "config.h"
/* test_heap.c: unit tests for lib/vocab/heap.h, the PostgreSQL-layout heap pages. Checks the layout
 * arithmetic (tuple length, MAXALIGNed stride, rows per page) against figures worked out by hand
 * and its refusals; that sb_heap_fill_page writes the header, line pointers and tuples where
 * PostgreSQL would, deterministically per block, with the commit hint bits set or not; that the
 * `count` pass reads without writing on a table built with its hint bits and sets the missing
 * ones otherwise, and the `vacuum` pass sets hint bits, prunes dead tuples and is idempotent;
 * the three page states (generated, hinted, vacuumed: count(s) = max(s, 1), vacuum(s) = 2, byte
 * for byte); and that the page checksum notices any single flipped byte for every supported page
 * size. */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "vocab/heap.h"

#define PAGE 8192u

/* --- layout -------------------------------------------------------------------------------- */

static void test_layout_default(void **state)
{
    struct sb_heap_layout l;
    (void)state;

    /* tuple_len = MAXALIGN(23) + 100 = 24 + 100 = 124; stride = MAXALIGN(124) = 128;
     * rows = (8192 - 24) / (128 + 4) = 8168 / 132 = 61 (61*132 = 8052, 62*132 = 8184 > 8168) */
    assert_true(sb_heap_layout_init(&l, 8192, 100, 10));
    assert_int_equal(l.page_size, 8192);
    assert_int_equal(l.row_width, 100);
    assert_int_equal(l.tuple_len, 124);
    assert_int_equal(l.tuple_stride, 128);
    assert_int_equal(l.rows_per_page, 61);
    assert_int_equal(l.dead_pct, 10);
    assert_int_equal(SB_PAGE_HEADER_SIZE, 24);
    assert_int_equal(SB_LINE_POINTER_SIZE, 4);
}

static void test_layout_other_widths(void **state)
{
    struct sb_heap_layout l;
    (void)state;

    /* width 0: tuple 24, stride 24, rows 8168 / 28 = 291 (291*28 = 8148, 292*28 = 8176) */
    assert_true(sb_heap_layout_init(&l, 8192, 0, 0));
    assert_int_equal(l.tuple_len, 24);
    assert_int_equal(l.tuple_stride, 24);
    assert_int_equal(l.rows_per_page, 291);

    /* width 1: tuple 25, stride 32, rows 8168 / 36 = 226 (226*36 = 8136, 227*36 = 8172) */
    assert_true(sb_heap_layout_init(&l, 8192, 1, 0));
    assert_int_equal(l.tuple_len, 25);
    assert_int_equal(l.tuple_stride, 32);
    assert_int_equal(l.rows_per_page, 226);

    /* page 1024, width 100: rows (1024 - 24) / 132 = 1000 / 132 = 7 (7*132 = 924) */
    assert_true(sb_heap_layout_init(&l, 1024, 100, 0));
    assert_int_equal(l.rows_per_page, 7);

    /* page 32768, width 200: tuple 224, stride 224, rows 32744 / 228 = 143 (143*228 = 32604,
     * 144*228 = 32832) */
    assert_true(sb_heap_layout_init(&l, 32768, 200, 0));
    assert_int_equal(l.tuple_len, 224);
    assert_int_equal(l.tuple_stride, 224);
    assert_int_equal(l.rows_per_page, 143);

    /* The widest row on an 8KB page: width 8136 gives tuple 8160, stride 8160, and
     * 8160 + 4 = 8164 <= 8168: one row. */
    assert_true(sb_heap_layout_init(&l, 8192, 8136, 0));
    assert_int_equal(l.tuple_stride, 8160);
    assert_int_equal(l.rows_per_page, 1);
}

static void test_layout_refusals(void **state)
{
    struct sb_heap_layout l;
    (void)state;

    /* width 8137: tuple 8161, stride 8168, 8168 + 4 = 8172 > 8168: no row fits */
    assert_false(sb_heap_layout_init(&l, 8192, 8137, 0));
    assert_false(sb_heap_layout_init(&l, 8192, 9000, 0));
    assert_false(sb_heap_layout_init(&l, 8192, 100, 101));
    assert_true(sb_heap_layout_init(&l, 8192, 100, 100));
    assert_false(sb_heap_layout_init(&l, 24, 0, 0));     /* no room past the header */
    assert_false(sb_heap_layout_init(&l, 65536, 100, 0)); /* lp_off has 15 bits */
}

/* --- fill ---------------------------------------------------------------------------------- */

static uint32_t live_by_xmax(const uint8_t *page)
{
    uint32_t n = sb_page_nitems(page), live = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t off, flags, len;
        sb_page_item(page, i, &off, &flags, &len);
        live += sb_tuple_xmax(page, off) == 0;
    }
    return live;
}

static void test_fill_page_layout(void **state)
{
    struct sb_heap_layout l;
    uint8_t *page = malloc(PAGE);
    uint32_t live;
    (void)state;

    assert_non_null(page);
    assert_true(sb_heap_layout_init(&l, PAGE, 100, 10));
    live = sb_heap_fill_page(&l, page, 7);
    /* pd_lower = 24 + 4 * 61 = 268; pd_upper = 8192 - 61 * 128 = 384 */
    assert_int_equal(sb_page_lower(page), 268);
    assert_int_equal(sb_page_upper(page), 384);
    assert_int_equal(sb_page_flags(page), 0);
    assert_int_equal(sb_page_nitems(page), 61);
    for (uint32_t i = 0; i < 61; i++) {
        uint32_t off, flags, len, xmax;
        sb_page_item(page, i, &off, &flags, &len);
        assert_int_equal(flags, SB_LP_NORMAL);
        assert_int_equal(len, 124);
        assert_int_equal(off, PAGE - (i + 1) * 128); /* 8064, 7936, ... 384 */
        xmax = sb_tuple_xmax(page, off);
        assert_true(xmax == 0 || xmax == SB_XID_DELETE);
        /* hint_bits = set (the default): the bits a first visibility check stores */
        assert_int_equal(sb_tuple_infomask(page, off),
                         SB_HEAP_XMIN_COMMITTED |
                             (xmax ? SB_HEAP_XMAX_COMMITTED : SB_HEAP_XMAX_INVALID));
    }
    assert_int_equal(live, live_by_xmax(page));
    assert_true(live <= 61);
    /* hint_bits = unset: t_infomask 0, every other byte the same */
    l.hint_bits_set = false;
    {
        uint8_t *unset = malloc(PAGE);
        assert_non_null(unset);
        assert_int_equal(sb_heap_fill_page(&l, unset, 7), live);
        for (uint32_t i = 0; i < 61; i++) {
            uint32_t off, flags, len;
            sb_page_item(page, i, &off, &flags, &len);
            assert_int_equal(sb_tuple_infomask(unset, off), 0);
            memcpy(unset + off + SB_T_INFOMASK, page + off + SB_T_INFOMASK, 2);
        }
        assert_memory_equal(unset, page, PAGE);
        free(unset);
    }
    free(page);
}

static void test_fill_page_deterministic(void **state)
{
    struct sb_heap_layout l;
    uint8_t *a = malloc(PAGE), *b = malloc(PAGE);
    uint32_t la, lb;
    (void)state;

    assert_non_null(a);
    assert_non_null(b);
    assert_true(sb_heap_layout_init(&l, PAGE, 100, 10));
    memset(a, 0x11, PAGE);
    memset(b, 0x22, PAGE); /* old contents must not matter */
    la = sb_heap_fill_page(&l, a, 12345);
    lb = sb_heap_fill_page(&l, b, 12345);
    assert_int_equal(la, lb);
    assert_memory_equal(a, b, PAGE);
    assert_int_equal(sb_page_checksum(a, PAGE), sb_page_checksum(b, PAGE));

    sb_heap_fill_page(&l, b, 12346);
    assert_memory_not_equal(a, b, PAGE);
    assert_int_not_equal(sb_page_checksum(a, PAGE), sb_page_checksum(b, PAGE));
    free(a);
    free(b);
}

static void test_fill_dead_pct_extremes(void **state)
{
    struct sb_heap_layout l;
    uint8_t *page = malloc(PAGE);
    (void)state;

    assert_non_null(page);
    assert_true(sb_heap_layout_init(&l, PAGE, 100, 0));
    for (uint64_t block = 0; block < 8; block++) {
        assert_int_equal(sb_heap_fill_page(&l, page, block), 61);
        assert_int_equal(live_by_xmax(page), 61);
        assert_int_equal(sb_heap_count(page, PAGE, NULL), 61);
    }
    assert_true(sb_heap_layout_init(&l, PAGE, 100, 100));
    for (uint64_t block = 0; block < 8; block++) {
        assert_int_equal(sb_heap_fill_page(&l, page, block), 0);
        assert_int_equal(live_by_xmax(page), 0);
        assert_int_equal(sb_heap_count(page, PAGE, NULL), 0);
        assert_int_equal(sb_heap_vacuum(page, PAGE, NULL), 0);
    }
    free(page);
}

/* --- the passes ---------------------------------------------------------------------------- */

static void test_count_reads_only(void **state)
{
    struct sb_heap_layout l;
    uint8_t *page = malloc(PAGE), *copy = malloc(PAGE);
    (void)state;

    assert_non_null(page);
    assert_non_null(copy);
    assert_true(sb_heap_layout_init(&l, PAGE, 100, 10));
    for (uint64_t block = 0; block < 16; block++) {
        uint32_t live = sb_heap_fill_page(&l, page, block);
        uint32_t sum = sb_page_checksum(page, PAGE);
        memcpy(copy, page, PAGE);
        assert_int_equal(sb_heap_count(page, PAGE, NULL), live);
        assert_int_equal(sb_page_checksum(page, PAGE), sum);
        assert_memory_equal(page, copy, PAGE);
    }
    free(page);
    free(copy);
}

/* Finds a block of the 10%-dead table with at least one dead tuple (most have ~6). */
static uint64_t block_with_dead(const struct sb_heap_layout *l, uint8_t *page)
{
    for (uint64_t block = 0; block < 100; block++)
        if (sb_heap_fill_page(l, page, block) < l->rows_per_page)
            return block;
    fail_msg("no block with a dead tuple among the first 100");
    return 0;
}

static void test_vacuum(void **state)
{
    struct sb_heap_layout l;
    uint8_t *page = malloc(PAGE), *orig = malloc(PAGE), *once = malloc(PAGE);
    uint32_t live, sum_before, sum_after, pruned = 0;
    uint64_t block;
    (void)state;

    assert_non_null(page);
    assert_non_null(orig);
    assert_non_null(once);
    assert_true(sb_heap_layout_init(&l, PAGE, 100, 10));
    block = block_with_dead(&l, page);
    live = sb_heap_fill_page(&l, page, block);
    memcpy(orig, page, PAGE);
    sum_before = sb_page_checksum(page, PAGE);

    assert_int_equal(sb_heap_vacuum(page, PAGE, NULL), live);
    sum_after = sb_page_checksum(page, PAGE);
    assert_int_not_equal(sum_after, sum_before);
    assert_true(sb_page_flags(page) & SB_PD_HAS_FREE_LINES);
    assert_int_equal(sb_page_nitems(page), 61); /* pd_lower is not moved */
    for (uint32_t i = 0; i < 61; i++) {
        uint32_t off, flags, len, ooff, oflags, olen;
        sb_page_item(orig, i, &ooff, &oflags, &olen);
        sb_page_item(page, i, &off, &flags, &len);
        if (sb_tuple_xmax(orig, ooff) == 0) {
            uint16_t mask = sb_tuple_infomask(page, off);
            assert_int_equal(flags, SB_LP_NORMAL);
            assert_int_equal(off, ooff);
            assert_int_equal(len, 124);
            assert_int_equal(mask, SB_HEAP_XMIN_COMMITTED | SB_HEAP_XMAX_INVALID);
        } else {
            assert_int_equal(flags, SB_LP_UNUSED);
            assert_int_equal(off, 0);
            assert_int_equal(len, 0);
            pruned++;
        }
    }
    assert_int_equal(pruned, 61 - live);
    assert_true(pruned > 0);

    /* count after vacuum sees the same rows; a second vacuum changes nothing */
    assert_int_equal(sb_heap_count(page, PAGE, NULL), live);
    memcpy(once, page, PAGE);
    assert_int_equal(sb_heap_vacuum(page, PAGE, NULL), live);
    assert_memory_equal(page, once, PAGE);
    assert_int_equal(sb_page_checksum(page, PAGE), sum_after);

    free(page);
    free(orig);
    free(once);
}

static void test_vacuum_all_live(void **state)
{
    struct sb_heap_layout l;
    uint8_t *page = malloc(PAGE);
    uint32_t sum;
    bool dirtied;
    (void)state;

    assert_non_null(page);
    assert_true(sb_heap_layout_init(&l, PAGE, 100, 0));
    assert_int_equal(sb_heap_fill_page(&l, page, 3), 61);
    sum = sb_page_checksum(page, PAGE);
    dirtied = true;
    assert_int_equal(sb_heap_vacuum(page, PAGE, &dirtied), 61);
    /* a clean hinted page without dead tuples (8.1's lazy_scan_heap: pgchanged stays false,
     * ReleaseBuffer): not dirtied, no free-lines flag, the same bytes */
    assert_false(dirtied);
    assert_int_equal(sb_page_flags(page), 0);
    assert_int_equal(sb_page_checksum(page, PAGE), sum);
    assert_int_equal(sb_heap_count(page, PAGE, NULL), 61);
    /* built without hint bits, vacuum stores them: dirtied, once */
    l.hint_bits_set = false;
    sb_heap_fill_page(&l, page, 3);
    sum = sb_page_checksum(page, PAGE);
    assert_int_equal(sb_heap_vacuum(page, PAGE, &dirtied), 61);
    assert_true(dirtied);
    assert_int_equal(sb_page_flags(page), 0);
    assert_int_not_equal(sb_page_checksum(page, PAGE), sum);
    sum = sb_page_checksum(page, PAGE);
    assert_int_equal(sb_heap_vacuum(page, PAGE, &dirtied), 61);
    assert_false(dirtied);
    assert_int_equal(sb_page_checksum(page, PAGE), sum);
    free(page);
}

/* --- the page states (generated, hinted, vacuumed) ----------------------------------------- */

/* op on a copy of src into dst; returns whether it dirtied the page. */
static bool run_op(uint32_t (*op)(void *, uint32_t, bool *), uint8_t *dst, const uint8_t *src,
                   uint32_t *live)
{
    bool dirtied = false;
    memcpy(dst, src, PAGE);
    *live = op(dst, PAGE, &dirtied);
    return dirtied;
}

/* For both hint bit states of a 10%-dead table, the first 50 blocks: count(x) is state 1 (x
 * itself when the bits were set, and then count does not dirty), vacuum(x) state 2 (dirtied:
 * every such page has a dead tuple); count(count(x)) = count(x) without dirtying,
 * vacuum(count(x)) = vacuum(x), count(vacuum(x)) = vacuum(x), vacuum(vacuum(x)) = vacuum(x)
 * without dirtying; count's stores are exactly the
 * missing bits of t_infomask. */
static void test_page_states(void **state)
{
    struct sb_heap_layout l;
    uint8_t *x = malloc(PAGE), *hinted = malloc(PAGE), *vacuumed = malloc(PAGE);
    uint8_t *again = malloc(PAGE);
    (void)state;

    assert_true(x && hinted && vacuumed && again);
    assert_true(sb_heap_layout_init(&l, PAGE, 100, 10));
    for (int set = 0; set < 2; set++) {
        l.hint_bits_set = set;
        for (uint64_t block = 0; block < 50; block++) {
            uint32_t live = sb_heap_fill_page(&l, x, block), n;
            assert_int_equal(run_op(sb_heap_count, hinted, x, &n), !set);
            assert_int_equal(n, live);
            if (set)
                assert_memory_equal(hinted, x, PAGE);
            for (uint32_t i = 0; i < 61; i++) {
                uint32_t off, flags, len;
                sb_page_item(x, i, &off, &flags, &len);
                assert_int_equal(sb_tuple_infomask(hinted, off),
                                 sb_tuple_hint_want(sb_tuple_xmax(x, off)));
            }
            assert_true(run_op(sb_heap_vacuum, vacuumed, x, &n));
            assert_int_equal(n, live);
            assert_false(run_op(sb_heap_count, again, hinted, &n));
            assert_memory_equal(again, hinted, PAGE);
            assert_true(run_op(sb_heap_vacuum, again, hinted, &n));
            assert_memory_equal(again, vacuumed, PAGE);
            assert_false(run_op(sb_heap_count, again, vacuumed, &n));
            assert_int_equal(n, live);
            assert_memory_equal(again, vacuumed, PAGE);
            /* nothing left to change: released, not dirtied */
            assert_false(run_op(sb_heap_vacuum, again, vacuumed, &n));
            assert_memory_equal(again, vacuumed, PAGE);
        }
    }
    free(x);
    free(hinted);
    free(vacuumed);
    free(again);
}

/* --- checksum ------------------------------------------------------------------------------ */

static void test_checksum_byte_flips(void **state)
{
    struct sb_heap_layout l;
    (void)state;

    for (uint32_t size = 1024; size <= 32768; size *= 2) {
        uint8_t *page = malloc(size);
        uint32_t base;
        const uint32_t positions[] = {0, 1, 8, 23, 24, 127, 128, 129, size / 2 - 1, size / 2,
                                      size - 129, size - 128, size - 2, size - 1};

        assert_non_null(page);
        assert_true(sb_heap_layout_init(&l, size, 100, 10));
        sb_heap_fill_page(&l, page, 99);
        base = sb_page_checksum(page, size);
        assert_int_equal(sb_page_checksum(page, size), base);
        for (size_t i = 0; i < sizeof positions / sizeof positions[0]; i++) {
            for (unsigned bit = 0; bit < 8; bit += 7) { /* lowest and highest bit */
                page[positions[i]] ^= (uint8_t)(1u << bit);
                if (sb_page_checksum(page, size) == base)
                    fail_msg("page size %u: flipping bit %u of byte %u left the checksum %08x",
                             size, bit, positions[i], base);
                page[positions[i]] ^= (uint8_t)(1u << bit);
            }
        }
        assert_int_equal(sb_page_checksum(page, size), base);
        /* an all-zero page of the same size sums differently from the filled one */
        memset(page, 0, size);
        assert_int_not_equal(sb_page_checksum(page, size), base);
        free(page);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_layout_default),
        cmocka_unit_test(test_layout_other_widths),
        cmocka_unit_test(test_layout_refusals),
        cmocka_unit_test(test_fill_page_layout),
        cmocka_unit_test(test_fill_page_deterministic),
        cmocka_unit_test(test_fill_dead_pct_extremes),
        cmocka_unit_test(test_count_reads_only),
        cmocka_unit_test(test_vacuum),
        cmocka_unit_test(test_vacuum_all_live),
        cmocka_unit_test(test_page_states),
        cmocka_unit_test(test_checksum_byte_flips),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
