/* SPDX-License-Identifier: BSD-3-Clause */
/* build_id.c: the commit the program was built from (see build_id.h). Only this file includes
 * the header make writes (lib/core/git_hash.h), so a new commit recompiles it alone. */
#include "config.h"
#include "core/build_id.h"

#include "core/git_hash.h"

const char *sb_build_git(void)
{
    return SB_BUILD_GIT;
}
