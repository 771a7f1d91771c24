/* SPDX-License-Identifier: BSD-3-Clause */
#include "config.h"
/* test_kernel.c: unit tests for lib/vocab/kernel.h, the copy kernels. Every kernel this CPU supports
 * must copy exactly what memcpy copies for lengths around every loop boundary (0 to 8193 bytes)
 * and every source and destination misalignment from 0 to 17 bytes, without touching a byte
 * before or after the destination, and without reading or writing past the end of a mapping
 * (source and destination end at a page followed by an inaccessible one). A kernel this CPU
 * cannot run is skipped, but must still be found by name. The halves `read` and `write` must leave
 * exactly their documented evidence (the source's xor fold; the source's address in every word)
 * for every length that is a multiple of 8 up to 8192, touch no byte they do not document, and
 * be told apart from each other and from a copy by sb_kernel_half_done. */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "vocab/kernel.h"

static const size_t lengths[] = {0,   1,   7,   15,  16,  17,   31,   32,   33,   63,  64,
                                 65,  127, 128, 129, 255, 256,  257,  4095, 8191, 8192, 8193};
#define NLENGTHS (sizeof lengths / sizeof lengths[0])
#define MAX_LEN 8193u
#define MAX_OFF 17u
#define GUARD 64u
#define GUARD_BYTE 0xA5

/* Copies every length at every (src, dst) misalignment into a guarded buffer. */
static void check_alignments(const struct sb_kernel *k)
{
    size_t cap = (GUARD + MAX_OFF + MAX_LEN + GUARD + 63) & ~(size_t)63; /* aligned_alloc */
    uint8_t *src = aligned_alloc(64, cap), *dst = aligned_alloc(64, cap);

    assert_non_null(src);
    assert_non_null(dst);
    for (size_t i = 0; i < cap; i++)
        src[i] = (uint8_t)(i * 7 + 3 + (i >> 8)); /* never a long run of GUARD_BYTE */
    for (size_t li = 0; li < NLENGTHS; li++) {
        size_t len = lengths[li];
        for (size_t so = 0; so <= MAX_OFF; so++) {
            for (size_t doff = 0; doff <= MAX_OFF; doff++) {
                uint8_t *d = dst + GUARD + doff;
                const uint8_t *s = src + GUARD + so;
                memset(dst, GUARD_BYTE, cap);
                k->copy(d, s, len);
                if (memcmp(d, s, len) != 0)
                    fail_msg("kernel %s: len %zu src offset %zu dst offset %zu: wrong bytes",
                             k->name, len, so, doff);
                for (uint8_t *g = dst; g < d; g++)
                    if (*g != GUARD_BYTE)
                        fail_msg("kernel %s: len %zu src offset %zu dst offset %zu: wrote %td "
                                 "bytes before dst", k->name, len, so, doff, d - g);
                for (uint8_t *g = d + len; g < dst + cap; g++)
                    if (*g != GUARD_BYTE)
                        fail_msg("kernel %s: len %zu src offset %zu dst offset %zu: wrote byte "
                                 "dst+len+%td", k->name, len, so, doff, g - (d + len));
            }
        }
    }
    free(src);
    free(dst);
}

/* Source and destination end exactly at the end of an accessible page that is followed by a
 * PROT_NONE page: a kernel reading or writing one byte too far dies with SIGSEGV. */
static void check_page_end(const struct sb_kernel *k)
{
    size_t pagesz = (size_t)sysconf(_SC_PAGESIZE);
    size_t span = ((MAX_LEN + MAX_OFF) / pagesz + 1) * pagesz; /* accessible bytes */
    uint8_t *src = mmap(NULL, span + pagesz, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    uint8_t *dst = mmap(NULL, span + pagesz, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

    assert_true(src != MAP_FAILED);
    assert_true(dst != MAP_FAILED);
    assert_int_equal(mprotect(src + span, pagesz, PROT_NONE), 0);
    assert_int_equal(mprotect(dst + span, pagesz, PROT_NONE), 0);
    for (size_t i = 0; i < span; i++)
        src[i] = (uint8_t)(i * 13 + 1);
    for (size_t li = 0; li < NLENGTHS; li++) {
        for (size_t mis = 0; mis < 3; mis++) {
            /* mis 0: both end at the page end; 1, 2: ends staggered by a few bytes, so the
             * start addresses have different alignments */
            size_t len = lengths[li];
            const uint8_t *s = src + span - len - (mis == 2 ? 3 : 0);
            uint8_t *d = dst + span - len - (mis == 1 ? 5 : 0);
            memset(dst, GUARD_BYTE, span);
            k->copy(d, s, len);
            if (memcmp(d, s, len) != 0)
                fail_msg("kernel %s: len %zu at the end of a page: wrong bytes", k->name, len);
            for (uint8_t *g = d + len; g < dst + span; g++)
                assert_int_equal(*g, GUARD_BYTE);
            if (d > dst)
                assert_int_equal(d[-1], GUARD_BYTE);
        }
    }
    munmap(src, span + pagesz);
    munmap(dst, span + pagesz);
}

static void check_kernel(const char *name)
{
    const struct sb_kernel *k = sb_kernel_find(name);

    assert_non_null(k); /* found by name whether or not this CPU can run it */
    assert_string_equal(k->name, name);
    assert_non_null(k->copy);
    assert_non_null(k->supported);
    assert_non_null(k->requires);
    if (!k->supported()) {
        skip(); /* this CPU lacks k->requires */
        return;
    }
    check_alignments(k);
    check_page_end(k);
}

static void test_memcpy(void **state) { (void)state; check_kernel("memcpy"); }
#if defined(__x86_64__)
static void test_movsb(void **state) { (void)state; check_kernel("movsb"); }
static void test_avx2(void **state) { (void)state; check_kernel("avx2"); }
static void test_avx512(void **state) { (void)state; check_kernel("avx512"); }
static void test_nt(void **state) { (void)state; check_kernel("nt"); }
#endif

/* The xor of the 8-byte words of p, written out word by word: what `read` must store. */
static uint64_t slow_fold(const uint8_t *p, size_t len)
{
    uint64_t x = 0, w;

    for (size_t i = 0; i + 8 <= len; i += 8) {
        memcpy(&w, p + i, 8);
        x ^= w;
    }
    return x;
}

/* `read` stores the fold into the first 8 bytes and nothing else; `write` stores the source's
 * address into every word and reads nothing (its source may be inaccessible). */
static void test_halves(void **state)
{
    const struct sb_kernel *r = sb_kernel_find("read"), *w = sb_kernel_find("write");
    uint8_t *src = malloc(8192 + GUARD), *dst = malloc(8192 + GUARD);
    (void)state;

    assert_non_null(r);
    assert_non_null(w);
    assert_int_equal(r->side, SB_KERNEL_READ);
    assert_int_equal(w->side, SB_KERNEL_WRITE);
    assert_null(sb_writeback_kernel_find("read"));
    assert_null(sb_writeback_kernel_find("write"));
    assert_non_null(src);
    assert_non_null(dst);
    for (size_t i = 0; i < 8192; i++)
        src[i] = (uint8_t)(i * 131u + (i >> 8) * 7u + 1u);
    for (size_t len = 8; len <= 8192; len += len < 264 ? 8 : 1000) {
        uint64_t want = slow_fold(src, len), got, addr = (uint64_t)(uintptr_t)src;

        memset(dst, GUARD_BYTE, 8192 + GUARD);
        r->copy(dst, src, len);
        memcpy(&got, dst, 8);
        if (got != want)
            fail_msg("read, %zu bytes: fold %llx, want %llx", len, (unsigned long long)got,
                     (unsigned long long)want);
        for (size_t i = 8; i < 8192 + GUARD; i++)
            assert_int_equal(dst[i], GUARD_BYTE);
        assert_true(sb_kernel_half_done(r, dst, src, len));
        assert_false(sb_kernel_half_done(w, dst, src, len));
        dst[3] ^= 1;
        assert_false(sb_kernel_half_done(r, dst, src, len));

        memset(dst, GUARD_BYTE, 8192 + GUARD);
        w->copy(dst, NULL, len); /* reads nothing: a NULL source is never dereferenced */
        for (size_t i = 0; i < len; i++)
            assert_int_equal(dst[i], 0);
        w->copy(dst, src, len);
        for (size_t i = 0; i < len; i += 8) {
            memcpy(&got, dst + i, 8);
            assert_true(got == addr);
        }
        for (size_t i = len; i < 8192 + GUARD; i++)
            assert_int_equal(dst[i], GUARD_BYTE);
        assert_true(sb_kernel_half_done(w, dst, src, len));
        assert_false(sb_kernel_half_done(w, dst, src + 8, len)); /* another page's address */
        dst[len - 1] ^= 1;
        assert_false(sb_kernel_half_done(w, dst, src, len));
    }
    free(src);
    free(dst);
}

/* Every registry row is one of the kernels tested above: a new kernel needs a test here. */
static void test_registry(void **state)
{
#if defined(__x86_64__)
    const char *known[] = {"memcpy", "movsb", "avx2", "avx512", "nt"};
#else
    const char *known[] = {"memcpy"};
#endif
    size_t nknown = sizeof known / sizeof known[0], n = 0;
    (void)state;

    for (const struct sb_kernel *k = sb_kernels; k->name; k++) {
        int found = 0;
        for (size_t i = 0; i < nknown; i++)
            found |= strcmp(k->name, known[i]) == 0;
        if (!found)
            fail_msg("kernel %s has no test in test_kernel.c", k->name);
        n++;
    }
    assert_int_equal(n, nknown);
    assert_null(sb_kernel_find("nope"));
    assert_null(sb_kernel_find(""));
    assert_true(sb_kernel_find("memcpy")->supported());
    assert_true(sb_kernel_find("memcpy")->temporal);
#if defined(__x86_64__)
    assert_false(sb_kernel_find("nt")->temporal);
    assert_string_equal(sb_kernel_find("avx2")->requires, "avx2");
    assert_string_equal(sb_kernel_find("avx512")->requires, "avx512f");
#endif
    assert_non_null(sb_cpu_features());
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_memcpy),
#if defined(__x86_64__)
        cmocka_unit_test(test_movsb),
        cmocka_unit_test(test_avx2),
        cmocka_unit_test(test_avx512),
        cmocka_unit_test(test_nt),
#endif
        cmocka_unit_test(test_halves),
        cmocka_unit_test(test_registry),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
