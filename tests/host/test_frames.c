/* SPDX-License-Identifier: BSD-3-Clause */
/* test_frames.c: unit tests for lib/host/frames.h. The pure summary on hand-made frame arrays:
 * contiguous frames spread evenly over the colours, the same frames reversed, unresolved pages
 * skipped (worked by hand), no colours counted (0, 1) and too many (capped), huge pages from
 * the THP and hugetlb flags (and unknown without flags), nothing resolved, nothing at all. Then
 * sb_frames_summarise on a real touched mapping, checking only the summary's shape (the
 * frames, and whether they can be read, depend on the host and the rights), an untouched one
 * and an empty range (both not available, saying why). */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "host/frames.h"

#include "helper.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* --- the pure summary ------------------------------------------------------------------------ */

static void test_contiguous_even(void **state)
{
    uint64_t pfn[16];
    struct sb_frames f;
    (void)state;

    for (unsigned k = 0; k < N(pfn); k++)
        pfn[k] = 100 + k;
    sb_frames_summarise_pfns(pfn, NULL, N(pfn), 4, &f);
    assert_true(f.available);
    assert_string_equal(f.why, "");
    assert_int_equal(f.pages, 16);
    assert_int_equal(f.resolved, 16);
    assert_near(f.contiguous, 1.0, 1e-12);
    assert_int_equal(f.colours, 4);
    assert_int_equal(f.colour_min, 4);
    assert_int_equal(f.colour_max, 4);
    assert_near(f.colour_cv, 0.0, 1e-12);
    assert_int_equal(f.pfn_min, 100);
    assert_int_equal(f.pfn_max, 115);
}

static void test_reversed(void **state)
{
    uint64_t pfn[16];
    struct sb_frames f;
    (void)state;

    for (unsigned k = 0; k < N(pfn); k++)
        pfn[k] = 115 - k;
    sb_frames_summarise_pfns(pfn, NULL, N(pfn), 8, &f);
    assert_int_equal(f.resolved, 16);
    assert_near(f.contiguous, 0.0, 1e-12);
    assert_int_equal(f.colour_min, 2);
    assert_int_equal(f.colour_max, 2);
    assert_near(f.colour_cv, 0.0, 1e-12);
    assert_int_equal(f.pfn_min, 100);
    assert_int_equal(f.pfn_max, 115);
}

static void test_unresolved_skipped(void **state)
{
    /* pairs with both resolved: (10,11) and (12,13), both contiguous; 0-20 and 13-0 are not
     * pairs. Colours of 2: 10, 12, 20 on colour 0, 11, 13 on colour 1: mean 2.5, sd 0.5 */
    const uint64_t pfn[] = {10, 11, 0, 12, 13, 0, 0, 20};
    /* (10,12) a pair not contiguous, (13,14) one contiguous: 1 of 2 */
    const uint64_t half[] = {10, 12, 0, 13, 14};
    struct sb_frames f;
    (void)state;

    sb_frames_summarise_pfns(pfn, NULL, N(pfn), 2, &f);
    assert_int_equal(f.pages, 8);
    assert_int_equal(f.resolved, 5);
    assert_near(f.contiguous, 1.0, 1e-12);
    assert_int_equal(f.colour_min, 2);
    assert_int_equal(f.colour_max, 3);
    assert_near(f.colour_cv, 0.2, 1e-12);
    assert_int_equal(f.pfn_min, 10);
    assert_int_equal(f.pfn_max, 20);

    sb_frames_summarise_pfns(half, NULL, N(half), 0, &f);
    assert_int_equal(f.resolved, 4);
    assert_near(f.contiguous, 0.5, 1e-12);
}

static void test_colours_none_and_capped(void **state)
{
    const uint64_t pfn[] = {1, 2, 3, 7, 4096, 8192};
    struct sb_frames f;
    (void)state;

    for (uint32_t colours = 0; colours <= 1; colours++) {
        sb_frames_summarise_pfns(pfn, NULL, N(pfn), colours, &f);
        assert_int_equal(f.colours, 0);
        assert_int_equal(f.colour_min, 0);
        assert_int_equal(f.colour_max, 0);
        assert_near(f.colour_cv, 0.0, 1e-12);
        assert_int_equal(f.resolved, 6);
    }
    /* capped at SB_FRAMES_MAX_COLOURS: 4096 and 8192 share colour 0, most colours are empty */
    sb_frames_summarise_pfns(pfn, NULL, N(pfn), 100000, &f);
    assert_int_equal(f.colours, SB_FRAMES_MAX_COLOURS);
    assert_int_equal(f.colour_min, 0);
    assert_int_equal(f.colour_max, 2);
    assert_true(f.colour_cv > 1.0);
}

static void test_huge_flags(void **state)
{
    const uint64_t pfn[] = {5, 6, 7, 8, 9, 0};
    const uint64_t flags[] = {
        1ull << 22,                /* THP */
        1ull << 17,                /* hugetlb */
        1ull << 15,                /* a compound head alone is not a huge page */
        (1ull << 16) | (1ull << 22), /* THP tail */
        1ull << 12,                /* anonymous, nothing more */
        1ull << 22,                /* not resolved: not counted */
    };
    struct sb_frames f;
    (void)state;

    sb_frames_summarise_pfns(pfn, flags, N(pfn), 0, &f);
    assert_int_equal(f.huge_pages, 3);
    sb_frames_summarise_pfns(pfn, NULL, N(pfn), 0, &f);
    assert_true(f.huge_pages == UINT64_MAX);
}

static void test_nothing_resolved(void **state)
{
    const uint64_t pfn[] = {0, 0, 0};
    const uint64_t flags[] = {1ull << 22, 1ull << 22, 1ull << 22};
    struct sb_frames f;
    (void)state;

    sb_frames_summarise_pfns(pfn, flags, N(pfn), 4, &f);
    assert_int_equal(f.pages, 3);
    assert_int_equal(f.resolved, 0);
    assert_near(f.contiguous, 0.0, 1e-12);
    assert_int_equal(f.colours, 4);
    assert_int_equal(f.colour_min, 0);
    assert_int_equal(f.colour_max, 0);
    assert_near(f.colour_cv, 0.0, 1e-12);
    assert_int_equal(f.huge_pages, 0);
    assert_int_equal(f.pfn_min, 0);
    assert_int_equal(f.pfn_max, 0);

    sb_frames_summarise_pfns(NULL, NULL, 0, 0, &f);
    assert_int_equal(f.pages, 0);
    assert_int_equal(f.resolved, 0);
    assert_true(f.huge_pages == UINT64_MAX);
}

/* --- a real mapping -------------------------------------------------------------------------- */

static void *map_pages(size_t pages, size_t *len, bool touch)
{
    long page = sysconf(_SC_PAGESIZE);
    char *p;

    assert_true(page > 0);
    *len = pages * (size_t)page;
    p = mmap(NULL, *len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    assert_true(p != MAP_FAILED);
    for (size_t k = 0; touch && k < pages; k++)
        p[k * (size_t)page] = (char)k;
    return p;
}

static void test_real_mapping(void **state)
{
    size_t len;
    char *p = map_pages(64, &len, true);
    struct sb_frames f;
    (void)state;

    sb_frames_summarise(p, len, 64 << 10, &f);
    assert_int_equal(f.pages, 64);
    if (f.available) {
        assert_string_equal(f.why, "");
        assert_true(f.resolved >= 1 && f.resolved <= f.pages);
        assert_true(f.contiguous >= 0.0 && f.contiguous <= 1.0);
        assert_true(f.colour_min <= f.colour_max);
        if (f.colours)
            assert_true((uint64_t)f.colour_min * f.colours <= f.resolved &&
                        (uint64_t)f.colour_max <= f.resolved);
        assert_true(f.colour_cv >= 0.0);
        assert_true(f.pfn_min >= 1 && f.pfn_min <= f.pfn_max);
        assert_true(f.huge_pages == UINT64_MAX || f.huge_pages <= f.resolved);
    } else {
        assert_true(f.why[0] != '\0');
        assert_true(f.huge_pages == UINT64_MAX);
    }
    assert_int_equal(munmap(p, len), 0);
}

static void test_untouched_and_empty(void **state)
{
    size_t len;
    char *p = map_pages(16, &len, false);
    struct sb_frames f;
    (void)state;

    /* nothing resident (or pagemap unreadable): not available either way */
    sb_frames_summarise(p, len, 0, &f);
    assert_false(f.available);
    assert_int_equal(f.pages, 16);
    assert_true(f.why[0] != '\0');
    assert_true(f.huge_pages == UINT64_MAX);

    sb_frames_summarise(p, 0, 0, &f);
    assert_false(f.available);
    assert_int_equal(f.pages, 0);
    assert_string_equal(f.why, "the range is empty");
    assert_int_equal(munmap(p, len), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_contiguous_even),
        cmocka_unit_test(test_reversed),
        cmocka_unit_test(test_unresolved_skipped),
        cmocka_unit_test(test_colours_none_and_capped),
        cmocka_unit_test(test_huge_flags),
        cmocka_unit_test(test_nothing_resolved),
        cmocka_unit_test(test_real_mapping),
        cmocka_unit_test(test_untouched_and_empty),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
