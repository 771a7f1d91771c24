/* SPDX-License-Identifier: BSD-3-Clause */
/* this_host.c: whether a machine is the host's own (this_host.h). */
#include "config.h"
#include "core/this_host.h"

#include <string.h>

bool sb_machine_names_this_host(const char *name, const char *source)
{
    return (name && strcmp(name, "auto") == 0) ||
           (source && strstr(source, SB_PROBE_SOURCE_MARK) != NULL);
}
