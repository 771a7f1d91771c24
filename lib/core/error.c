/* SPDX-License-Identifier: BSD-3-Clause */
/* error.c: filling struct sb_error, the one-line error every layer hands up to main(). A
 * message too long for it loses its middle, cut between two characters (it may quote UTF-8
 * input), never its end, which says what is wrong; what it quotes is made printable (utf8.h's
 * sb_text_printable). */
#include "config.h"
#include "core/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/utf8.h"

/* The most bytes of " [... N bytes left out ...] " */
#define MARK_MOST 40

/* text into dst (size bytes, more than most) within most bytes: whole where it fits, else its
 * start and its end around " [... N bytes left out ...] ", each cut between two characters. */
static void elide(char *dst, size_t size, const char *text, size_t most)
{
    size_t n = strlen(text), head, from;

    if (n <= most) {
        memcpy(dst, text, n + 1);
        return;
    }
    head = sb_utf8_fit(text, most / 2);
    from = n - (most - head - MARK_MOST);
    while (from < n && ((unsigned char)text[from] & 0xC0) == 0x80)
        from++; /* the tail starts at a character */
    snprintf(dst, size, "%.*s [... %zu bytes left out ...] %s", (int)head, text, from - head,
             text + from);
}

/* text as err's message for status: within its most, every byte a terminal would act on (a
 * control character, a byte that is not UTF-8) as \xNN (which may lengthen it: elided again). */
static void set_msg(struct sb_error *err, int status, const char *text)
{
    size_t most = status == SB_ERR_INPUT ? SB_ERROR_INPUT_MOST : sizeof err->msg - 1;
    char once[sizeof err->msg];

    elide(err->msg, sizeof err->msg, text, most);
    sb_text_printable(err->msg, sizeof err->msg);
    if (strlen(err->msg) > most) {
        memcpy(once, err->msg, sizeof once);
        elide(err->msg, sizeof err->msg, once, most);
    }
}

int sb_fail(struct sb_error *err, int status, const char *fmt, ...)
{
    if (err) {
        char *text = NULL;
        va_list ap;
        va_start(ap, fmt);
        if (vasprintf(&text, fmt, ap) < 0)
            text = NULL;
        va_end(ap);
        set_msg(err, status, text ? text : "out of memory for a message");
        free(text);
        err->status = status;
    }
    return status;
}

void sb_error_prefix(struct sb_error *err, const char *fmt, ...)
{
    char *prefix = NULL, *text = NULL;
    va_list ap;

    if (!err)
        return;
    va_start(ap, fmt);
    if (vasprintf(&prefix, fmt, ap) < 0)
        prefix = NULL;
    va_end(ap);
    if (prefix && asprintf(&text, "%s: %s", prefix, err->msg) >= 0)
        set_msg(err, err->status, text);
    free(text);
    free(prefix);
}
