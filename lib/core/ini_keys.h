/* SPDX-License-Identifier: BSD-3-Clause */
/* ini_keys.h: the one INI reader of scanbench (experiments, machine models, events maps), driven
 * by tables: a reader's sections, each with its key descriptors (name, type, limits, list or
 * not, help). It reads through the line reader (ini_lines.h) and inih, and does what each reader
 * did on its own: the unknown section and key, a key set twice, a key outside any section, an
 * empty key name, a line too long, an indented line that reads as a key (of any section), a single
 * value that goes on over lines, text that is not UTF-8 or too long for its field. It joins the
 * lines of a value (with a blank) and hands the value whole, with the line of each of its
 * pieces, to the reader's handler. Every error has one shape, "FILE:LINE: KEY: what" (or
 * "--set K=V: KEY: what"), SB_ERR_INPUT (exit 2); the first one in the file is the one told.
 * Also the value parsers the readers share: yes/no, sizes and whole numbers within limits (or a
 * word such as auto), positive numbers. */
#ifndef SB_INI_KEYS_H
#define SB_INI_KEYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/error.h"
#include "core/ini_lines.h"

enum sb_ini_type {
    SB_INI_TEXT,   /* free text: with max, UTF-8 and at most max bytes (checked here) */
    SB_INI_WORD,   /* a word or name, the handler's to check (a registry, an enum) */
    SB_INI_SIZE,   /* 8192, 256K, 16MB: not zero, within [min, max] */
    SB_INI_UINT,   /* a whole number within [min, max] */
    SB_INI_NUMBER, /* a finite number above zero */
    SB_INI_YESNO,  /* yes/no (also true/false, on/off, 1/0): number 1 or 0 */
};

struct sb_ini_key {
    const char *name;       /* NULL ends a section's keys */
    enum sb_ini_type type;
    bool list;              /* takes a comma-separated list, which may go on over lines */
    uint64_t min, max;      /* SIZE, UINT: the range; TEXT: the most bytes (0: the handler's);
                             * NUMBER: max, when not 0, its largest value */
    const char *or_word;    /* SIZE, UINT: a word taken instead, as number 0 (e.g. "auto") */
    bool pow2;              /* SIZE: a power of two (a cache line) */
    bool repeat;            /* may be given more than once in its section */
    const char *default_value; /* the value until one is given (NULL: none): for the reader's
                                  users (an experiment starts from its keys' defaults, `scanbench
                                  list` shows them); the reader does not use it */
    const char *help;
};

struct sb_ini_section {
    const char *name;              /* NULL ends the spec's sections */
    const struct sb_ini_key *keys;
    bool once;                     /* given twice is an error ("[NAME]: section given twice") */
    bool prefixed;                 /* its keys are named "SECTION: KEY" in errors */
    const char *unknown_key;       /* what follows "KEY: unknown key " (NULL: "in [NAME]
                                      (known: ...)", from the table) */
};

/* A value, whole: its lines joined with a blank. */
struct sb_ini_value {
    int section, key;              /* indexes into the spec's tables */
    const struct sb_ini_key *desc;
    const char *name;              /* the key as errors name it ("events", "cycles: events") */
    int line;                      /* of its key line (0: not from a file) */
    const char *origin;            /* "FILE:LINE", or the text of a --set */
    char *text;                    /* the value */
    int npieces;                   /* one piece a line */
    const size_t *piece_start;     /* where each starts in text */
    const int *piece_line;         /* and its line */
    int error_line;                /* the handler may set the line its error is about */
};

/* A reader's tables. Its errors have the same words whatever the file (an experiment, a machine
 * model, an events map):
 *   [NAME]: unknown section (known: [a], [b])
 *   [NAME]: section given twice                         (a section that is `once`)
 *   KEY: keys belong in a section (known: [a], [b])     (a key line before any section)
 *   KEY: unknown section [NAME] (known: [a], [b])       (lazy_sections: at its first key)
 *   KEY: unknown key in [NAME] (known: k1, k2)          (or the section's unknown_key)
 *   KEY: set twice in [NAME] (first at line N)
 *   KEY: "TEXT": an indented line goes on with the value above; a key of its own starts its line
 *   KEY: "TEXT": an indented line goes on with text or a list; a key of its own starts its line
 *   not a valid INI line (want key = value or [section])
 * each after "FILE:LINE: " (or "--set K=V: "). */
struct sb_ini_spec {
    const struct sb_ini_section *sections;
    bool lazy_sections;          /* an unknown section is refused at its first key, not at its
                                    line */
    /* Called at each known section line (optional). */
    void (*on_section)(void *user, int section, int line);
    /* Called with each value once it is whole; SB_OK, or an error saying what is wrong with
     * it (the reader puts where and the key in front). */
    int (*on_value)(void *user, struct sb_ini_value *v, struct sb_error *err);
};

/* Reads lines (opened: sb_ini_open, or a string) to its end; label names it in errors. A spec
 * may have any number of sections and keys: what the reader keeps of them (which sections were
 * seen, where each key was set) is sized from the spec's tables. */
int sb_ini_read(struct sb_ini_lines *lines, const char *label, const struct sb_ini_spec *spec,
                void *user, struct sb_error *err);

/* One `name = value` not from a file (`--set`), as a line of section would be read: the key,
 * the value and the errors (which start with origin) the same; never "set twice". */
int sb_ini_take(const struct sb_ini_spec *spec, int section, const char *origin,
                const char *name, const char *value, void *user, struct sb_error *err);

/* The index of name among keys (ends with a NULL name); -1 when it is not there. */
int sb_ini_key_find(const struct sb_ini_key *keys, const char *name);

/* Piece i of v into buf (cut to size): the text of that line. */
char *sb_ini_piece(const struct sb_ini_value *v, int i, char *buf, size_t size);

/* Whether text says yes (yes, true, on, 1) or no (no, false, off, 0); false: neither. */
bool sb_ini_yesno(const char *text, bool *yes);

/* One item of a value of key k, by its type: SIZE, UINT, YESNO into *number, NUMBER into
 * *real (either may be NULL where the type does not use it); TEXT and WORD are taken as they
 * are. SB_ERR_INPUT saying why ("\"12QB\" is not a size (e.g. 8192, 256K, 16MB)", "is out of
 * range (1 to 100)", "is not yes or no", "is not a positive number"). */
int sb_ini_parse(const struct sb_ini_key *k, const char *item, uint64_t *number, double *real,
                 struct sb_error *err);

#endif
