/* SPDX-License-Identifier: BSD-3-Clause */
/* ini_lines.c: the counting line reader handed to inih, the checks of a file as a whole, inih's
 * reading of one line, and the helpers for INI values. */
#include "config.h"
#include "core/ini_lines.h"

#include <ctype.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

/* inih's find_chars_or_comment: the first of chars (NULL: none) in s, or the start of an inline
 * comment (';' after a blank), or the end of s. */
static char *find_chars_or_comment(char *s, const char *chars)
{
    bool after_blank = false;

    while (*s && !(chars && strchr(chars, *s)) && !(after_blank && *s == ';')) {
        after_blank = isspace((unsigned char)*s);
        s++;
    }
    return s;
}

enum sb_ini_kind sb_ini_split_line(char *line, char **name, char **value)
{
    char *start = sb_ini_trim(line), *end;

    *name = *value = start + strlen(start);
    if (*start == '\0' || *start == ';' || *start == '#')
        return SB_INI_BLANK;
    if (*start == '[') {
        end = find_chars_or_comment(start + 1, "]");
        if (*end != ']')
            return SB_INI_OPEN_SECTION;
        *end = '\0';
        *name = start + 1;
        *value = sb_ini_trim(end + 1);
        if (**value == ';')
            **value = '\0';
        return SB_INI_SECTION;
    }
    end = find_chars_or_comment(start, "=:");
    if (*end != '=' && *end != ':')
        return SB_INI_INVALID;
    *end = '\0';
    *name = sb_ini_trim(start);
    *value = end + 1;
    *find_chars_or_comment(*value, NULL) = '\0';
    *value = sb_ini_trim(*value);
    return SB_INI_KEY;
}

/* Follows inih's reading of the line in buf (r->line is its number) to say whether it
 * continues the value above and whether it is a [section] line, which goes to r->on_section.
 * The rules are inih's (r55, as Debian builds it): a UTF-8 byte order mark skipped on line 1;
 * ';' and '#' start a comment line; a non-blank indented line after a key continues that key;
 * '[' starts a section line, named up to ']' (which an inline comment may not precede); a key
 * line has '=' or ':', and a key before it. A section line with text after its ']', or without
 * its ']', is a problem. Returns false when reading must stop. */
static bool follow_inih(struct sb_ini_lines *r, const char *buf)
{
    const char *start = buf;
    char copy[4096], *name, *value;

    r->continued = false;
    if (r->line == 1 && strncmp(start, "\xEF\xBB\xBF", 3) == 0)
        start += 3;
    while (isspace((unsigned char)*start))
        start++;
    if (*start == '\0' || *start == ';' || *start == '#')
        return true;
    if (r->after_key && start > buf) {
        r->continued = true;
        return true;
    }
    snprintf(copy, sizeof copy, "%s", start);
    switch (sb_ini_split_line(copy, &name, &value)) {
    case SB_INI_OPEN_SECTION:
        snprintf(r->problem, sizeof r->problem, "a section header without its ']'");
        return false;
    case SB_INI_SECTION:
        if (*value) {
            snprintf(r->problem, sizeof r->problem, "[%.64s]: text after the section header "
                     "(a key goes on a line of its own)", name);
            return false;
        }
        r->after_key = false;
        return !r->on_section || r->on_section(r->user, name);
    case SB_INI_KEY:
        r->after_key = *name != '\0'; /* inih keeps no key without a name */
        return true;
    default:
        return true;
    }
}

/* Whether the line in buf has a carriage return that does not end it before its line feed
 * (cut: the line was cut by the buffer, so a last '\r' may have its '\n' after it). */
static bool stray_cr(const char *buf, bool cut)
{
    for (const char *p = strchr(buf, '\r'); p; p = strchr(p + 1, '\r'))
        if (p[1] != '\n' && !(p[1] == '\0' && cut))
            return true;
    return false;
}

/* The next line of the file into buf; false at its end or when it cannot be read (a NUL byte,
 * a read error: r->problem says which). */
static bool next_file_line(struct sb_ini_lines *r, char *buf, int size)
{
    size_t len;

    errno = 0;
    if (!fgets(buf, size, r->file)) {
        if (ferror(r->file)) {
            snprintf(r->problem, sizeof r->problem, "cannot read: %s", strerror(errno));
            r->line++;
        }
        return false;
    }
    len = strlen(buf);
    /* fgets stops only at a newline, a full buffer or the end: short of all three, the line
     * held a NUL byte */
    if (len < (size_t)size - 1 && (len == 0 || buf[len - 1] != '\n') && !feof(r->file)) {
        snprintf(r->problem, sizeof r->problem, "contains a NUL byte (not a text file)");
        r->line++;
        return false;
    }
    return true;
}

static bool next_text_line(struct sb_ini_lines *r, char *buf, int size)
{
    const char *nl;
    size_t n;

    if (*r->text == '\0')
        return false;
    nl = strchr(r->text, '\n');
    n = nl ? (size_t)(nl - r->text) + 1 : strlen(r->text);
    if (n > (size_t)size - 1)
        n = (size_t)size - 1;
    memcpy(buf, r->text, n);
    buf[n] = '\0';
    r->text += n;
    return true;
}

char *sb_ini_read_line(char *buf, int size, void *stream)
{
    struct sb_ini_lines *r = stream;
    size_t len;

    if (r->problem[0])
        return NULL;
    if (!(r->file ? next_file_line(r, buf, size) : next_text_line(r, buf, size)))
        return NULL;
    len = strlen(buf);
    r->bytes += len;
    r->line++;
    if (r->bytes > SB_INI_MAX_BYTES) {
        snprintf(r->problem, sizeof r->problem, "more than 1MB (not an INI file of scanbench's)");
        return NULL;
    }
    /* A line that does not fit: flag it (for this line only) and drop the rest of it, so that
     * inih never sees the rest as a line of its own. */
    r->too_long = len == (size_t)size - 1 && buf[len - 1] != '\n';
    if (r->too_long) {
        if (r->file) {
            int c;
            while ((c = getc(r->file)) != EOF && c != '\n' && r->bytes <= SB_INI_MAX_BYTES)
                r->bytes++;
        } else {
            const char *nl = strchr(r->text, '\n');
            r->text = nl ? nl + 1 : r->text + strlen(r->text);
        }
    }
    if (stray_cr(buf, r->too_long)) {
        snprintf(r->problem, sizeof r->problem, "a carriage return that does not end the line "
                 "(lines end in LF or CRLF; a file of CR line ends reads as one line)");
        return NULL;
    }
    return follow_inih(r, buf) ? buf : NULL;
}

int sb_ini_open(struct sb_ini_lines *r, const char *path, struct sb_error *err)
{
    struct stat st;

    memset(r, 0, sizeof *r);
    /* before opening: a FIFO's open would wait for a writer, a device's read for ever */
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
        return S_ISDIR(st.st_mode)
                   ? sb_fail(err, SB_ERR_INPUT, "%s: is a directory, not an INI file", path)
                   : sb_fail(err, SB_ERR_INPUT, "%s: not a regular file (a FIFO, socket or "
                             "device), not an INI file", path);
    r->file = fopen(path, "r");
    if (!r->file)
        return sb_fail(err, SB_ERR_INPUT, "%s: cannot read: %s", path, strerror(errno));
    return SB_OK;
}

void sb_ini_close(struct sb_ini_lines *r)
{
    if (r->file)
        fclose(r->file);
    r->file = NULL;
}

int sb_ini_finish(const struct sb_ini_lines *r, const char *label, struct sb_error *err)
{
    if (r->problem[0])
        return sb_fail(err, SB_ERR_INPUT, "%s:%d: %s", label, r->line, r->problem);
    if (r->bytes == 0)
        return sb_fail(err, SB_ERR_INPUT, "%s: empty (an INI file with its sections)", label);
    return SB_OK;
}

bool sb_ini_key_line(const char *text, char *name, size_t size)
{
    char copy[4096], *key, *value;

    snprintf(copy, sizeof copy, "%s", text);
    if (sb_ini_split_line(copy, &key, &value) != SB_INI_KEY || !*key)
        return false;
    snprintf(name, size, "%s", key);
    return true;
}

char *sb_ini_trim(char *s)
{
    char *end;

    while (isspace((unsigned char)*s))
        s++;
    end = s + strlen(s);
    while (end > s && isspace((unsigned char)end[-1]))
        *--end = '\0';
    return s;
}

char *sb_ini_list_next(char **cursor)
{
    char *item = strsep(cursor, ",");

    return item ? sb_ini_trim(item) : NULL;
}
