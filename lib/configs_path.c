/* configs_path.c: finding data files under the configs directories (environment, source tree,
 * installed data), so that a built tree and an installed scanbench read the same files. */
#include "config.h"
#include "configs_path.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int sb_configs_dirs(const char *dirs[SB_CONFIGS_MAX_DIRS])
{
    const char *env = getenv("SCANBENCH_CONFIGS");
    int n = 0;

    if (env && *env)
        dirs[n++] = env;
#ifdef SB_SRCDIR_CONFIGS
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
