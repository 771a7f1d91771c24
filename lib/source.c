/* source.c: the IO-cache source registry. */
#include "config.h"
#include "source.h"

#include <string.h>

const struct sb_source sb_sources[] = {
    {"memory", "the simulated kernel IO cache: the table's pages in RAM (the thread's memtable)"},
    {NULL, NULL},
};

const struct sb_source *sb_source_find(const char *name)
{
    for (const struct sb_source *s = sb_sources; s->name; s++)
        if (strcmp(s->name, name) == 0)
            return s;
    return NULL;
}
