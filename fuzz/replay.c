/* SPDX-License-Identifier: BSD-3-Clause */
/* replay.c: the fuzz targets without libFuzzer: a main() that hands each file named on the
 * command line (or each file of each directory named) to LLVMFuzzerTestOneInput once, as the
 * fuzzer would. `make check` replays the seed corpora and tests/fuzz/regressions/ through it,
 * so every input that once crashed a reader stays fixed. */
#include "config.h"
#include "fuzz.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Replays one file; returns 0, or 1 when it cannot be read. */
static int replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    uint8_t *data = NULL;
    long size;
    int status = 1;

    if (!f) {
        fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
        return 1;
    }
    if (fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0)
        goto out;
    data = malloc((size_t)size + 1);
    if (!data || fread(data, 1, (size_t)size, f) != (size_t)size)
        goto out;
    fprintf(stderr, "replay: %s (%ld bytes)\n", path, size);
    LLVMFuzzerTestOneInput(data, (size_t)size);
    status = 0;
out:
    if (status)
        fprintf(stderr, "replay: %s: cannot read\n", path);
    free(data);
    fclose(f);
    return status;
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Replays every regular file of dir, in name order; returns the number that failed. */
static int replay_dir(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char **names = NULL;
    size_t n = 0, cap = 0;
    int failed = 0;

    if (!d) {
        fprintf(stderr, "replay: %s: %s\n", dir, strerror(errno));
        return 1;
    }
    while ((e = readdir(d)) != NULL) {
        char **grown;
        if (e->d_name[0] == '.')
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            if (!(grown = realloc(names, cap * sizeof *names))) {
                failed++;
                break;
            }
            names = grown;
        }
        if (!(names[n] = malloc(strlen(dir) + strlen(e->d_name) + 2))) {
            failed++;
            break;
        }
        sprintf(names[n++], "%s/%s", dir, e->d_name);
    }
    closedir(d);
    if (n)
        qsort(names, n, sizeof *names, compare_names);
    for (size_t i = 0; i < n; i++) {
        struct stat st;
        if (stat(names[i], &st) == 0 && S_ISREG(st.st_mode))
            failed += replay_file(names[i]);
        free(names[i]);
    }
    free(names);
    return failed;
}

int main(int argc, char **argv)
{
    int failed = 0;

    if (argc < 2) {
        fprintf(stderr, "usage: %s FILE|DIR...\n", argv[0]);
        return 2;
    }
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode))
            failed += replay_dir(argv[i]);
        else
            failed += replay_file(argv[i]);
    }
    return failed ? 1 : 0;
}
