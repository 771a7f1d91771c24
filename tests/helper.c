/* SPDX-License-Identifier: BSD-3-Clause */
/* tests/helper.c: the unit tests' shared helpers (tests/helper.h). */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "helper.h"

void sbtest_near(double got, double want, double eps, const char *what, const char *file,
                 int line)
{
    if (!(fabs(got - want) <= eps))
        fail_msg("%s:%d: %s = %.17g, want %.17g within %g", file, line, what, got, want, eps);
}

int sbtest_scratch_make(char *dir, size_t size, const char *name)
{
    const char *tmp = getenv("TMPDIR");
    int n = snprintf(dir, size, "%s/sb_test_%s_XXXXXX", tmp && tmp[0] ? tmp : "/tmp", name);

    if (n < 0 || (size_t)n >= size)
        return -1;
    return mkdtemp(dir) ? 0 : -1;
}

char sbtest_scratch[256];

int sbtest_scratch_setup(void **state)
{
    (void)state;
    return sbtest_scratch_make(sbtest_scratch, sizeof sbtest_scratch,
                               program_invocation_short_name);
}

int sbtest_scratch_teardown(void **state)
{
    (void)state;
    return sbtest_scratch_remove(sbtest_scratch);
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

int sbtest_scratch_remove(const char *dir)
{
    if (nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS) != 0)
        return -1;
    return access(dir, F_OK) == 0 ? -1 : 0;
}

const char *sbtest_write_file(const char *dir, const char *rel, const char *text)
{
    static char path[1024];
    FILE *f;

    if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, rel) >= sizeof path)
        fail_msg("path too long: %s/%s", dir, rel);
    /* every directory above the file (dir too), those there already left as they are; one
     * that cannot be made shows as the file that cannot be opened */
    for (char *slash = strchr(path + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
        *slash = '\0';
        mkdir(path, 0700);
        *slash = '/';
    }
    f = fopen(path, "w");
    if (!f)
        fail_msg("%s: %s", path, strerror(errno));
    assert_true(fputs(text, f) >= 0);
    assert_int_equal(fclose(f), 0);
    return path;
}

char *sbtest_write_temp(const char *text)
{
    char *path = strdup("/tmp/sb_test_XXXXXX");
    int fd;
    FILE *f;

    assert_non_null(path);
    fd = mkstemp(path);
    assert_true(fd >= 0);
    f = fdopen(fd, "w");
    assert_non_null(f);
    assert_true(fputs(text, f) >= 0);
    assert_int_equal(fclose(f), 0);
    return path;
}

void sbtest_remove_temp(char *path)
{
    unlink(path);
    free(path);
}

char *sbtest_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf;
    long size;

    if (!f)
        fail_msg("cannot open %s: %s", path, strerror(errno));
    assert_int_equal(fseek(f, 0, SEEK_END), 0);
    size = ftell(f);
    assert_true(size >= 0);
    rewind(f);
    buf = malloc((size_t)size + 1);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)size, f), (size_t)size);
    buf[size] = '\0';
    fclose(f);
    if (len)
        *len = (size_t)size;
    return buf;
}

void sbtest_assert_file_equal(const char *path, const char *text)
{
    char *got = sbtest_read_file(path, NULL);

    if (strcmp(got, text) != 0)
        fail_msg("%s holds \"%s\", want \"%s\"", path, got, text);
    free(got);
}

unsigned sbtest_count_entries(const char *dir, const char *part)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    unsigned n = 0;

    if (!d)
        fail_msg("cannot open the directory %s: %s", dir, strerror(errno));
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        n += !part || strstr(e->d_name, part) != NULL;
    }
    closedir(d);
    return n;
}

char *sbtest_data_path(const char *name)
{
    const char *top = getenv("top_srcdir");
    size_t len = strlen(top ? top : ".") + strlen(name) + 16;
    char *path = malloc(len);

    assert_non_null(path);
    snprintf(path, len, "%s/tests/data/%s", top ? top : ".", name);
    return path;
}

void sbtest_experiment_from_sets(struct sb_experiment *exp, const char *const *sets)
{
    struct sb_error err = {0};

    assert_int_equal(sb_experiment_init(exp, &err), SB_OK);
    for (; *sets; sets++)
        if (sb_experiment_set(exp, *sets, &err) != SB_OK)
            fail_msg("--set %s refused: %s", *sets, err.msg);
}

void sbtest_assert_error(const struct sb_error *err, int status, const char *msg)
{
    assert_int_equal(err->status, status);
    assert_string_equal(err->msg, msg);
}

void sbtest_assert_error_contains(const struct sb_error *err, int status, const char *part)
{
    assert_int_equal(err->status, status);
    if (!strstr(err->msg, part))
        fail_msg("error \"%s\" lacks \"%s\"", err->msg, part);
}
