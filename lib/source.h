/* source.h: the registry of IO caches pages come from. `memory`: the simulated kernel IO cache,
 * a region in RAM (the thread's "memtable"). The file and bigtable sources extend this table. */
#ifndef SB_SOURCE_H
#define SB_SOURCE_H

struct sb_source {
    const char *name;
    const char *description;
};

extern const struct sb_source sb_sources[]; /* terminated by an entry whose name is NULL */

const struct sb_source *sb_source_find(const char *name);

#endif
