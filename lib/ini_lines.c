/* ini_lines.c: the counting line reader handed to inih. */
#include "config.h"
#include "ini_lines.h"

#include <string.h>

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
    r->continued = buf[0] == ' ' || buf[0] == '\t';
    r->line++;
    return buf;
}
