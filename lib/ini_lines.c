/* ini_lines.c: the counting line reader handed to inih, and the helpers for INI values. */
#include "config.h"
#include "ini_lines.h"

#include <ctype.h>
#include <string.h>

/* inih's find_chars_or_comment: the first of chars in s, or the start of an inline comment
 * (';' after a blank), or the end of s. */
static const char *find_chars_or_comment(const char *s, const char *chars)
{
    bool after_blank = false;

    while (*s && !strchr(chars, *s) && !(after_blank && *s == ';')) {
        after_blank = isspace((unsigned char)*s);
        s++;
    }
    return s;
}

/* Follows inih's reading of the line in buf (r->line is its number) to say whether it
 * continues the value above and whether it is a [section] line, which goes to r->on_section.
 * The rules are inih's (r55, as Debian builds it): a UTF-8 byte order mark skipped on line 1;
 * ';' and '#' start a comment line; a non-blank indented line after a key continues that key;
 * '[' starts a section line, named up to ']' (which an inline comment may not precede); a key
 * line has '=' or ':', and a key before it. Returns false when the hook says stop. */
static bool follow_inih(struct sb_ini_lines *r, const char *buf)
{
    const char *start = buf, *end;

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
    if (*start == '[') {
        char name[256];
        end = find_chars_or_comment(start + 1, "]");
        if (*end != ']')
            return true; /* inih refuses the line */
        r->after_key = false;
        snprintf(name, sizeof name, "%.*s", (int)(end - start - 1), start + 1);
        return !r->on_section || r->on_section(r->user, name);
    }
    end = find_chars_or_comment(start, "=:");
    if ((*end == '=' || *end == ':') && end > start)
        r->after_key = true;
    return true;
}

char *sb_ini_read_line(char *buf, int size, void *stream)
{
    struct sb_ini_lines *r = stream;
    size_t len;

    if (r->problem)
        return NULL;
    if (r->file) {
        if (!fgets(buf, size, r->file))
            return NULL;
        len = strlen(buf);
        /* fgets stops only at a newline, a full buffer or the end: short of all three, the
         * line held a NUL byte */
        if (len < (size_t)size - 1 && (len == 0 || buf[len - 1] != '\n') && !feof(r->file)) {
            r->problem = "contains a NUL byte (not a text file)";
            r->line++;
            return NULL;
        }
    } else {
        const char *nl;
        size_t n;
        if (*r->text == '\0')
            return NULL;
        nl = strchr(r->text, '\n');
        n = nl ? (size_t)(nl - r->text) + 1 : strlen(r->text);
        if (n > (size_t)size - 1)
            n = (size_t)size - 1;
        memcpy(buf, r->text, n);
        buf[n] = '\0';
        r->text += n;
    }
    len = strlen(buf);
    r->bytes += len;
    if (r->bytes > SB_INI_MAX_BYTES) {
        r->problem = "more than 1MB (not an INI file of scanbench's)";
        r->line++;
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
    r->line++;
    return follow_inih(r, buf) ? buf : NULL;
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
