/* SPDX-License-Identifier: BSD-3-Clause */
/* error.c: filling struct sb_error, the one-line error every layer hands up to main(). A
 * message too long for it is cut between two characters (it may quote UTF-8 input); what it
 * quotes is made printable (utf8.h's sb_text_printable). */
#include "config.h"
#include "core/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/utf8.h"

/* After a vsnprintf into msg that may have cut it: no half character at its end, and every
 * byte a terminal would act on (a control character, a byte that is not UTF-8) as \xNN. */
static void mend_cut(char *msg, int wanted)
{
    if (wanted >= (int)sizeof ((struct sb_error *)0)->msg)
        msg[sb_utf8_fit(msg, strlen(msg))] = '\0';
    sb_text_printable(msg, sizeof ((struct sb_error *)0)->msg);
}

int sb_fail(struct sb_error *err, int status, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        mend_cut(err->msg, vsnprintf(err->msg, sizeof err->msg, fmt, ap));
        va_end(ap);
        err->status = status;
    }
    return status;
}

void sb_error_prefix(struct sb_error *err, const char *fmt, ...)
{
    char prefix[sizeof err->msg];
    char old[sizeof err->msg];
    va_list ap;

    if (!err)
        return;
    va_start(ap, fmt);
    vsnprintf(prefix, sizeof prefix, fmt, ap);
    va_end(ap);
    memcpy(old, err->msg, sizeof old);
    mend_cut(err->msg, snprintf(err->msg, sizeof err->msg, "%s: %s", prefix, old));
}
