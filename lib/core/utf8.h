/* SPDX-License-Identifier: BSD-3-Clause */
/* utf8.h: text that goes into a report must be UTF-8 (JSON is; jansson refuses anything else, and
 * a report that cannot be built is lost work): checking input text, copying it into a fixed
 * buffer without cutting a character in two, and writing bytes that are not UTF-8 (a file name
 * of another locale on the command line) as \xNN so that they can still be recorded. */
#ifndef SB_UTF8_H
#define SB_UTF8_H

#include <stdbool.h>
#include <stddef.h>

/* Whether s is well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates, at most
 * U+10FFFF). */
bool sb_utf8_valid(const char *s);

/* The length of the longest start of s of at most max bytes that ends between two characters
 * (of well-formed UTF-8; other bytes count as characters of one byte, but a character the end
 * of s cuts short, as a cut leaves it, is left out). */
size_t sb_utf8_fit(const char *s, size_t max);

/* Copies s into dst (size bytes), cut between two characters if it must be cut; returns whether
 * all of s fitted. */
bool sb_utf8_copy(char *dst, size_t size, const char *s);

/* s with every byte that is not part of a well-formed UTF-8 character written as \xNN (and a
 * backslash as itself): always UTF-8. NULL when out of memory; the caller frees it. */
char *sb_utf8_escape(const char *s);

/* s (a NUL-terminated text in a buffer of size bytes, at most 4096) rewritten in place for a
 * terminal: every byte that is not part of a well-formed UTF-8 character, and every control
 * character (below 0x20, and DEL), written as \xNN; cut between two characters where that no
 * longer fits. Messages that quote input (an ESC sequence, a newline in a --set, binary input)
 * stay one printable line. */
void sb_text_printable(char *s, size_t size);

#endif
