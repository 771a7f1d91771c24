/* SPDX-License-Identifier: BSD-3-Clause */
/* error.h: how every scanbench function reports failure: an exit status (2 bad input, 1 a run
 * failed, 3 counters required but unavailable) and one line of text naming what went wrong. */
#ifndef SB_ERROR_H
#define SB_ERROR_H

enum sb_status {
    SB_OK = 0,
    SB_ERR_RUN = 1,      /* a run failed: validation mismatch, allocation failure, I/O error */
    SB_ERR_INPUT = 2,    /* bad input: config, --set, file names, sizes, unknown names */
    SB_ERR_COUNTERS = 3, /* counters were required (require_counters=yes) and unavailable */
};

struct sb_error {
    int status;
    char msg[2048];      /* room for a path of SB_PATH_MAX and what is wrong with it */
};

/* The most bytes of a bad input's message (SB_ERR_INPUT): with "scanbench: " before it, a line
 * of 300 at most. Longer, its long words (a path, a --set's values: over 100 bytes without a
 * blank) keep their first and last 30 bytes, so that the input it names and what is wrong
 * (its end) are both there; a message long for its fixed words alone is left so. Other
 * statuses' messages keep within msg's room the same way, and lose their middle past it. */
#define SB_ERROR_INPUT_MOST 280

/* Records status and a printf-style message in err (if err is not NULL); returns status. A
 * message past its most (SB_ERROR_INPUT_MOST for SB_ERR_INPUT, else msg's room) is shortened
 * as said above, each cut between two characters. */
int sb_fail(struct sb_error *err, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Prefixes the message already in err with "prefix: " (e.g. the file:line it came from). */
void sb_error_prefix(struct sb_error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
