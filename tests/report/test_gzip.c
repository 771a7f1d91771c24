/* SPDX-License-Identifier: BSD-3-Clause */
#include "config.h"
/* test_gzip.c: unit tests for lib/report/gzip.h and the report reader's ".gz" path
 * (read.h). The stored fixture tests/data/report-a.json compressed reads back byte for byte and
 * loads to the same report as the plain file, also as two gzip members (as gzip(1) writes a
 * concatenation); a truncated file, a damaged checksum, plain JSON named .gz and bytes after
 * the last member are refused as bad input with one line naming the file and what is wrong;
 * sb_report_csv_path and sb_setup_outputs keep the ".gz" off the CSV and after --twice's ".2". */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "runner/runner_setup.h"

#include "helper.h"

struct fixture {
    char *plain_path, *text, *packed;
    size_t len, packed_len;
};

static int setup(void **state)
{
    struct fixture *fx = calloc(1, sizeof *fx);
    struct sb_error err = {0};

    if (!fx || sbtest_scratch_setup(state) != 0)
        return -1;
    fx->plain_path = sbtest_data_path("report-a.json");
    fx->text = sbtest_read_file(fx->plain_path, &fx->len);
    if (!fx->text || sb_report_gz_deflate(fx->text, fx->len, "a.json.gz", &fx->packed,
                                          &fx->packed_len, &err) != SB_OK)
        return -1;
    *state = fx;
    return 0;
}

static int teardown(void **state)
{
    struct fixture *fx = *state;

    free(fx->plain_path);
    free(fx->text);
    free(fx->packed);
    free(fx);
    return sbtest_scratch_teardown(state);
}

/* data (len bytes) as sbtest_scratch/NAME; returns its path (static). */
static const char *put(const char *name, const void *data, size_t len)
{
    static char path[512];
    FILE *f;

    snprintf(path, sizeof path, "%s/%s", sbtest_scratch, name);
    f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
    return path;
}

/* path is refused as bad input with exactly "PATH: not a whole gzip file (WHY)". */
static void assert_refused(const char *path, const char *why)
{
    struct sb_error err = {0};
    char want[1024];
    json_t *report = NULL;

    assert_int_equal(sb_report_load(path, &report, &err), SB_ERR_INPUT);
    assert_null(report);
    snprintf(want, sizeof want, "%s: not a whole gzip file (%s)", path, why);
    sbtest_assert_error(&err, SB_ERR_INPUT, want);
    assert_null(strchr(err.msg, '\n'));
}

static void test_round_trip(void **state)
{
    struct fixture *fx = *state;
    struct sb_error err = {0};
    json_t *plain, *packed;
    char *back;
    size_t back_len;

    assert_true(fx->packed_len > 18 && fx->packed_len < fx->len);
    assert_int_equal((unsigned char)fx->packed[0], 0x1f); /* gzip's magic */
    assert_int_equal((unsigned char)fx->packed[1], 0x8b);
    assert_int_equal(sb_report_gz_inflate(fx->packed, fx->packed_len, "a.json.gz", &back,
                                          &back_len, &err), SB_OK);
    assert_int_equal(back_len, fx->len);
    assert_memory_equal(back, fx->text, fx->len);
    assert_int_equal(back[back_len], '\0');
    free(back);

    assert_int_equal(sb_report_load(fx->plain_path, &plain, &err), SB_OK);
    assert_int_equal(sb_report_load(put("a.json.gz", fx->packed, fx->packed_len), &packed,
                                    &err), SB_OK);
    assert_true(json_equal(plain, packed));
    json_decref(plain);
    json_decref(packed);
}

/* Two members, each half the text, read as the whole text (`cat a.gz b.gz` as gzip(1) does). */
static void test_two_members(void **state)
{
    struct fixture *fx = *state;
    struct sb_error err = {0};
    char *first, *second, *both, *back;
    size_t first_len, second_len, back_len, half = fx->len / 2;

    assert_int_equal(sb_report_gz_deflate(fx->text, half, "x", &first, &first_len, &err), SB_OK);
    assert_int_equal(sb_report_gz_deflate(fx->text + half, fx->len - half, "x", &second,
                                          &second_len, &err), SB_OK);
    both = malloc(first_len + second_len);
    assert_non_null(both);
    memcpy(both, first, first_len);
    memcpy(both + first_len, second, second_len);
    assert_int_equal(sb_report_gz_inflate(both, first_len + second_len, "x", &back, &back_len,
                                          &err), SB_OK);
    assert_int_equal(back_len, fx->len);
    assert_memory_equal(back, fx->text, fx->len);
    free(back);
    free(both);
    free(first);
    free(second);
}

static void test_truncated(void **state)
{
    struct fixture *fx = *state;

    assert_refused(put("half.json.gz", fx->packed, fx->packed_len / 2),
                   "truncated: it ends inside its compressed data");
    /* the data whole, its 8-byte trailer (checksum and length) cut short */
    assert_refused(put("trailer.json.gz", fx->packed, fx->packed_len - 3),
                   "truncated: it ends inside its compressed data");
}

static void test_corrupt(void **state)
{
    struct fixture *fx = *state;
    char *copy = malloc(fx->packed_len + 4);

    assert_non_null(copy);
    memcpy(copy, fx->packed, fx->packed_len);
    copy[fx->packed_len - 8] ^= 0x5a; /* the CRC-32 of the text */
    assert_refused(put("crc.json.gz", copy, fx->packed_len), "corrupt: incorrect data check");
    copy[fx->packed_len - 8] ^= 0x5a;
    memcpy(copy + fx->packed_len, "junk", 4);
    assert_refused(put("after.json.gz", copy, fx->packed_len + 4),
                   "corrupt: incorrect header check");
    assert_refused(put("plain.json.gz", fx->text, fx->len), "corrupt: incorrect header check");
    free(copy);
}

static void test_names(void **state)
{
    struct sb_outputs o;
    struct sb_error err = {0};
    char csv[64], path[512];

    (void)state;
    assert_true(sb_report_gz_named("r.json.gz"));
    assert_false(sb_report_gz_named("r.json"));
    assert_false(sb_report_gz_named(".gz"));
    sb_report_csv_path("r.json.gz", csv, sizeof csv);
    assert_string_equal(csv, "r.csv");
    sb_report_csv_path("r.gz", csv, sizeof csv);
    assert_string_equal(csv, "r.csv");
    sb_report_csv_path("r.json", csv, sizeof csv);
    assert_string_equal(csv, "r.csv");
    snprintf(path, sizeof path, "%s/r.json.gz", sbtest_scratch);
    assert_int_equal(sb_setup_outputs(path, 2, &o, &err), SB_OK);
    snprintf(path, sizeof path, "%s/r.2.json.gz", sbtest_scratch);
    assert_string_equal(o.report[1], path);
    snprintf(path, sizeof path, "%s/r.2.csv", sbtest_scratch);
    assert_string_equal(o.csv[1], path);
    snprintf(path, sizeof path, "%s/r.gz", sbtest_scratch);
    assert_int_equal(sb_setup_outputs(path, 2, &o, &err), SB_OK);
    snprintf(path, sizeof path, "%s/r.2.gz", sbtest_scratch);
    assert_string_equal(o.report[1], path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip), cmocka_unit_test(test_two_members),
        cmocka_unit_test(test_truncated),  cmocka_unit_test(test_corrupt),
        cmocka_unit_test(test_names),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
