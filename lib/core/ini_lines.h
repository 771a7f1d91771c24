/* SPDX-License-Identifier: BSD-3-Clause */
/* ini_lines.h: the line reader every INI file of scanbench is parsed through (experiments,
 * machine models, events maps): inih's callbacks carry no line numbers in Debian's build, so
 * inih reads through ini_parse_stream and this reader, which counts lines, flags a line too long
 * for inih's buffer (and drops its rest), says whether a line continues the value above (an
 * indented line after a key, as inih takes it), hands every [section] line to an optional hook
 * (inih calls no handler for one, so an empty or repeated section is seen only there), and stops
 * at what inih would misread or skip, saying why in `problem`: a NUL byte, more than
 * SB_INI_MAX_BYTES, a read error, a carriage return that is not part of a CRLF line end (inih
 * would read a file of CR line ends as one line), text after a section header (inih ignores it)
 * and a section header without its ']' (inih blames the lines after it). sb_ini_open and
 * sb_ini_finish are the checks every reader makes of the file as a whole (not a directory, not
 * empty, the problem above); sb_ini_split_line reads one line as inih does, for the text that
 * does not come from a file (`--set KEY=VALUE`). Also the helpers for the values: trimming and
 * comma-separated lists. */
#ifndef SB_INI_LINES_H
#define SB_INI_LINES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/error.h"

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
    char problem[192]; /* why reading stopped early (see above), else empty; the caller reports
                          it at `line` (sb_ini_finish) */
    /* Optional: called for each line inih takes as a [section] line, before inih reads it, with
     * the text between the brackets (as inih passes it on: not trimmed); `line` is that line.
     * Returning false stops the reading (the hook has reported why). */
    bool (*on_section)(void *user, const char *name);
    void *user;        /* for on_section */
};

/* The most an INI file may hold: far beyond any real one, and an end to /dev/zero or `yes`. */
#define SB_INI_MAX_BYTES (1u << 20)

/* Opens path for reading into r (zeroed first): SB_ERR_INPUT, naming path, when it cannot be
 * opened or is a directory. Close it with sb_ini_close. */
int sb_ini_open(struct sb_ini_lines *r, const char *path, struct sb_error *err);
void sb_ini_close(struct sb_ini_lines *r);

/* After ini_parse_stream: SB_ERR_INPUT naming label (and the line) when reading stopped at a
 * problem, or when there was nothing to read at all (an empty file, /dev/null). */
int sb_ini_finish(const struct sb_ini_lines *r, const char *label, struct sb_error *err);

/* An ini_reader for ini_parse_stream; stream is a struct sb_ini_lines. */
char *sb_ini_read_line(char *buf, int size, void *stream);

enum sb_ini_kind {
    SB_INI_BLANK,          /* empty, or a comment (';' or '#' first) */
    SB_INI_SECTION,        /* [name]: *name between the brackets, *value what follows ']' (an
                              inline comment and blanks dropped: empty when nothing does) */
    SB_INI_KEY,            /* name = value (or name: value): both trimmed, an inline comment
                              (';' after a blank) dropped from the value; the name may be empty */
    SB_INI_OPEN_SECTION,   /* '[' without its ']' */
    SB_INI_INVALID,        /* neither: no '=' or ':' */
};

/* Reads one line (without its line end) as inih r55 does, cutting it in place. */
enum sb_ini_kind sb_ini_split_line(char *line, char **name, char **value);

/* Whether text (the value of a line that goes on with the key above) reads as a key line of its
 * own, `NAME = value`; NAME (cut to size) goes to name, for the reader to say whether it is one
 * of its keys: an indented key line is a mistake inih would take as more of the value above. */
bool sb_ini_key_line(const char *text, char *name, size_t size);

/* s without its leading and trailing blanks (the blanks at its end are cut off in place). */
char *sb_ini_trim(char *s);

/* The next item of a comma-separated value, without its blanks; NULL after the last. Cuts the
 * text as strsep does: *cursor starts at the value and is moved on. */
char *sb_ini_list_next(char **cursor);

#endif
