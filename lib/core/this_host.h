/* SPDX-License-Identifier: BSD-3-Clause */
/* this_host.h: the one rule for "this machine is the host", which the cache model (on its
 * machine struct) and the report (on a run's JSON) both apply: a machine named `auto` (the
 * host's topology), or a file `scanbench probe` wrote (its source says so). */
#ifndef SB_THIS_HOST_H
#define SB_THIS_HOST_H

#include <stdbool.h>

/* What every source `scanbench probe` writes into a machine file contains. */
#define SB_PROBE_SOURCE_MARK "scanbench probe"

/* Whether the machine of this name and source (either may be NULL) is the host's own. */
bool sb_machine_names_this_host(const char *name, const char *source);

#endif
