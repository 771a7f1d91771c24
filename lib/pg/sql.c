/* SPDX-License-Identifier: BSD-3-Clause */
/* sql.c: the statements that differ by server version (see sql.h). */
#include "config.h"
#include "pg/sql.h"

#include <inttypes.h>
#include <stdio.h>

bool sb_pg_sql_spoken(int num)
{
    return (num >= 80100 && num < 80400) || num >= 90600;
}

const char *sb_pg_sql_settings(int num)
{
    if (num >= 90400)
        return "SELECT json_object_agg(name, current_setting(name) ORDER BY name) FROM "
               "pg_settings WHERE source NOT IN ('default', 'override') OR name IN "
               "('block_size', 'huge_pages', 'server_version', 'shared_memory_type', "
               "'data_checksums')";
    /* no backslash in the literals: before 9.1 they are escapes (standard_conforming_strings
     * off); chr(34) is '"', chr(92) '\' */
    return "SELECT '{' || array_to_string(ARRAY(SELECT chr(34) || name || chr(34) || ': ' || "
           "chr(34) || replace(replace(current_setting(name), chr(92), chr(92) || chr(92)), "
           "chr(34), chr(92) || chr(34)) || chr(34) FROM pg_settings WHERE source NOT IN "
           "('default', 'override') OR name IN ('block_size', 'server_version') ORDER BY "
           "name), ', ') || '}'";
}

void sb_pg_sql_vacuum(int num, bool verbose, int64_t limit, const char *table, char *sql,
                      size_t len)
{
    char option[64] = "";

    if (limit >= 0 && num >= 160000) /* in kB: '0kB' is no ring */
        snprintf(option, sizeof option, ", BUFFER_USAGE_LIMIT '%" PRId64 "kB'", limit / 1024);
    if (num >= 90600)
        snprintf(sql, len, "VACUUM (%sDISABLE_PAGE_SKIPPING%s) %s", verbose ? "VERBOSE, " : "",
                 option, table);
    else
        snprintf(sql, len, "VACUUM %s%s", verbose ? "VERBOSE " : "", table);
}

void sb_pg_sql_relation_file(int num, const char *table, char *sql, size_t len)
{
    if (num >= 90000)
        snprintf(sql, len, "SELECT pg_relation_filenode('%s') || ' ' || "
                 "pg_relation_filepath('%s')", table, table);
    else
        snprintf(sql, len, "SELECT relfilenode || ' ' || reltablespace || ' ' || (SELECT oid "
                 "FROM pg_database WHERE datname = current_database()) FROM pg_class WHERE "
                 "relname = '%s'", table);
}

bool sb_pg_parse_relation_file(int num, const char *value, uint64_t *filenode, char *path,
                               size_t len)
{
    uint64_t tablespace, database;
    int used = 0;

    if (num >= 90000) {
        if (sscanf(value, "%" SCNu64 " %n", filenode, &used) != 1 || !value[used])
            return false;
        snprintf(path, len, "%s", value + used);
        return true;
    }
    if (sscanf(value, "%" SCNu64 " %" SCNu64 " %" SCNu64 "%n", filenode, &tablespace, &database,
               &used) != 3 || value[used])
        return false;
    if (tablespace == 0) /* the database's default: pg_default here */
        snprintf(path, len, "base/%" PRIu64 "/%" PRIu64, database, *filenode);
    else
        snprintf(path, len, "pg_tblspc/%" PRIu64 "/%" PRIu64 "/%" PRIu64, tablespace, database,
                 *filenode);
    return true;
}

void sb_pg_sql_occupancy(int num, uint64_t filenode, uint64_t database, char *sql, size_t len)
{
    if (num >= 90400)
        snprintf(sql, len, "SELECT count(*) FILTER (WHERE relfilenode = %" PRIu64 " AND "
                 "relforknumber = 0 AND reldatabase = %" PRIu64 ") || ' ' || count(relfilenode) "
                 "FROM pg_buffercache", filenode, database);
    else
        snprintf(sql, len, "SELECT sum(CASE WHEN relfilenode = %" PRIu64 " AND reldatabase = "
                 "%" PRIu64 "%s THEN 1 ELSE 0 END) || ' ' || count(relfilenode) FROM "
                 "pg_buffercache", filenode, database,
                 num >= 80400 ? " AND relforknumber = 0" : "");
}

bool sb_pg_sql_explains_buffers(int num)
{
    return num >= 90000;
}

bool sb_pg_sql_extensions(int num)
{
    return num >= 90100;
}
