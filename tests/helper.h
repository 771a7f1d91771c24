/* SPDX-License-Identifier: BSD-3-Clause */
/* tests/helper.h: what the unit tests (tests/SUB/test_*.c) share, linked into each of them
 * (tests/helper.c): scratch directories and files written from a string, whole files read
 * back, a directory's entries counted, the stored fixtures of tests/data/, an experiment built
 * from --set assignments, and assertions on an sb_error and on doubles. Each helper fails the
 * running test (cmocka) when what it needs cannot be done; include it after <cmocka.h>. */
#ifndef SB_TESTS_HELPER_H
#define SB_TESTS_HELPER_H

#include <stddef.h>

#include "core/error.h"
#include "plan/experiment.h"

/* |got - want| <= eps in double precision (cmocka compares integers, and floats only in some
 * versions); the failure names the expression and both values. */
#define assert_near(got, want, eps) sbtest_near((got), (want), (eps), #got, __FILE__, __LINE__)
void sbtest_near(double got, double want, double eps, const char *what, const char *file,
                 int line);

/* The scratch directory of a group of tests (or of one test): sbtest_scratch_setup, a cmocka
 * setup function, makes it ($TMPDIR/sb_test_PROGRAM_XXXXXX); sbtest_scratch_teardown removes
 * it with everything in it. */
extern char sbtest_scratch[256];
int sbtest_scratch_setup(void **state);
int sbtest_scratch_teardown(void **state);

/* Makes a new directory $TMPDIR/sb_test_NAME_XXXXXX (/tmp without TMPDIR) and writes its path
 * into dir (size bytes); returns 0, or -1 when it cannot (for a cmocka setup function). */
int sbtest_scratch_make(char *dir, size_t size, const char *name);
/* Removes dir and everything below it; returns 0, or -1 when something was left. */
int sbtest_scratch_remove(const char *dir);

/* Writes text to dir/rel, making the directories above it (dir's too); returns the file's
 * path (static, good until the next call). */
const char *sbtest_write_file(const char *dir, const char *rel, const char *text);
/* Writes text to a new file of its own under /tmp; returns its path, for sbtest_remove_temp. */
char *sbtest_write_temp(const char *text);
/* Removes that file and frees its path. */
void sbtest_remove_temp(char *path);
/* The whole file, NUL-terminated (malloc'd); its length in *len when len is not NULL. */
char *sbtest_read_file(const char *path, size_t *len);
/* The file at path holds exactly text. */
void sbtest_assert_file_equal(const char *path, const char *text);
/* The names in dir other than . and ..; with part, only those that contain it. */
unsigned sbtest_count_entries(const char *dir, const char *part);

/* The path of tests/data/NAME under $top_srcdir (set by the test harness; "." when a test is
 * run by hand from the top of the tree), malloc'd. */
char *sbtest_data_path(const char *name);

/* exp initialised with the registry's defaults, then each of sets (NULL-terminated, as
 * --set takes them) applied; each must be taken. The caller frees exp. */
void sbtest_experiment_from_sets(struct sb_experiment *exp, const char *const *sets);

/* err records status and exactly the message msg. */
void sbtest_assert_error(const struct sb_error *err, int status, const char *msg);
/* err records status and a message that contains part. */
void sbtest_assert_error_contains(const struct sb_error *err, int status, const char *part);

#endif
