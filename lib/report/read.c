/* SPDX-License-Identifier: BSD-3-Clause */
/* read.c: reading and checking a scanbench report file, gzip-compressed where its name ends in
 * ".gz" (gzip.h). */
#include "config.h"
#include "report/read.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "report/bounds.h"
#include "report/field.h"
#include "report/gzip.h"
#include "report/runs.h"
#include "report/schema.h"
#include "vocab/vocab.h"

/* Every run must carry these, with these JSON types, for the readers to work on it. */
static const struct {
    const char *key;
    json_type type;
} run_fields[] = {
    {"name", JSON_STRING},       {"source", JSON_STRING},   {"policy", JSON_STRING},
    {"kernel", JSON_STRING},     {"op", JSON_STRING},       {"table_size", JSON_INTEGER},
    {"pool_size", JSON_INTEGER}, {"ring_size", JSON_INTEGER}, {"page_size", JSON_INTEGER},
    {"footprint", JSON_INTEGER}, {"repetitions", JSON_ARRAY}, {"mbps", JSON_OBJECT},
    {"counters", JSON_OBJECT},   {"row_width", JSON_INTEGER}, {"dead_pct", JSON_INTEGER},
    {"threads", JSON_INTEGER},
};

/* The write-back's figures of a timed scan (issue 18): absent in reports before it, else
 * non-negative integers. */
static const char *const scan_writeback_fields[] = {"written_evict", "written_checkpoint",
                                                    "bytes_copied_in", "bytes_written_back",
                                                    NULL};

static bool scan_writeback_ok(const json_t *scan)
{
    for (int f = 0; scan_writeback_fields[f]; f++) {
        const json_t *v = json_object_get(scan, scan_writeback_fields[f]);
        if (v && (!json_is_integer(v) || json_integer_value(v) < 0))
            return false;
    }
    return true;
}

/* A run's write-back and hint bits (issue 18) and executor (issue 28): absent in reports before
 * them, else their words. */
static bool run_writeback_ok(const json_t *run)
{
    const json_t *writeback = json_object_get(run, "writeback");
    const json_t *hint_bits = json_object_get(run, "hint_bits");

    const json_t *executor = json_object_get(run, "executor");

    if (executor && !(json_is_string(executor) && sb_executor_find(json_string_value(executor))))
        return false;
    return (!writeback || (json_is_string(writeback) &&
                           sb_writeback_find(json_string_value(writeback)))) &&
           (!hint_bits || (json_is_string(hint_bits) &&
                           (strcmp(json_string_value(hint_bits), "set") == 0 ||
                            strcmp(json_string_value(hint_bits), "unset") == 0)));
}

#define WHAT_SECONDS "a time from 1 ns to a day"
#define WHAT_BYTES "a number of bytes from 1 to 2^50 (1PB)"

/* Schema 2: a list of timed scans, each with its round, position, seconds and bytes. */
static int check_scans(const json_t *scans, const char *path, const char *what, size_t i,
                       struct sb_error *err)
{
    char value[96];
    bool bytes_ok;
    size_t k;
    json_t *scan;

    if (!json_is_array(scans) || json_array_size(scans) > SB_REPORT_MAX_SCANS)
        return sb_fail(err, SB_ERR_INPUT, "%s: %s %zu: \"scans\" missing, not a list, or longer "
                       "than %llu", path, what, i,
                       (unsigned long long)SB_REPORT_MAX_SCANS);
    json_array_foreach(scans, k, scan) {
        const json_t *round = json_object_get(scan, "round"), *pos = json_object_get(scan,
                                                                                    "position");
        const json_t *seconds = json_object_get(scan, "seconds"), *bytes = json_object_get(scan,
                                                                                        "bytes");
        if (!json_is_integer(round) || json_integer_value(round) < 0 ||
            json_integer_value(round) >= (json_int_t)SB_REPORT_MAX_SCANS ||
            !json_is_integer(pos) || json_integer_value(pos) < 0 || !json_is_number(seconds) ||
            !json_is_integer(bytes) ||
            !(json_is_number(json_object_get(scan, "at")) ||
              json_is_null(json_object_get(scan, "at"))))
            return sb_fail(err, SB_ERR_INPUT, "%s: %s %zu: scan %zu lacks a round (0 to %llu), "
                           "a position, a time (or null), seconds or bytes", path, what, i, k,
                           (unsigned long long)SB_REPORT_MAX_SCANS - 1);
        bytes_ok = sb_report_bytes_ok(bytes);
        if (!bytes_ok || !sb_report_seconds_ok(seconds))
            return sb_fail(err, SB_ERR_INPUT, "%s: %s %zu: scan %zu: \"%s\" is %s: not %s", path,
                           what, i, k, bytes_ok ? "seconds" : "bytes",
                           sb_report_value_text(bytes_ok ? seconds : bytes, value, sizeof value),
                           bytes_ok ? WHAT_SECONDS : WHAT_BYTES);
        if (!scan_writeback_ok(scan))
            return sb_fail(err, SB_ERR_INPUT, "%s: %s %zu: scan %zu: a write-back figure that "
                           "is not a non-negative integer", path, what, i, k);
    }
    return SB_OK;
}

/* Schema 2: the schedule block and its reference run's second timings. */
static int check_schedule(const json_t *doc, const char *path, struct sb_error *err)
{
    const json_t *schedule = json_object_get(doc, "schedule");
    const json_t *reference = json_object_get(schedule, "reference");

    if (!json_is_object(schedule) || !json_is_string(json_object_get(schedule, "kind")))
        return sb_fail(err, SB_ERR_INPUT, "%s: report without a \"schedule\" block", path);
    if (json_is_null(reference) || !reference)
        return SB_OK;
    if (!json_is_string(json_object_get(reference, "run")))
        return sb_fail(err, SB_ERR_INPUT, "%s: schedule.reference without a run", path);
    return check_scans(json_object_get(reference, "scans"), path, "schedule.reference", 0, err);
}

/* The document's top level: the schema, a version this scanbench reads, "runs" and "context",
 * and no more runs than scanbench writes. */
static int check_header(const json_t *doc, const char *path, struct sb_error *err)
{
    const char *schema = json_string_value(json_object_get(doc, "schema"));
    json_int_t version = json_integer_value(json_object_get(doc, "schema_version"));
    const json_t *runs = json_object_get(doc, "runs");

    if (!json_is_object(doc) || !schema || strcmp(schema, SB_REPORT_SCHEMA) != 0)
        return sb_fail(err, SB_ERR_INPUT, "%s: not a scanbench report (no \"schema\": \"%s\")",
                       path, SB_REPORT_SCHEMA);
    if (!json_is_integer(json_object_get(doc, "schema_version")))
        return sb_fail(err, SB_ERR_INPUT, "%s: report without an integer \"schema_version\" "
                       "(this scanbench reads version %d)", path, SB_REPORT_SCHEMA_VERSION);
    if (version < SB_REPORT_SCHEMA_OLDEST || version > SB_REPORT_SCHEMA_VERSION)
        return sb_fail(err, SB_ERR_INPUT, "%s: report schema version %lld, this scanbench "
                       "reads versions %d to %d", path, (long long)version,
                       SB_REPORT_SCHEMA_OLDEST, SB_REPORT_SCHEMA_VERSION);
    if (!json_is_array(runs) || !json_is_object(json_object_get(doc, "context")))
        return sb_fail(err, SB_ERR_INPUT, "%s: report without \"runs\" or \"context\"", path);
    /* bounds scanbench itself keeps (report.h: the plan's and the repetitions key's), so that
     * compare's pairing and Mann-Whitney U stay quick whatever a file holds */
    if (json_array_size(runs) > SB_REPORT_MAX_RUNS)
        return sb_fail(err, SB_ERR_INPUT, "%s: %zu runs: scanbench writes at most %d", path,
                       json_array_size(runs), SB_REPORT_MAX_RUNS);
    return SB_OK;
}

/* Whether phase is one of the phase keys (runs.h), each an object with a "derived" block of
 * numbers or nulls and a "values" block of arrays (one count per counted scan). */
static bool phase_ok(const char *key, const json_t *phase)
{
    const json_t *derived = json_object_get(phase, "derived"), *v;
    const char *k;
    bool known = false;

    for (int p = 0; p < SB_REPORT_NPHASES; p++)
        known |= strcmp(key, sb_report_phase_keys[p]) == 0;
    if (!known || !json_is_object(derived) ||
        !json_is_object(json_object_get(phase, "values")))
        return false;
    json_object_foreach((json_t *)derived, k, v)
        if (!json_is_number(v) && !json_is_null(v))
            return false;
    json_object_foreach(json_object_get(phase, "values"), k, v)
        if (!json_is_array(v))
            return false;
    return true;
}

/* Run i's counters split by phase (`counters.phases`, optional): the renderers and the
 * verdict read them as phase_ok says. */
static int check_phases(const json_t *run, size_t i, const char *path, struct sb_error *err)
{
    const json_t *phases = sb_field(run, "counters.phases"), *phase;
    const char *key;

    if (!phases)
        return SB_OK;
    if (!json_is_object(phases))
        return sb_fail(err, SB_ERR_INPUT, "%s: run %zu: \"counters\" \"phases\" is not an "
                       "object", path, i);
    json_object_foreach((json_t *)phases, key, phase)
        if (!phase_ok(key, phase))
            return sb_fail(err, SB_ERR_INPUT, "%s: run %zu: counters phase \"%s\": not one of "
                           "copy_in, op, writeback with a \"derived\" block of numbers and "
                           "a \"values\" block of lists", path, i, key);
    return SB_OK;
}

/* Run i: its fields with their types, a positive median, its repetitions (each a positive
 * number of seconds) and, from schema 2, its scans. */
/* A run's sizes are positive and its counts possible (plot drew a footprint of 0 through
 * gnuplot's errors; compare took a pool of -1). */
static int check_sizes(const json_t *run, size_t i, const char *path, struct sb_error *err)
{
    /* a ring_size or pool_size of 0 is "none" (a clock run's ring, a live server's) */
    static const struct {
        const char *key;
        json_int_t least, most; /* most: the key's (plan/keys.c), 2^50 for the sizes */
    } sizes[] = {{"table_size", 1, 1ll << 50}, {"page_size", 1, 32 << 10},
                 {"footprint", 1, 1ll << 50}, {"threads", 1, 256}, {"pool_size", 0, 1ll << 50},
                 {"ring_size", 0, 1ll << 50}};
    json_int_t dead = json_integer_value(json_object_get(run, "dead_pct"));
    const json_t *per_scan = json_object_get(run, "bytes_per_scan");
    char value[96];

    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        json_int_t v = json_integer_value(json_object_get(run, sizes[k].key));
        if (v < sizes[k].least)
            return sb_fail(err, SB_ERR_INPUT, "%s: run %zu: \"%s\" is %lld: not a %s number",
                           path, i, sizes[k].key, (long long)v,
                           sizes[k].least ? "positive" : "whole");
        if (v > sizes[k].most)
            return sb_fail(err, SB_ERR_INPUT, "%s: run %zu: \"%s\" is %lld: more than "
                           "scanbench runs (at most %lld)", path, i, sizes[k].key, (long long)v,
                           (long long)sizes[k].most);
    }
    if (per_scan && !sb_report_bytes_ok(per_scan))
        return sb_fail(err, SB_ERR_INPUT, "%s: run %zu: \"bytes_per_scan\" is %s: not %s", path,
                       i, sb_report_value_text(per_scan, value, sizeof value), WHAT_BYTES);
    if (dead < 0 || dead > 100)
        return sb_fail(err, SB_ERR_INPUT, "%s: run %zu: \"dead_pct\" is %lld: not 0 to 100",
                       path, i, (long long)dead);
    return SB_OK;
}

/* The run's median MB/s lies among its own timed scans' (a median of 1e12 beside scans of
 * 12000 MB/s made compare's ratios up). */
static int check_median(const json_t *run, size_t i, const char *path, struct sb_error *err)
{
    double median = json_number_value(sb_field(run, "mbps.median"));
    double lo = INFINITY, hi = -INFINITY;
    size_t k;
    json_t *scan;

    json_array_foreach(json_object_get(run, "scans"), k, scan) {
        double v = json_number_value(json_object_get(scan, "mbps"));
        if (v > 0) {
            lo = fmin(lo, v);
            hi = fmax(hi, v);
        }
    }
    if (lo <= hi && (median < lo * (1 - 1e-9) || median > hi * (1 + 1e-9)))
        return sb_fail(err, SB_ERR_INPUT, "%s: run %zu: \"mbps\" \"median\" %g lies outside its "
                       "own timed scans' MB/s (%g to %g)", path, i, median, lo, hi);
    return SB_OK;
}

static int check_run(const json_t *run, size_t i, json_int_t version, const char *path,
                     struct sb_error *err)
{
    const json_t *seconds;
    char value[96];
    size_t r;

    for (size_t f = 0; f < sizeof run_fields / sizeof run_fields[0]; f++) {
        const json_t *v = json_object_get(run, run_fields[f].key);
        if (!v || json_typeof(v) != run_fields[f].type)
            return sb_fail(err, SB_ERR_INPUT, "%s: run %zu: \"%s\" missing or of the "
                           "wrong type", path, i, run_fields[f].key);
    }
    if (!run_writeback_ok(run))
        return sb_fail(err, SB_ERR_INPUT, "%s: run %zu: \"writeback\", \"hint_bits\" or "
                       "\"executor\" is not one of their words", path, i);
    if (!json_is_number(sb_field(run, "mbps.median")))
        return sb_fail(err, SB_ERR_INPUT, "%s: run %zu: \"mbps\" without a \"median\"", path,
                       i);
    if (!(json_number_value(sb_field(run, "mbps.median")) > 0))
        return sb_fail(err, SB_ERR_INPUT, "%s: run %zu: \"mbps\" \"median\" is not a "
                       "positive number", path, i);
    if (json_array_size(json_object_get(run, "repetitions")) > SB_REPORT_MAX_SCANS)
        return sb_fail(err, SB_ERR_INPUT, "%s: run %zu: more than %llu repetitions", path, i,
                       (unsigned long long)SB_REPORT_MAX_SCANS);
    json_array_foreach(json_object_get(run, "repetitions"), r, seconds) {
        if (!sb_report_seconds_ok(seconds))
            return sb_fail(err, SB_ERR_INPUT, "%s: run %zu: repetition %zu is %s: not %s", path,
                           i, r, sb_report_value_text(seconds, value, sizeof value),
                           WHAT_SECONDS);
    }
    if (check_phases(run, i, path, err) != SB_OK || check_sizes(run, i, path, err) != SB_OK)
        return SB_ERR_INPUT;
    if (version >= 2 && check_scans(json_object_get(run, "scans"), path, "run", i, err) != SB_OK)
        return SB_ERR_INPUT;
    return version >= 2 ? check_median(run, i, path, err) : SB_OK;
}

/* Checks a parsed document (doc, possibly NULL with jerr saying why); takes doc over. */
static int check_report(json_t *doc, const json_error_t *jerr, const char *path, json_t **report,
                        struct sb_error *err)
{
    const json_t *runs;
    json_int_t version;
    size_t i;
    int status;

    *report = NULL;
    if (!doc) {
        if (jerr->line < 0)
            return sb_fail(err, SB_ERR_INPUT, "%s: cannot read: %s", path, jerr->text);
        return sb_fail(err, SB_ERR_INPUT, "%s:%d:%d: not a scanbench report (%s%s)", path,
                       jerr->line, jerr->column, jerr->text,
                       json_error_code(jerr) == json_error_premature_end_of_input ? ": truncated?"
                                                                                  : "");
    }
    status = check_header(doc, path, err);
    version = json_integer_value(json_object_get(doc, "schema_version"));
    runs = json_object_get(doc, "runs");
    for (i = 0; status == SB_OK && i < json_array_size(runs); i++)
        status = check_run(json_array_get(runs, i), i, version, path, err);
    if (status == SB_OK && version >= 2)
        status = check_schedule(doc, path, err);
    if (status == SB_OK)
        status = sb_report_check_caches(doc, path, err);
    if (status == SB_OK)
        *report = doc;
    else
        json_decref(doc);
    return status;
}

/* The whole of the open file f (path) into *data (malloc'd, *len bytes). */
static int read_whole(FILE *f, const char *path, char **data, size_t *len, struct sb_error *err)
{
    size_t cap = 1 << 16, n;
    char *buf = malloc(cap), *bigger;
    int status = SB_OK;

    *len = 0;
    while (buf && (n = fread(buf + *len, 1, cap - *len, f)) > 0) {
        *len += n;
        if (*len == cap && (cap > SIZE_MAX / 2 || !(bigger = realloc(buf, cap * 2)))) {
            free(buf);
            buf = NULL;
        } else if (*len == cap) {
            buf = bigger;
            cap *= 2;
        }
    }
    if (!buf)
        status = sb_fail(err, SB_ERR_RUN, "%s: out of memory to read the report", path);
    else if (ferror(f))
        status = sb_fail(err, SB_ERR_INPUT, "%s: cannot read: %s", path, strerror(errno));
    if (status != SB_OK)
        free(buf);
    *data = status == SB_OK ? buf : NULL;
    return status;
}

/* A gzip-compressed report (path ends in ".gz"), open as f: inflated whole, then checked. */
static int load_gz(FILE *f, const char *path, json_t **report, struct sb_error *err)
{
    char *data = NULL, *text = NULL;
    size_t len = 0, text_len = 0;
    int status = read_whole(f, path, &data, &len, err);

    if (status == SB_OK)
        status = sb_report_gz_inflate(data, len, path, &text, &text_len, err);
    if (status == SB_OK)
        status = sb_report_parse(text, text_len, path, report, err);
    free(text);
    free(data);
    return status;
}

/* The text a report reader is given: the file, a buffer at a time, ended at its first NUL byte
 * (JSON text has none: a file of NULs was read to its end, 2GB of them, to say "truncated?",
 * and a report padded with them "end of file expected near end of file"). */
struct text_source {
    FILE *f;
    unsigned long long offset; /* bytes read before the buffer: at the end, the NUL's offset */
    bool nul;                  /* stopped at a NUL byte */
    int errnum;                /* a read failed: its errno */
};

/* json_load_callback's reader: (size_t)-1 stops it at a NUL byte or a failed read. */
static size_t read_text(void *buffer, size_t len, void *data)
{
    struct text_source *src = data;
    size_t n = fread(buffer, 1, len, src->f);
    const char *nul = n ? memchr(buffer, '\0', n) : NULL;

    if (n == 0 && ferror(src->f))
        src->errnum = errno ? errno : EIO;
    src->nul = nul != NULL;
    src->offset += nul ? (size_t)(nul - (const char *)buffer) : n;
    return src->nul || src->errnum ? (size_t)-1 : n;
}

/* The plain report open as f, parsed and checked; a NUL byte, a failed read or no text at all
 * (a file of any size: /proc's say 0) refused as what they are. */
static int load_plain(FILE *f, const char *path, json_t **report, struct sb_error *err)
{
    struct text_source src = {.f = f};
    json_error_t jerr;
    json_t *doc = json_load_callback(read_text, &src, 0, &jerr);

    if (!src.nul && !src.errnum && (doc || src.offset > 0))
        return check_report(doc, &jerr, path, report, err); /* takes doc over */
    json_decref(doc);
    if (src.nul)
        return sb_fail(err, SB_ERR_INPUT, "%s: contains a NUL byte at offset %llu: not a JSON "
                       "report", path, src.offset);
    if (src.errnum)
        return sb_fail(err, SB_ERR_INPUT, "%s: cannot read: %s", path, strerror(src.errnum));
    return sb_fail(err, SB_ERR_INPUT, "%s: empty (not a scanbench report)", path);
}

int sb_report_load(const char *path, json_t **report, struct sb_error *err)
{
    FILE *f;
    struct stat st;
    int status;

    *report = NULL;
    /* one look before opening: a FIFO's open would wait for a writer, a device's read for ever;
     * a regular file's size is not looked at (/proc's files say 0 and hold text) */
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
        return sb_fail(err, SB_ERR_INPUT, "%s: %s", path,
                       S_ISDIR(st.st_mode) ? "is a directory, not a report"
                                           : "not a regular file (a FIFO, socket or device), "
                                             "not a report");
    if (!(f = fopen(path, "rb")))
        return sb_fail(err, SB_ERR_INPUT, "%s: cannot read: %s", path, strerror(errno));
    status = sb_report_gz_named(path) ? load_gz(f, path, report, err)
                                      : load_plain(f, path, report, err);
    fclose(f);
    return status;
}

int sb_report_parse(const char *text, size_t len, const char *label, json_t **report,
                    struct sb_error *err)
{
    json_error_t jerr;
    const char *nul = memchr(text, '\0', len);
    json_t *doc;

    *report = NULL;
    if (nul)
        return sb_fail(err, SB_ERR_INPUT, "%s: contains a NUL byte at offset %zu: not a JSON "
                       "report", label, (size_t)(nul - text));
    if (len == 0)
        return sb_fail(err, SB_ERR_INPUT, "%s: empty (not a scanbench report)", label);
    doc = json_loadb(text, len, 0, &jerr);
    return check_report(doc, &jerr, label, report, err);
}
