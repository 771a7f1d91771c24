/* SPDX-License-Identifier: BSD-3-Clause */
/* source.h: the registry of IO caches pages come from. `memory`: the simulated kernel IO cache,
 * a region in RAM (the thread's "memtable"); `file`: a real file of heap pages in a scratch
 * directory, read page by page with pread() into the pool buffer, so the operating system does
 * the copy (source_file.h). Either can be a bigtable (key `bigtable`): a table that does not fit
 * in the IO cache, every page arriving from the device just before it is copied. */
#ifndef SB_SOURCE_H
#define SB_SOURCE_H

#include <stdbool.h>

struct sb_source {
    const char *name;
    const char *description;
    bool is_file;          /* pages are read from a file with pread (kernel `pread`) */
    const char *bigtable;  /* what `bigtable = yes` does with this source */
};

extern const struct sb_source sb_sources[]; /* terminated by an entry whose name is NULL */

const struct sb_source *sb_source_find(const char *name);

#endif
