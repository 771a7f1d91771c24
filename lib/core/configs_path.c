/* SPDX-License-Identifier: BSD-3-Clause */
/* configs_path.c: finding data files under the configs directories (environment, source tree
 * for the programs of the build tree, installed data), so that a built tree reads the files it
 * was built with and an installed scanbench its installed copies. */
#include "config.h"
#include "core/configs_path.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/utf8.h"

/* Whether this program runs from the build tree (its bench/, tests/ or fuzz/) rather than as an
 * installed copy: only the build tree's programs read the source tree's configs, so an
 * installed scanbench reads its own data whether or not the source tree is still there. */
static bool running_from_build_tree(void)
{
#ifdef SB_BUILDDIR
    static const char *const subdirs[] = {"bench", "tests", "fuzz"};
    char exe[PATH_MAX], dir[PATH_MAX], real[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    char *slash;

    if (n <= 0)
        return true; /* no /proc: as if built here, the order man scanbench gives */
    exe[n] = '\0';
    if (!(slash = strrchr(exe, '/')))
        return true;
    *slash = '\0';
    for (size_t i = 0; i < sizeof subdirs / sizeof subdirs[0]; i++) {
        snprintf(dir, sizeof dir, "%s/%s", SB_BUILDDIR, subdirs[i]);
        if (realpath(dir, real) && strcmp(real, exe) == 0)
            return true;
    }
    return false;
#else
    return true;
#endif
}

int sb_path_check(const char *path, struct sb_error *err)
{
    if (strlen(path) >= SB_PATH_MAX)
        return sb_fail(err, SB_ERR_INPUT, "%.80s...: a path of %zu bytes (at most %d)", path,
                       strlen(path), SB_PATH_MAX - 1);
    if (!sb_utf8_valid(path))
        return sb_fail(err, SB_ERR_INPUT, "%s: the path is not UTF-8 (a report holds UTF-8 "
                       "text only)", path);
    return SB_OK;
}

int sb_configs_check_env(struct sb_error *err)
{
    const char *env = getenv("SCANBENCH_CONFIGS");
    struct stat st;

    if (!env || !*env)
        return SB_OK;
    if (strlen(env) >= SB_PATH_MAX - 128)
        return sb_fail(err, SB_ERR_INPUT, "SCANBENCH_CONFIGS=%.80s...: a path of %zu bytes (at "
                       "most %d, leaving room for its files)", env, strlen(env),
                       SB_PATH_MAX - 129);
    if (!sb_utf8_valid(env))
        return sb_fail(err, SB_ERR_INPUT, "SCANBENCH_CONFIGS=%s: the path is not UTF-8 (a "
                       "report holds UTF-8 text only)", env);
    if (stat(env, &st) != 0 || !S_ISDIR(st.st_mode))
        return sb_fail(err, SB_ERR_INPUT, "SCANBENCH_CONFIGS=%s: not a directory (the configs "
                       "directory: experiments/, machines/, events/)", env);
    return SB_OK;
}

int sb_configs_dirs(const char *dirs[SB_CONFIGS_MAX_DIRS])
{
    const char *env = getenv("SCANBENCH_CONFIGS");
    int n = 0;

    if (env && *env)
        dirs[n++] = env;
#ifdef SB_SRCDIR_CONFIGS
    if (running_from_build_tree())
        dirs[n++] = SB_SRCDIR_CONFIGS;
#endif
#ifdef SB_PKGDATA_CONFIGS
    dirs[n++] = SB_PKGDATA_CONFIGS;
#endif
    return n;
}

int sb_configs_find(const char *subdir, const char *name, char *path, size_t len,
                    struct sb_error *err)
{
    const char *dirs[SB_CONFIGS_MAX_DIRS];
    const char *base = strrchr(name, '/') ? strrchr(name, '/') + 1 : name;
    const char *ext = strchr(base, '.') ? "" : ".ini";
    char tried[768] = "";
    size_t used = 0;
    int n;

    if (*name == '\0')
        return sb_fail(err, SB_ERR_INPUT, "empty file name");
    if (sb_path_check(name, err) != SB_OK)
        return SB_ERR_INPUT;
    if (strchr(name, '/')) {
        if (access(name, R_OK) != 0)
            return sb_fail(err, SB_ERR_INPUT, "%s: cannot read: %s", name, strerror(errno));
        if ((size_t)snprintf(path, len, "%s", name) >= len)
            return sb_fail(err, SB_ERR_INPUT, "%.80s...: a path of more than %zu bytes", name,
                           len - 1);
        return SB_OK;
    }
    n = sb_configs_dirs(dirs);
    for (int i = 0; i < n; i++) {
        if ((size_t)snprintf(path, len, "%s/%s/%s%s", dirs[i], subdir, name, ext) >= len)
            return sb_fail(err, SB_ERR_INPUT, "%.80s...: a path of more than %zu bytes", path,
                           len - 1);
        if (access(path, R_OK) == 0)
            return SB_OK;
        used += (size_t)snprintf(tried + used, used < sizeof tried ? sizeof tried - used : 0,
                                 "%s%s", i ? ", " : "", path);
    }
    path[0] = '\0';
    return sb_fail(err, SB_ERR_INPUT, "%s: no such file in configs/%s (tried %s)", name, subdir,
                   n ? tried : "nothing: no configs directory is known");
}

/* Whether names[0..n-1] holds name. */
static bool listed(char names[][SB_CONFIGS_NAME_MAX], int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(names[i], name) == 0)
            return true;
    return false;
}

/* The names of dir's .ini files that keep takes, added to names (n of them so far, at most
 * max); the new count. */
static int names_in(const char *dir_path, bool (*keep)(const char *file),
                    char names[][SB_CONFIGS_NAME_MAX], int n, int max)
{
    DIR *dir = opendir(dir_path);
    struct dirent *e;

    while (dir && (e = readdir(dir)) != NULL && n < max) {
        size_t len = strlen(e->d_name);
        char file[SB_PATH_MAX + 256], name[SB_CONFIGS_NAME_MAX];
        if (len < 5 || len - 4 >= SB_CONFIGS_NAME_MAX || strcmp(e->d_name + len - 4, ".ini") != 0)
            continue;
        snprintf(name, sizeof name, "%.*s", (int)(len - 4), e->d_name);
        snprintf(file, sizeof file, "%s/%s", dir_path, e->d_name);
        if (!listed(names, n, name) && (!keep || keep(file)))
            memcpy(names[n++], name, sizeof name);
    }
    if (dir)
        closedir(dir);
    return n;
}

int sb_configs_names(const char *subdir, bool first_only, bool (*keep)(const char *file),
                     char names[][SB_CONFIGS_NAME_MAX], int max)
{
    const char *dirs[SB_CONFIGS_MAX_DIRS];
    int ndirs = sb_configs_dirs(dirs), n = 0;

    for (int d = 0; d < ndirs && !(first_only && n > 0); d++) {
        char path[SB_PATH_MAX + 64];
        snprintf(path, sizeof path, "%s/%s", dirs[d], subdir);
        n = names_in(path, keep, names, n, max);
    }
    qsort(names, (size_t)n, sizeof names[0], (int (*)(const void *, const void *))strcmp);
    return n;
}
