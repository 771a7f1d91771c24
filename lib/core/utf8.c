/* SPDX-License-Identifier: BSD-3-Clause */
/* utf8.c: checking, cutting and escaping UTF-8 text (see utf8.h). */
#include "config.h"
#include "core/utf8.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The length of the well-formed UTF-8 character at s (1 to 4), or 0 when s does not start
 * one. */
static size_t char_length(const unsigned char *s)
{
    uint32_t c;
    size_t n;

    if (s[0] < 0x80)
        return 1;
    if (s[0] >= 0xc2 && s[0] <= 0xdf)
        n = 2, c = s[0] & 0x1fu;
    else if (s[0] >= 0xe0 && s[0] <= 0xef)
        n = 3, c = s[0] & 0x0fu;
    else if (s[0] >= 0xf0 && s[0] <= 0xf4)
        n = 4, c = s[0] & 0x07u;
    else
        return 0;
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0; /* also at the terminating NUL */
        c = c << 6 | (s[i] & 0x3fu);
    }
    if ((n == 3 && c < 0x800) || (n == 4 && (c < 0x10000 || c > 0x10ffff)) ||
        (c >= 0xd800 && c <= 0xdfff))
        return 0;
    return n;
}

bool sb_utf8_valid(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;

    while (*p) {
        size_t n = char_length(p);
        if (n == 0)
            return false;
        p += n;
    }
    return true;
}

/* Whether s starts a character that the end of the string cuts short (what a cut of
 * well-formed text leaves). */
static bool cut_short(const unsigned char *s)
{
    size_t need = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc0 ? 2 : 1, k = 1;

    while (k < need && (s[k] & 0xc0) == 0x80)
        k++;
    return need > 1 && k < need && s[k] == '\0';
}

size_t sb_utf8_fit(const char *s, size_t max)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t used = 0;

    while (p[used]) {
        size_t n = char_length(p + used);
        if (n == 0 && cut_short(p + used))
            break;
        if (n == 0)
            n = 1;
        if (used + n > max)
            break;
        used += n;
    }
    return used;
}

bool sb_utf8_copy(char *dst, size_t size, const char *s)
{
    size_t n;

    if (size == 0)
        return *s == '\0';
    n = sb_utf8_fit(s, size - 1);
    memcpy(dst, s, n);
    dst[n] = '\0';
    return s[n] == '\0';
}

char *sb_utf8_escape(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    char *out = malloc(4 * strlen(s) + 1), *o = out;

    if (!out)
        return NULL;
    while (*p) {
        size_t n = char_length(p);
        if (n == 0) {
            o += sprintf(o, "\\x%02x", *p++);
            continue;
        }
        memcpy(o, p, n);
        o += n;
        p += n;
    }
    *o = '\0';
    return out;
}

void sb_text_printable(char *s, size_t size)
{
    char copy[4096];
    const unsigned char *p = (const unsigned char *)copy;
    size_t used = 0;

    if (size == 0 || size > sizeof copy)
        return;
    memcpy(copy, s, size);
    copy[size - 1] = '\0';
    while (*p) {
        size_t n = char_length(p);
        char esc[8];
        const char *piece = (const char *)p;
        size_t len = n;
        if (n == 0 || (n == 1 && (*p < 0x20 || *p == 0x7f))) {
            snprintf(esc, sizeof esc, "\\x%02x", *p);
            piece = esc;
            len = 4;
            n = 1;
        }
        if (used + len >= size)
            break; /* cut between two characters */
        memcpy(s + used, piece, len);
        used += len;
        p += n;
    }
    s[used] = '\0';
}
