/* SPDX-License-Identifier: BSD-3-Clause */
/* source.c: the IO-cache source registry. */
#include "config.h"
#include "vocab/source.h"

#include <string.h>

const struct sb_source sb_sources[] = {
    {"memory", "the simulated kernel IO cache: the table's pages in RAM (the thread's memtable)",
     false, "a DMA-like fill: each page's IO-cache frame is rewritten in place with non-temporal "
     "stores just before its copy, so the source is in no CPU cache (the thread's bigtable)"},
    {"file", "a real file of heap pages in data_dir, read page by page with pread() into the "
     "pool buffer: the operating system copies (kernel pread); the page cache is warmed first",
     true, "the file is dropped from the page cache (posix_fadvise DONTNEED) before each scan "
     "and behind it, so every read comes from the device"},
    {NULL, NULL, false, NULL},
};

const struct sb_source *sb_source_find(const char *name)
{
    for (const struct sb_source *s = sb_sources; s->name; s++)
        if (strcmp(s->name, name) == 0)
            return s;
    return NULL;
}
