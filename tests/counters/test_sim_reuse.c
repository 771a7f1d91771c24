/* SPDX-License-Identifier: BSD-3-Clause */
#include "config.h"
/* test_sim_reuse.c: the key under which a replay is kept for a later run (lib/counters/
 * sim_reuse.h): the same for the same inputs wherever they lie in memory, different when any
 * input the replay reads differs (a buffer number, a byte of the table, the op, the kernels,
 * the write-back, the pool, the model's shape, the order of the scans); and the kept counts
 * found again only under their key and number of scans. */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "cachesim/cachesim.h"
#include "counters/sim_reuse.h"
#include "vocab/vocab.h"

#define PAGE 8192u
#define NPAGES 16u

static struct sb_cachesim_config shape(uint64_t l2)
{
    struct sb_cachesim_config c;

    memset(&c, 0, sizeof c);
    c.nlevels = 2;
    c.level[0] = (struct sb_cachesim_level_config){
        .size = 16 << 10, .line_size = 64, .associativity = 2,
        .replacement = SB_REPL_LRU, .inclusion = SB_INCL_NON_INCLUSIVE};
    c.level[1] = (struct sb_cachesim_level_config){
        .size = l2, .line_size = 64, .associativity = 16,
        .replacement = SB_REPL_LRU, .inclusion = SB_INCL_EXCLUSIVE};
    c.wc_buffers = 4;
    return c;
}

struct inputs {
    uint8_t *pages;
    uint32_t victims[NPAGES], later[NPAGES];
    struct sb_scan_trace t[2];
};

/* Two scans of a 16-page table into a ring of 4 buffers, the second from buffer 1. */
static void make(struct inputs *in)
{
    in->pages = malloc((size_t)NPAGES * PAGE);
    assert_non_null(in->pages);
    for (uint32_t i = 0; i < NPAGES * PAGE; i++)
        in->pages[i] = (uint8_t)(i * 7 + i / PAGE);
    for (uint32_t b = 0; b < NPAGES; b++) {
        in->victims[b] = b % 4;
        in->later[b] = (b + 1) % 4;
    }
    for (int k = 0; k < 2; k++)
        in->t[k] = (struct sb_scan_trace){.pages = in->pages, .npages = NPAGES,
                                          .page_size = PAGE, .op = sb_op_find("count"),
                                          .temporal = true,
                                          .victims = k ? in->later : in->victims,
                                          .writeback = SB_WRITEBACK_NONE, .nbuffers = 4,
                                          .side = SB_KERNEL_COPY};
}

static void key_of(const struct inputs *in, uint64_t l2, struct sb_sim_key *k)
{
    struct sb_cachesim_config c = shape(l2);

    sb_sim_key_start(k, &c);
    for (int s = 0; s < 2; s++)
        sb_sim_key_add(k, &in->t[s]);
}

static bool same(const struct sb_sim_key *a, const struct sb_sim_key *b)
{
    return a->h[0] == b->h[0] && a->h[1] == b->h[1];
}

static void test_same_inputs_same_key(void **state)
{
    struct inputs a, b;
    struct sb_sim_key ka, kb;

    (void)state;
    make(&a);
    make(&b); /* another copy of the table, elsewhere in memory */
    assert_ptr_not_equal(a.pages, b.pages);
    key_of(&a, 128 << 10, &ka);
    key_of(&b, 128 << 10, &kb);
    assert_true(same(&ka, &kb));
    free(a.pages);
    free(b.pages);
}

static void test_any_input_changes_key(void **state)
{
    struct inputs in;
    struct sb_sim_key base, k;
    struct sb_scan_trace swap;

    (void)state;
    make(&in);
    key_of(&in, 128 << 10, &base);
    key_of(&in, 256 << 10, &k); /* the model's shape */
    assert_false(same(&base, &k));
    in.victims[9] = 3; /* one buffer number */
    key_of(&in, 128 << 10, &k);
    assert_false(same(&base, &k));
    in.victims[9] = 9 % 4;
    in.pages[5 * PAGE + 100] ^= 1; /* one byte of the table */
    key_of(&in, 128 << 10, &k);
    assert_false(same(&base, &k));
    in.pages[5 * PAGE + 100] ^= 1;
    key_of(&in, 128 << 10, &k);
    assert_true(same(&base, &k));
    in.t[1].op = sb_op_find("vacuum");
    key_of(&in, 128 << 10, &k);
    assert_false(same(&base, &k));
    in.t[1].op = in.t[0].op;
    in.t[0].temporal = false; /* the copy kernel */
    key_of(&in, 128 << 10, &k);
    assert_false(same(&base, &k));
    in.t[0].temporal = true;
    in.t[0].side = SB_KERNEL_READ; /* a half of the copy */
    key_of(&in, 128 << 10, &k);
    assert_false(same(&base, &k));
    in.t[0].side = SB_KERNEL_COPY;
    in.t[0].writeback = SB_WRITEBACK_EVICT;
    in.t[0].writeback_kernel = sb_kernel_find("memcpy");
    key_of(&in, 128 << 10, &k);
    assert_false(same(&base, &k));
    in.t[0].writeback = SB_WRITEBACK_NONE;
    in.t[0].writeback_kernel = NULL;
    in.t[0].nbuffers = 8; /* the pool */
    key_of(&in, 128 << 10, &k);
    assert_false(same(&base, &k));
    in.t[0].nbuffers = 4;
    swap = in.t[0]; /* the order of the scans */
    in.t[0] = in.t[1];
    in.t[1] = swap;
    key_of(&in, 128 << 10, &k);
    assert_false(same(&base, &k));
    free(in.pages);
}

static void test_kept_found_by_key_and_scans(void **state)
{
    struct inputs in;
    struct sb_sim_key k, other;
    struct sb_cachesim_counts n[2], phases[2 * SB_NPHASES], got[2], got_phases[2 * SB_NPHASES];

    (void)state;
    sb_sim_reuse_forget();
    make(&in);
    key_of(&in, 128 << 10, &k);
    key_of(&in, 256 << 10, &other);
    memset(n, 0, sizeof n);
    memset(phases, 0, sizeof phases);
    n[0].level[1].writebacks = 128;
    n[1].mem_read_bytes = 8192;
    phases[SB_NPHASES + SB_PHASE_OP].level[0].hits = 77;
    assert_false(sb_sim_reuse_find(&k, 2, got, got_phases));
    sb_sim_reuse_keep(&k, 2, n, phases);
    assert_false(sb_sim_reuse_find(&other, 2, got, got_phases));
    assert_false(sb_sim_reuse_find(&k, 1, got, got_phases));
    assert_true(sb_sim_reuse_find(&k, 2, got, got_phases));
    assert_memory_equal(got, n, sizeof n);
    assert_memory_equal(got_phases, phases, sizeof phases);
    sb_sim_reuse_forget();
    assert_false(sb_sim_reuse_find(&k, 2, got, got_phases));
    free(in.pages);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_inputs_same_key),
        cmocka_unit_test(test_any_input_changes_key),
        cmocka_unit_test(test_kept_found_by_key_and_scans),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
