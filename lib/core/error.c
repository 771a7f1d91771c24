/* SPDX-License-Identifier: BSD-3-Clause */
/* error.c: filling struct sb_error, the one-line error every layer hands up to main(). A
 * message too long loses the middle of its long words (paths, a --set's values), then should it
 * still not fit its own middle, cut between two characters (it may quote UTF-8 input), never its
 * end, which says what is wrong; what it quotes is made printable (utf8.h's
 * sb_text_printable). */
#include "config.h"
#include "core/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/utf8.h"

/* A long word of a message (a path, a --set, a value: bytes without a blank) is shortened to
 * its first and last WORD_KEEP bytes around "[... N bytes ...]"; a word that long at most is
 * left whole. */
#define WORD_KEEP 30
#define WORD_LONG 100
/* The most bytes of " [... N bytes left out ...] " and "[... N bytes ...]" */
#define MARK_MOST 40

/* The offset into s (n bytes) from which its last max bytes at most run, at a character. */
static size_t tail_from(const char *s, size_t n, size_t max)
{
    size_t from = n > max ? n - max : 0;

    while (from < n && ((unsigned char)s[from] & 0xC0) == 0x80)
        from++;
    return from;
}

/* The longest word of s: its offset into *at, its length returned. */
static size_t longest_word(const char *s, size_t *at)
{
    size_t best = 0, i = 0;

    *at = 0;
    while (s[i]) {
        size_t n = strcspn(s + i, " ");
        if (n > best) {
            best = n;
            *at = i;
        }
        i += n + strspn(s + i + n, " ");
    }
    return best;
}

/* s (in a buffer of size bytes) with its longest words shortened, one after another, until it
 * fits in most bytes or no word is longer than WORD_LONG. */
static void shorten_words(char *s, size_t size, size_t most)
{
    char *copy = malloc(size);
    size_t at, n;

    while (copy && strlen(s) > most && (n = longest_word(s, &at)) > WORD_LONG) {
        size_t head = sb_utf8_fit(s + at, WORD_KEEP), from = at + tail_from(s + at, n, WORD_KEEP);
        memcpy(copy, s, size);
        snprintf(s + at, size - at, "%.*s[... %zu bytes ...]%s", (int)head, copy + at,
                 from - at - head, copy + from);
    }
    free(copy);
}

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
    from = tail_from(text, n, most - head - MARK_MOST);
    snprintf(dst, size, "%.*s [... %zu bytes left out ...] %s", (int)head, text, from - head,
             text + from);
}

/* text as err's message for status: its long words shortened until it fits in
 * SB_ERROR_INPUT_MOST bytes (a bad input) or the room of msg, its middle left out should it
 * still pass that room, every byte a terminal would act on (a control character, a byte that is
 * not UTF-8) as \xNN; that lengthens it, and it is shortened again. */
static void set_msg(struct sb_error *err, int status, const char *text)
{
    size_t most = status == SB_ERR_INPUT ? SB_ERROR_INPUT_MOST : sizeof err->msg - 1;
    size_t size = strlen(text) + 1 > sizeof err->msg ? strlen(text) + 1 : sizeof err->msg;
    char *work = malloc(size); /* shortening only shortens */

    if (work) {
        memcpy(work, text, strlen(text) + 1);
        shorten_words(work, size, most);
    }
    elide(err->msg, sizeof err->msg, work ? work : text, sizeof err->msg - 1);
    sb_text_printable(err->msg, sizeof err->msg);
    if (work && strlen(err->msg) > most) {
        memcpy(work, err->msg, sizeof err->msg);
        shorten_words(work, sizeof err->msg, most);
        memcpy(err->msg, work, sizeof err->msg);
    }
    free(work);
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
    if (prefix && asprintf(&text, "%s: %s", prefix, err->msg) < 0)
        text = NULL;
    if (text)
        set_msg(err, err->status, text);
    free(text);
    free(prefix);
}
