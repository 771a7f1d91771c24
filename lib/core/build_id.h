/* SPDX-License-Identifier: BSD-3-Clause */
/* build_id.h: the commit the program was built from, as make read it at its last run
 * ("05cdc224bbd5", "...-dirty" when tracked files differed from it; configure's SB_GIT_HASH
 * without git): what --version and a report's context name. */
#ifndef SB_BUILD_ID_H
#define SB_BUILD_ID_H

const char *sb_build_git(void);

#endif
