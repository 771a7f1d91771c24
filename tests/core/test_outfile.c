/* SPDX-License-Identifier: BSD-3-Clause */
#include "config.h"
/* test_outfile.c: unit tests for lib/core/outfile.h and lib/core/outdir.h: the numbered names (r-2.json,
 * before the extension of the last component; out-2 for a directory), a write never replacing
 * a file (r.json, then r-2.json, r-3.json), the checks before a run (empty, '/', exists,
 * missing or non-directory parent), a write past RLIMIT_FSIZE failing with EFBIG and leaving
 * no temporary file (SIGXFSZ ignored while writing), a temporary file published over a name
 * that appeared, and a results directory removed or replaced midway moving to DIR-2. */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/outdir.h"
#include "core/outfile.h"

#include "helper.h"

/* Entries of the scratch directory with ".tmp." in their name. */
static unsigned temporaries(void)
{
    return sbtest_count_entries(sbtest_scratch, ".tmp.");
}

static void test_numbered(void **state)
{
    static const char *const cases[][2] = {
        {"r.json", "r-2.json"},         {"dir/r.json", "dir/r-2.json"},
        {"a.b/r.tar.gz", "a.b/r.tar-2.gz"}, {"a.b/c", "a.b/c-2"},
        {".hidden", ".hidden-2"},       {"x", "x-2"},
        {"/tmp/p.png", "/tmp/p-2.png"},
    };
    char buf[64];

    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        assert_true(sb_outfile_numbered(cases[i][0], 2, buf, sizeof buf));
        assert_string_equal(buf, cases[i][1]);
    }
    assert_true(sb_outfile_numbered("r.json", 13, buf, sizeof buf));
    assert_string_equal(buf, "r-13.json");
    assert_false(sb_outfile_numbered("a-long-name.json", 2, buf, 8));
}

static void test_write_never_replaces(void **state)
{
    char path[256], want[256], used[SB_OUTFILE_MAX];
    struct sb_error err = {0};
    struct stat st;

    (void)state;
    snprintf(path, sizeof path, "%s/r.json", sbtest_scratch);
    assert_int_equal(sb_outfile_write(path, "one\n", 4, used, &err), SB_OK);
    assert_string_equal(used, path);
    assert_int_equal(sb_outfile_write(path, "two\n", 4, used, &err), SB_OK);
    snprintf(want, sizeof want, "%s/r-2.json", sbtest_scratch);
    assert_string_equal(used, want);
    assert_int_equal(sb_outfile_write(path, "three\n", 6, used, &err), SB_OK);
    snprintf(want, sizeof want, "%s/r-3.json", sbtest_scratch);
    assert_string_equal(used, want);
    sbtest_assert_file_equal(path, "one\n");
    sbtest_assert_file_equal(want, "three\n");
    assert_int_equal(temporaries(), 0);
    /* the mode a plain create has under the umask, not mkstemp's 0600 */
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0666 & ~(unsigned)umask(022));
}

static void test_check(void **state)
{
    char path[256];
    struct sb_error err = {0};

    (void)state;
    assert_int_equal(sb_outfile_check("", "report", &err), SB_ERR_INPUT);
    assert_string_equal(err.msg, "-o \"\": an empty name (the report needs a file name)");
    snprintf(path, sizeof path, "%s/", sbtest_scratch);
    assert_int_equal(sb_outfile_check(path, "plot", &err), SB_ERR_INPUT);
    assert_non_null(strstr(err.msg, "names a directory (the plot needs a file name)"));
    snprintf(path, sizeof path, "%s/r.json", sbtest_scratch);
    assert_int_equal(sb_outfile_check(path, "report", &err), SB_ERR_INPUT);
    assert_non_null(strstr(err.msg, "exists; scanbench never overwrites a report"));
    snprintf(path, sizeof path, "%s/missing/r.json", sbtest_scratch);
    assert_int_equal(sb_outfile_check(path, "report", &err), SB_ERR_INPUT);
    assert_non_null(strstr(err.msg, "No such file or directory"));
    snprintf(path, sizeof path, "%s/r.json/x.json", sbtest_scratch);
    assert_int_equal(sb_outfile_check(path, "report", &err), SB_ERR_INPUT);
    assert_non_null(strstr(err.msg, "Not a directory"));
    snprintf(path, sizeof path, "%s/new.json", sbtest_scratch);
    assert_int_equal(sb_outfile_check(path, "report", &err), SB_OK);
}

/* past the file size limit: EFBIG, not SIGXFSZ; nothing left, not even the target */
static void test_file_too_large(void **state)
{
    char path[256], used[SB_OUTFILE_MAX], data[4096];
    struct sb_error err = {0};
    struct rlimit before, small;

    (void)state;
    memset(data, 'x', sizeof data);
    snprintf(path, sizeof path, "%s/big.json", sbtest_scratch);
    assert_int_equal(getrlimit(RLIMIT_FSIZE, &before), 0);
    small = before;
    small.rlim_cur = 1024;
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
    assert_int_equal(sb_outfile_write(path, data, sizeof data, used, &err), SB_ERR_RUN);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &before), 0);
    assert_non_null(strstr(err.msg, "File too large"));
    assert_int_equal(access(path, F_OK), -1);
    assert_int_equal(temporaries(), 0);
}

/* a file made by another program (gnuplot) under a temporary name, published */
static void test_publish(void **state)
{
    char path[256], tmp[SB_OUTFILE_MAX], used[SB_OUTFILE_MAX], want[256];
    struct sb_error err = {0};
    int fd;

    (void)state;
    snprintf(path, sizeof path, "%s/p.png", sbtest_scratch);
    fd = sb_outfile_temp(path, ".png", tmp, &err);
    assert_true(fd >= 0);
    assert_non_null(strstr(tmp, "p.png.tmp."));
    assert_string_equal(tmp + strlen(tmp) - 4, ".png");
    assert_int_equal(sb_outfile_put(fd, tmp, "image", 5, &err), SB_OK);
    assert_int_equal(close(fd), 0);
    assert_int_equal(sb_outfile_write(path, "appeared", 8, used, &err), SB_OK);
    assert_int_equal(sb_outfile_publish(tmp, path, used, &err), SB_OK);
    snprintf(want, sizeof want, "%s/p-2.png", sbtest_scratch);
    assert_string_equal(used, want);
    sbtest_assert_file_equal(want, "image");
    sbtest_assert_file_equal(path, "appeared");
    assert_int_equal(temporaries(), 0);
}

/* a results directory removed, then replaced by a file: the files go on in D-2, then D-3 */
static void test_outdir_moves(void **state)
{
    char d[256], path[256], used[SB_OUTFILE_MAX], want[256], command[600];
    struct sb_outdir *out = calloc(1, sizeof *out);
    struct sb_error err = {0};

    (void)state;
    assert_non_null(out);
    snprintf(d, sizeof d, "%s/D", sbtest_scratch);
    assert_int_equal(sb_outdir_create(out, d, "power", &err), SB_OK);
    assert_int_equal(sb_outdir_create(out, d, "power", &err), SB_ERR_INPUT);
    assert_non_null(strstr(err.msg, "File exists"));
    snprintf(want, sizeof want, "-o %s: File exists (power writes into a new directory", d);
    assert_non_null(strstr(err.msg, want)); /* the command the user ran, the name given */
    assert_int_equal(sb_outdir_create(out, "", "power", &err), SB_ERR_INPUT);
    assert_non_null(strstr(err.msg, "(power needs a new directory's name)"));
    assert_string_equal(out->path, d); /* the refusals changed nothing */
    assert_int_equal(sb_outdir_write(out, "a.json", "a", 1, used, &err), SB_OK);
    snprintf(want, sizeof want, "%s/a.json", d);
    assert_string_equal(used, want);
    assert_string_equal(out->note, "");

    snprintf(command, sizeof command, "rm -r '%s'", d);
    assert_int_equal(system(command), 0);
    assert_int_equal(sb_outdir_write(out, "b.json", "b", 1, used, &err), SB_OK);
    snprintf(want, sizeof want, "%s/D-2/b.json", sbtest_scratch);
    assert_string_equal(used, want);
    assert_non_null(strstr(out->note, "the results from here on are kept in"));
    out->note[0] = '\0';

    snprintf(path, sizeof path, "%s/D-2", sbtest_scratch);
    snprintf(command, sizeof command, "rm -r '%s' && touch '%s'", path, path);
    assert_int_equal(system(command), 0);
    assert_int_equal(sb_outdir_write(out, "c.json", "c", 1, used, &err), SB_OK);
    snprintf(want, sizeof want, "%s/D-3/c.json", sbtest_scratch);
    assert_string_equal(used, want);
    sbtest_assert_file_equal(want, "c");
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_numbered),
        cmocka_unit_test(test_write_never_replaces),
        cmocka_unit_test(test_check),
        cmocka_unit_test(test_file_too_large),
        cmocka_unit_test(test_publish),
        cmocka_unit_test(test_outdir_moves),
    };
    return cmocka_run_group_tests(tests, sbtest_scratch_setup, sbtest_scratch_teardown);
}
