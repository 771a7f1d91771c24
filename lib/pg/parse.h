/* parse.h: reading what a PostgreSQL server prints: `postgres --version`, the buffer
 * figures of EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) (shared blocks hit and read, from the top
 * plan node, which includes its children) and of VACUUM (VERBOSE) ("buffer usage: N hits, M
 * misses, K dirtied"). Pure. */
#ifndef SB_PG_PARSE_H
#define SB_PG_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sb_pg_buffers {
    bool have;
    int64_t hit;     /* shared blocks found in shared_buffers */
    int64_t read;    /* shared blocks read in (from the OS cache): VACUUM's "misses" */
    int64_t dirtied; /* shared blocks dirtied */
};

/* "postgres (PostgreSQL) 15.20 (Debian 15.20-0+deb12u1)\n" -> "15.20 (Debian
 * 15.20-0+deb12u1)" and 15 (for 9.6: 9). False if the text is not one. */
bool sb_pg_parse_version(const char *text, char *version, size_t len, int *major);

/* EXPLAIN (..., FORMAT JSON) output -> the top plan node's shared hit/read/dirtied blocks. */
bool sb_pg_parse_explain(const char *json_text, struct sb_pg_buffers *out);

/* VACUUM (VERBOSE) messages (all of them, concatenated) -> the buffer usage of the first
 * relation whose "vacuuming" line names `relation` (e.g. "public.lineitem": its TOAST table
 * comes after it and is skipped). */
bool sb_pg_parse_vacuum_verbose(const char *messages, const char *relation,
                                struct sb_pg_buffers *out);

#endif
