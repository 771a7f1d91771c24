/* ini_lines.h: the line reader every INI file of scanbench is parsed through (experiments,
 * machine models, events maps): inih's callbacks carry no line numbers in Debian's build, so
 * inih reads through ini_parse_stream and this reader, which counts lines, flags a line too long
 * for inih's buffer (and drops its rest), says whether a line continues the value above (an
 * indented line after a key, as inih takes it), hands every [section] line to an optional hook
 * (inih calls no handler for one, so an empty or repeated section is seen only there), and stops
 * at a NUL byte or after SB_INI_MAX_BYTES, saying why in `problem`. Also the helpers for the
 * values: trimming and comma-separated lists. */
#ifndef SB_INI_LINES_H
#define SB_INI_LINES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct sb_ini_lines {
    FILE *file;        /* reading a file, or */
    const char *text;  /* reading a string */
    int line;          /* the line last handed to inih (1-based) */
    bool too_long;     /* that line did not fit inih's buffer */
    bool continued;    /* that line continues the value above (inih hands it to the handler
                          again under the same key) */
    bool after_key;    /* a key has been read since the last [section] line: an indented line
                          continues it */
    size_t bytes;      /* bytes handed over so far */
    const char *problem; /* why reading stopped early (the input is not a text file of a sane
                            size: a NUL byte, more than SB_INI_MAX_BYTES), else NULL; the
                            caller reports it at `line` */
    /* Optional: called for each line inih takes as a [section] line, before inih reads it, with
     * the text between the brackets (as inih passes it on: not trimmed); `line` is that line.
     * Returning false stops the reading (the hook has reported why). */
    bool (*on_section)(void *user, const char *name);
    void *user;        /* for on_section */
};

/* The most an INI file may hold: far beyond any real one, and an end to /dev/zero or `yes`. */
#define SB_INI_MAX_BYTES (1u << 20)

/* An ini_reader for ini_parse_stream; stream is a struct sb_ini_lines. */
char *sb_ini_read_line(char *buf, int size, void *stream);

/* s without its leading and trailing blanks (the blanks at its end are cut off in place). */
char *sb_ini_trim(char *s);

/* The next item of a comma-separated value, without its blanks; NULL after the last. Cuts the
 * text as strsep does: *cursor starts at the value and is moved on. */
char *sb_ini_list_next(char **cursor);

#endif
