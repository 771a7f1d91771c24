/* error.c: filling struct sb_error, the one-line error every layer hands up to main(). */
#include "config.h"
#include "error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int sb_fail(struct sb_error *err, int status, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
        err->status = status;
    }
    return status;
}

void sb_error_prefix(struct sb_error *err, const char *fmt, ...)
{
    char prefix[256];
    char old[sizeof err->msg];
    va_list ap;

    if (!err)
        return;
    va_start(ap, fmt);
    vsnprintf(prefix, sizeof prefix, fmt, ap);
    va_end(ap);
    memcpy(old, err->msg, sizeof old);
    snprintf(err->msg, sizeof err->msg, "%s: %s", prefix, old);
}
