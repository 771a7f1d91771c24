/* SPDX-License-Identifier: BSD-3-Clause */
/* gzip.c: a report's text compressed and inflated whole in memory with zlib (see gzip.h). */
#include "config.h"
#include "report/gzip.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define GZIP_WINDOW (15 + 16) /* deflate's largest window, inside a gzip wrapper */
#define CHUNK_MAX ((size_t)UINT_MAX) /* zlib counts its input and output as uInt */

bool sb_report_gz_named(const char *path)
{
    size_t n = strlen(path);

    return n > 3 && strcmp(path + n - 3, ".gz") == 0;
}

/* Feeds the next part of data (len bytes, *done of them given already) to z. */
static void feed(z_stream *z, const char *data, size_t len, size_t *done)
{
    size_t part = len - *done < CHUNK_MAX ? len - *done : CHUNK_MAX;

    if (z->avail_in > 0)
        return;
    z->next_in = (Bytef *)(data + *done);
    z->avail_in = (uInt)part;
    *done += part;
}

int sb_report_gz_deflate(const char *text, size_t len, const char *path, char **out,
                         size_t *out_len, struct sb_error *err)
{
    z_stream z;
    size_t given = 0, bound;
    char *buf = NULL;
    int status = SB_OK, ret = Z_OK;

    *out = NULL;
    memset(&z, 0, sizeof z);
    if (deflateInit2(&z, Z_BEST_COMPRESSION, Z_DEFLATED, GZIP_WINDOW, 8,
                     Z_DEFAULT_STRATEGY) != Z_OK)
        return sb_fail(err, SB_ERR_RUN, "%s: out of memory to compress the report", path);
    bound = deflateBound(&z, (uLong)len);
    if (!(buf = malloc(bound))) {
        status = sb_fail(err, SB_ERR_RUN, "%s: out of memory to compress the report", path);
        goto out;
    }
    z.next_out = (Bytef *)buf;
    while (ret == Z_OK) {
        feed(&z, text, len, &given);
        if (z.avail_out == 0)
            z.avail_out = (uInt)(bound - z.total_out < CHUNK_MAX ? bound - z.total_out
                                                                 : CHUNK_MAX);
        ret = deflate(&z, given == len ? Z_FINISH : Z_NO_FLUSH);
    }
    if (ret != Z_STREAM_END) {
        status = sb_fail(err, SB_ERR_RUN, "%s: cannot compress the report: %s", path,
                         z.msg ? z.msg : "zlib failed");
        goto out;
    }
    *out = buf;
    *out_len = z.total_out;
    buf = NULL;
out:
    deflateEnd(&z);
    free(buf);
    return status;
}

/* Room for at least one more byte after used ones in *buf (*cap bytes), doubled. */
static bool grow(char **buf, size_t *cap, size_t used)
{
    char *bigger;

    if (used + 1 < *cap)
        return true;
    if (*cap > SIZE_MAX / 2 || !(bigger = realloc(*buf, *cap * 2)))
        return false;
    *buf = bigger;
    *cap *= 2;
    return true;
}

int sb_report_gz_inflate(const char *data, size_t len, const char *path, char **out,
                         size_t *out_len, struct sb_error *err)
{
    z_stream z;
    size_t given = 0, used = 0, cap = len < SIZE_MAX / 8 ? len * 4 + 4096 : len;
    char *buf = malloc(cap);
    int status = SB_OK, ret = Z_OK;

    *out = NULL;
    memset(&z, 0, sizeof z);
    if (!buf || inflateInit2(&z, GZIP_WINDOW) != Z_OK) {
        free(buf);
        return sb_fail(err, SB_ERR_RUN, "%s: out of memory to inflate the report", path);
    }
    for (;;) {
        feed(&z, data, len, &given);
        if (!grow(&buf, &cap, used)) {
            status = sb_fail(err, SB_ERR_RUN, "%s: out of memory to inflate the report", path);
            goto out;
        }
        z.next_out = (Bytef *)(buf + used);
        z.avail_out = (uInt)(cap - 1 - used < CHUNK_MAX ? cap - 1 - used : CHUNK_MAX);
        ret = inflate(&z, Z_NO_FLUSH);
        used = (size_t)((char *)z.next_out - buf);
        if (ret == Z_STREAM_END && z.avail_in == 0 && given == len)
            break;
        if (ret == Z_STREAM_END) /* another member follows, as gzip(1) writes them */
            ret = inflateReset(&z);
        if (ret == Z_MEM_ERROR)
            status = sb_fail(err, SB_ERR_RUN, "%s: out of memory to inflate the report", path);
        else if (ret == Z_BUF_ERROR && z.avail_in == 0 && given == len)
            status = sb_fail(err, SB_ERR_INPUT, "%s: not a whole gzip file (truncated: it "
                             "ends inside its compressed data)", path);
        else if (ret != Z_OK && ret != Z_BUF_ERROR)
            status = sb_fail(err, SB_ERR_INPUT, "%s: not a whole gzip file (corrupt: %s)",
                             path, z.msg ? z.msg : "bad data");
        if (status != SB_OK)
            goto out;
    }
    buf[used] = '\0';
    *out = buf;
    *out_len = used;
    buf = NULL;
out:
    inflateEnd(&z);
    free(buf);
    return status;
}
