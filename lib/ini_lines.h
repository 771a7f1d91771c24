/* ini_lines.h: the line reader every INI file of scanbench is parsed through (experiments,
 * machine models): inih's callbacks carry no line numbers in Debian's build, so inih reads
 * through ini_parse_stream and this reader, which counts lines, flags a line too long for
 * inih's buffer (and drops its rest), notes an indented line (inih's continuation), and stops
 * at a NUL byte or after SB_INI_MAX_BYTES, saying why in `problem`. */
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
    bool continued;    /* that line started with blanks: a continuation of the value above */
    size_t bytes;      /* bytes handed over so far */
    const char *problem; /* why reading stopped early (the input is not a text file of a sane
                            size: a NUL byte, more than SB_INI_MAX_BYTES), else NULL; the
                            caller reports it at `line` */
};

/* The most an INI file may hold: far beyond any real one, and an end to /dev/zero or `yes`. */
#define SB_INI_MAX_BYTES (1u << 20)

/* An ini_reader for ini_parse_stream; stream is a struct sb_ini_lines. */
char *sb_ini_read_line(char *buf, int size, void *stream);

#endif
