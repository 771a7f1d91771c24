/* SPDX-License-Identifier: BSD-3-Clause */
/* ini_keys.c: the table-driven INI reader (inih through the line reader), its errors, and the
 * value parsers the readers share. A key line is taken once the lines that go on with it have
 * been read: at the next key line, section line or the end; meanwhile it is pending. */
#include "config.h"
#include "core/ini_keys.h"

#include <errno.h>
#include <ini.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/units.h"
#include "core/utf8.h"

struct reader {
    const struct sb_ini_spec *spec;
    struct sb_ini_lines *lines;  /* NULL for --set */
    const char *label;           /* the file; for --set, the origin itself */
    void *user;
    struct sb_error *err;
    int section;                 /* -1: none yet, -2: an unknown one (lazy_sections) */
    char unknown[64];            /* that one's name */
    bool *seen_section;          /* one a section of the spec */
    int *first, nkeys;           /* the line each key was set at (0: not): nkeys a section, as
                                    many as the spec's largest section has */
    struct sb_ini_value v;       /* the pending value: v.key < 0 when none */
    size_t *starts;
    int *plines, cap;
    char *origin, name[160];
    int status, error_line;      /* the first error and its line */
};

static int fail_at(struct reader *r, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int fail_at(struct reader *r, int line, const char *fmt, ...)
{
    char what[1536];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    r->error_line = line;
    if (r->lines)
        r->status = sb_fail(r->err, SB_ERR_INPUT, "%s:%d: %s", r->label, line, what);
    else
        r->status = sb_fail(r->err, SB_ERR_INPUT, "%s: %s", r->label, what);
    return r->status;
}

/* The line being read (0 for --set). */
static int here(const struct reader *r)
{
    return r->lines ? r->lines->line : 0;
}

static void known_keys(const struct sb_ini_key *keys, char *buf, size_t size)
{
    size_t used = 0;

    buf[0] = '\0';
    for (int k = 0; keys[k].name && used < size; k++)
        used += (size_t)snprintf(buf + used, size - used, "%s%s", k ? ", " : "", keys[k].name);
}

static void known_sections(const struct sb_ini_spec *spec, char *buf, size_t size)
{
    size_t used = 0;

    buf[0] = '\0';
    for (int s = 0; spec->sections[s].name && used < size; s++)
        used += (size_t)snprintf(buf + used, size - used, "%s[%s]", s ? ", " : "",
                                 spec->sections[s].name);
}

int sb_ini_key_find(const struct sb_ini_key *keys, const char *name)
{
    for (int k = 0; keys[k].name; k++)
        if (strcmp(keys[k].name, name) == 0)
            return k;
    return -1;
}

char *sb_ini_piece(const struct sb_ini_value *v, int i, char *buf, size_t size)
{
    size_t start = v->piece_start[i];
    size_t end = i + 1 < v->npieces ? v->piece_start[i + 1] - 1 : strlen(v->text);
    int n = (int)(end - start);

    snprintf(buf, size, "%.*s", n, v->text + start);
    return buf;
}

static void clear_pending(struct reader *r)
{
    free(r->v.text);
    free(r->origin);
    r->v.text = r->origin = NULL;
    r->v.key = -1;
    r->v.npieces = 0;
}

/* Adds a line's piece to the pending value (joined with a blank). */
static int add_piece(struct reader *r, const char *piece, int line)
{
    size_t len = r->v.text ? strlen(r->v.text) : 0, add = strlen(piece) + 2;
    char *text = realloc(r->v.text, len + add);

    if (text)
        r->v.text = text;
    if (text && r->v.npieces == r->cap) {
        int cap = r->cap ? 2 * r->cap : 8;
        size_t *starts = realloc(r->starts, (size_t)cap * sizeof *starts);
        int *plines = starts ? realloc(r->plines, (size_t)cap * sizeof *plines) : NULL;
        if (starts)
            r->starts = starts;
        if (plines)
            r->plines = plines, r->cap = cap;
    }
    if (!text || r->v.npieces == r->cap)
        return fail_at(r, line, "out of memory"), r->status = SB_ERR_RUN;
    r->starts[r->v.npieces] = len + (len ? 1 : 0);
    r->plines[r->v.npieces++] = line;
    snprintf(text + len, add, "%s%s", len ? " " : "", piece);
    return SB_OK;
}

/* A text with max: UTF-8 and fitting, at the line of the piece that is not or does not. */
static int check_text(struct reader *r)
{
    const struct sb_ini_value *v = &r->v;
    char piece[INI_MAX_LINE];

    if (v->desc->type != SB_INI_TEXT || v->desc->max == 0)
        return SB_OK;
    for (int i = 0; i < v->npieces; i++) {
        if (!sb_utf8_valid(sb_ini_piece(v, i, piece, sizeof piece)))
            return fail_at(r, v->piece_line[i], "%s: not UTF-8 (a report holds UTF-8 text only)",
                           v->name);
        if (strlen(piece) + v->piece_start[i] > v->desc->max)
            return fail_at(r, v->piece_line[i], "%s: longer than %llu bytes", v->name,
                           (unsigned long long)v->desc->max);
    }
    return SB_OK;
}

/* Hands the pending value, now whole, to the handler. */
static int take_pending(struct reader *r)
{
    struct sb_ini_value *v = &r->v;
    int status;

    if (v->key < 0)
        return SB_OK;
    v->piece_start = r->starts;
    v->piece_line = r->plines;
    v->origin = r->origin;
    v->name = r->name;
    v->error_line = v->line;
    status = check_text(r);
    if (status == SB_OK && (status = r->spec->on_value(r->user, v, r->err)) != SB_OK) {
        r->status = status;
        r->error_line = v->error_line;
        if (r->lines)
            sb_error_prefix(r->err, "%s:%d: %s", r->label, v->error_line, r->name);
        else
            sb_error_prefix(r->err, "%s: %s", r->label, r->name);
    }
    clear_pending(r);
    return status;
}

/* The key of a key line of the current section: known, not given twice. */
static int find_key(struct reader *r, const char *name)
{
    const struct sb_ini_section *s = &r->spec->sections[r->section];
    int key = sb_ini_key_find(s->keys, name), *first;
    char what[512], known[400];

    if (key < 0) {
        known_keys(s->keys, known, sizeof known);
        snprintf(what, sizeof what, "in [%s] (known: %s)", s->name, known);
        return fail_at(r, here(r), "%s: unknown key %s", name, s->unknown_key ? s->unknown_key
                                                                                 : what), -1;
    }
    first = &r->first[r->section * r->nkeys + key];
    if (s->prefixed)
        snprintf(r->name, sizeof r->name, "%s: %s", s->name, name);
    else
        snprintf(r->name, sizeof r->name, "%s", name);
    if (*first && r->lines && !s->keys[key].repeat)
        return fail_at(r, here(r), "%s: set twice in [%s] (first at line %d)", r->name, s->name,
                       *first), -1;
    if (!*first)
        *first = here(r);
    return key;
}

/* Starts the value of a key line (the pending one taken first). */
static int start_key(struct reader *r, const char *name, const char *value)
{
    char known[400];
    int key;

    if (take_pending(r) != SB_OK)
        return r->status;
    if (*name == '\0')
        return fail_at(r, here(r), "no key before '=' (want key = value)");
    if (r->section < 0)
        known_sections(r->spec, known, sizeof known);
    if (r->section == -1)
        return fail_at(r, here(r), "%s: keys belong in a section (known: %s)", name, known);
    if (r->section < 0)
        return fail_at(r, here(r), "%s: unknown section [%s] (known: %s)", name, r->unknown,
                       known);
    if ((key = find_key(r, name)) < 0)
        return r->status;
    r->v.section = r->section;
    r->v.key = key;
    r->v.desc = &r->spec->sections[r->section].keys[key];
    r->v.line = here(r);
    if (r->lines) {
        size_t size = strlen(r->label) + 16;
        if ((r->origin = malloc(size)))
            snprintf(r->origin, size, "%s:%d", r->label, here(r));
    } else {
        r->origin = strdup(r->label);
    }
    if (!r->origin)
        return fail_at(r, here(r), "out of memory"), r->status = SB_ERR_RUN;
    return add_piece(r, value, here(r));
}

/* Whether text reads as `KEY = VALUE` for a key of any section of the spec. */
static bool reads_as_key(const struct sb_ini_spec *spec, const char *text)
{
    char name[64];

    if (!sb_ini_key_line(text, name, sizeof name))
        return false;
    for (int s = 0; spec->sections[s].name; s++)
        if (sb_ini_key_find(spec->sections[s].keys, name) >= 0)
            return true;
    return false;
}

/* A line that goes on with the pending key: a key the file knows (of any of its sections)
 * indented by mistake, a value that takes one line, or more of the value. */
static int go_on(struct reader *r, const char *value)
{
    const struct sb_ini_key *k = r->v.desc;

    if (reads_as_key(r->spec, value))
        return fail_at(r, here(r), "%s: \"%s\": an indented line goes on with the value above; "
                       "a key of its own starts its line", r->name, value);
    if (k->type != SB_INI_TEXT && !k->list)
        return fail_at(r, here(r), "%s: \"%s\": an indented line goes on with text or a list; "
                       "a key of its own starts its line", r->name, value);
    return add_piece(r, value, here(r));
}

/* inih's handler: a key line, or a line that goes on with the key above. */
static int on_key(void *user, const char *section, const char *name, const char *value)
{
    struct reader *r = user;

    (void)section; /* r->section: the line reader's hook has seen the line that opened it */
    if (r->status != SB_OK)
        return 0; /* inih goes on after an error: keep the first */
    if (r->lines->too_long)
        fail_at(r, here(r), "line longer than %d characters (a long value goes on over "
                "indented lines)", INI_MAX_LINE - 2);
    else if (r->lines->continued && r->v.key >= 0)
        go_on(r, value);
    else
        start_key(r, name, value);
    return r->status == SB_OK;
}

/* The line reader's hook for each [section] line (inih tells no handler of one). */
static bool on_section(void *user, const char *name)
{
    struct reader *r = user;
    const struct sb_ini_spec *spec = r->spec;
    char known[400];
    int s;

    if (r->status != SB_OK || take_pending(r) != SB_OK)
        return false;
    for (s = 0; spec->sections[s].name && strcmp(spec->sections[s].name, name) != 0; s++)
        ;
    r->section = spec->sections[s].name ? s : -2;
    snprintf(r->unknown, sizeof r->unknown, "%s", name);
    if (r->section < 0 && !spec->lazy_sections) {
        known_sections(spec, known, sizeof known);
        return fail_at(r, here(r), "[%s]: unknown section (known: %s)", name, known) == SB_OK;
    }
    if (r->section < 0)
        return true;
    if (spec->sections[s].once && r->seen_section[s])
        return fail_at(r, here(r), "[%s]: section given twice", name) == SB_OK;
    r->seen_section[s] = true;
    if (spec->on_section)
        spec->on_section(r->user, s, here(r));
    return true;
}

/* A reader for spec, its tables sized from the spec's (NULL: out of memory). */
static struct reader *reader_new(const struct sb_ini_spec *spec, const char *label, void *user,
                                 struct sb_error *err)
{
    struct reader *r = calloc(1, sizeof *r);
    int nsections = 0, nkeys = 1;

    for (; spec->sections[nsections].name; nsections++) {
        int n = 0;
        while (spec->sections[nsections].keys[n].name)
            n++;
        nkeys = n > nkeys ? n : nkeys;
    }
    if (!r)
        return NULL;
    *r = (struct reader){.spec = spec, .label = label, .user = user, .err = err, .section = -1,
                         .v.key = -1, .nkeys = nkeys};
    r->seen_section = calloc((size_t)nsections + 1, sizeof *r->seen_section);
    r->first = calloc(((size_t)nsections + 1) * (size_t)nkeys, sizeof *r->first);
    if (r->seen_section && r->first)
        return r;
    free(r->seen_section);
    free(r->first);
    free(r);
    return NULL;
}

static void reader_free(struct reader *r)
{
    clear_pending(r);
    free(r->starts);
    free(r->plines);
    free(r->seen_section);
    free(r->first);
    free(r);
}

int sb_ini_read(struct sb_ini_lines *lines, const char *label, const struct sb_ini_spec *spec,
                void *user, struct sb_error *err)
{
    struct reader *r = reader_new(spec, label, user, err);
    int rc, status;

    if (!r)
        return sb_fail(err, SB_ERR_RUN, "%s: cannot parse (out of memory)", label);
    r->lines = lines;
    lines->on_section = on_section;
    lines->user = r;
    rc = ini_parse_stream(sb_ini_read_line, lines, on_key, r);
    if (r->status == SB_OK)
        take_pending(r); /* before any problem that stopped the reading */
    /* the first error in the file: a line inih could not read, or one of ours */
    if (rc > 0 && (r->status == SB_OK || rc < r->error_line))
        status = sb_fail(err, SB_ERR_INPUT, "%s:%d: not a valid INI line (want key = value or "
                         "[section])", label, rc);
    else if ((status = r->status) != SB_OK)
        ;
    else if ((status = sb_ini_finish(lines, label, err)) != SB_OK)
        ;
    else if (rc != 0)
        status = sb_fail(err, SB_ERR_RUN, "%s: cannot parse (out of memory)", label);
    reader_free(r);
    return status;
}

int sb_ini_take(const struct sb_ini_spec *spec, int section, const char *origin,
                const char *name, const char *value, void *user, struct sb_error *err)
{
    struct reader *r = reader_new(spec, origin, user, err);
    int status;

    if (!r)
        return sb_fail(err, SB_ERR_RUN, "out of memory");
    r->section = section;
    status = start_key(r, name, value);
    if (status == SB_OK)
        status = take_pending(r);
    reader_free(r);
    return status;
}

/* --- values ------------------------------------------------------------------------------- */

bool sb_ini_yesno(const char *text, bool *yes)
{
    static const char *const words[] = {"yes", "true", "on", "1", "no", "false", "off", "0"};

    for (int i = 0; i < 8; i++)
        if (strcmp(text, words[i]) == 0) {
            *yes = i < 4;
            return true;
        }
    return false;
}

static int parse_size(const struct sb_ini_key *k, const char *item, uint64_t *number,
                      struct sb_error *err)
{
    char a[32], b[32];

    if (!sb_parse_size(item, number))
        return sb_fail(err, SB_ERR_INPUT, "\"%s\" is not a size (e.g. 8192, 256K, 16MB%s%s)",
                       item, k->or_word ? ", " : "", k->or_word ? k->or_word : "");
    if (*number == 0)
        return sb_fail(err, SB_ERR_INPUT, "\"%s\" is zero", item);
    if (k->pow2 && (*number < k->min || *number > k->max || (*number & (*number - 1))))
        return sb_fail(err, SB_ERR_INPUT, "\"%s\" is not a power of two from %s to %s", item,
                       sb_format_size(k->min, a, sizeof a), sb_format_size(k->max, b, sizeof b));
    if (*number < k->min || *number > k->max)
        return sb_fail(err, SB_ERR_INPUT, "\"%s\" is out of range (%s to %s)", item,
                       sb_format_size(k->min, a, sizeof a), sb_format_size(k->max, b, sizeof b));
    return SB_OK;
}

int sb_ini_parse(const struct sb_ini_key *k, const char *item, uint64_t *number, double *real,
                 struct sb_error *err)
{
    uint64_t n = 0;
    bool yes;
    char *end;

    if (number)
        *number = 0;
    if (k->or_word && strcmp(item, k->or_word) == 0)
        return SB_OK;
    switch (k->type) {
    case SB_INI_SIZE:
        return parse_size(k, item, number ? number : &n, err);
    case SB_INI_UINT:
        if (!sb_parse_uint(item, number ? number : &n))
            return sb_fail(err, SB_ERR_INPUT, "\"%s\" is not a whole number%s%s", item,
                           k->or_word ? " or " : "", k->or_word ? k->or_word : "");
        n = number ? *number : n;
        if (n < k->min || n > k->max)
            return sb_fail(err, SB_ERR_INPUT, "\"%s\" is out of range (%llu to %llu)", item,
                           (unsigned long long)k->min, (unsigned long long)k->max);
        return SB_OK;
    case SB_INI_YESNO:
        if (!sb_ini_yesno(item, &yes))
            return sb_fail(err, SB_ERR_INPUT, "\"%s\" is not yes or no", item);
        if (number)
            *number = yes;
        return SB_OK;
    case SB_INI_NUMBER: {
        double d;
        errno = 0;
        d = strtod(item, &end);
        if (errno || end == item || *end || !isfinite(d) || d <= 0)
            return sb_fail(err, SB_ERR_INPUT, "\"%s\" is not a positive number", item);
        if (k->max && d > (double)k->max) /* a NUMBER's max: its largest value, when set */
            return sb_fail(err, SB_ERR_INPUT, "\"%s\" is out of range (above %llu)", item,
                           (unsigned long long)k->max);
        if (real)
            *real = d;
        return SB_OK;
    }
    default:
        return SB_OK;
    }
}
