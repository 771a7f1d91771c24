/* SPDX-License-Identifier: BSD-3-Clause */
/* sql.h: the statements scanbench pg sends that differ by the server's version (as
 * server_version_num: 80121, 150020), each boundary with where it comes from:
 *   - VACUUM's options in parentheses from 9.0, DISABLE_PAGE_SKIPPING from 9.6 (the visibility
 *     map, 8.4 on, lets a plain VACUUM skip pages; before 8.4 a VACUUM reads every page, and
 *     8.1-8.3 take `VACUUM VERBOSE t` only: tests/data/pg/server-8.x.txt);
 *   - pg_settings as one JSON object: json_object_agg from 9.4; before, built from strings;
 *   - the table's file: pg_relation_filepath and pg_relation_filenode from 9.0; before, from
 *     pg_class (relfilenode, reltablespace): base/DB/FILENODE or pg_tblspc/SPC/DB/FILENODE;
 *   - pg_buffercache's rows of the table: relforknumber from 8.4 (the forks), count(*) FILTER
 *     from 9.4; before, sum(CASE ...);
 *   - EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) and VACUUM (VERBOSE)'s buffer usage from 9.0;
 *   - CREATE EXTENSION from 9.1; before, contrib's pg_buffercache.sql is run.
 * Servers from 8.4 to 9.5 are not measured (sb_pg_sql_spoken): a VACUUM there may skip pages
 * and has no option to read them all. Pure. */
#ifndef SB_PG_SQL_H
#define SB_PG_SQL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Whether scanbench pg speaks this version's SQL: 8.1 to 8.3, and 9.6 on. */
bool sb_pg_sql_spoken(int num);

/* The statement that returns the settings not at their default (and a few always) as one JSON
 * object, name -> current_setting. */
const char *sb_pg_sql_settings(int num);

/* The op vacuum's statement over table, reading every page; verbose: with its messages;
 * limit: VACUUM's ring in bytes as BUFFER_USAGE_LIMIT (16 on; 0: none; -1: the server's
 * vacuum_buffer_usage_limit, no option). */
void sb_pg_sql_vacuum(int num, bool verbose, int64_t limit, const char *table, char *sql,
                      size_t len);

/* The statement whose one value locates table's main fork ("FILENODE PATH" from 9.0, "FILENODE
 * TABLESPACE DATABASE" before). */
void sb_pg_sql_relation_file(int num, const char *table, char *sql, size_t len);

/* That value -> the file's node and its path relative to the data directory. */
bool sb_pg_parse_relation_file(int num, const char *value, uint64_t *filenode, char *path,
                               size_t len);

/* The statement that returns "TABLE_BUFFERS USED_BUFFERS" from pg_buffercache. */
void sb_pg_sql_occupancy(int num, uint64_t filenode, uint64_t database, char *sql, size_t len);

/* Whether EXPLAIN and VACUUM VERBOSE say the buffers a statement used (9.0 on). */
bool sb_pg_sql_explains_buffers(int num);

/* Whether pg_buffercache is installed with CREATE EXTENSION (9.1 on), else by its script. */
bool sb_pg_sql_extensions(int num);

#endif
