/* configs_path.c: finding data files under the configs directories (environment, source tree
 * for the programs of the build tree, installed data), so that a built tree reads the files it
 * was built with and an installed scanbench its installed copies. */
#include "config.h"
#include "configs_path.h"

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
        return true; /* no /proc: as if built here, the order the README gives */
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
    if (strchr(name, '/')) {
        if (access(name, R_OK) != 0)
            return sb_fail(err, SB_ERR_INPUT, "%s: cannot read", name);
        snprintf(path, len, "%s", name);
        return SB_OK;
    }
    n = sb_configs_dirs(dirs);
    for (int i = 0; i < n; i++) {
        snprintf(path, len, "%s/%s/%s%s", dirs[i], subdir, name, ext);
        if (access(path, R_OK) == 0)
            return SB_OK;
        used += (size_t)snprintf(tried + used, used < sizeof tried ? sizeof tried - used : 0,
                                 "%s%s", i ? ", " : "", path);
    }
    path[0] = '\0';
    return sb_fail(err, SB_ERR_INPUT, "%s: no such file in configs/%s (tried %s)", name, subdir,
                   n ? tried : "nothing: no configs directory is known");
}
