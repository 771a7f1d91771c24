/* SPDX-License-Identifier: BSD-3-Clause */
/* units.c: parsing and printing sizes (binary units, as PostgreSQL's settings). */
#include "config.h"
#include "core/units.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

bool sb_parse_uint(const char *text, uint64_t *value)
{
    uint64_t v = 0;
    const char *p = text;

    if (!text || !isdigit((unsigned char)*p))
        return false;
    for (; isdigit((unsigned char)*p); p++) {
        unsigned digit = (unsigned)(*p - '0');
        if (v > (UINT64_MAX - digit) / 10)
            return false;
        v = v * 10 + digit;
    }
    if (*p != '\0')
        return false;
    *value = v;
    return true;
}

bool sb_parse_size(const char *text, uint64_t *bytes)
{
    static const struct {
        const char *suffix;
        unsigned shift;
    } units[] = {
        {"", 0},     {"b", 0},    {"k", 10},   {"kb", 10},  {"kib", 10}, {"m", 20},
        {"mb", 20},  {"mib", 20}, {"g", 30},   {"gb", 30},  {"gib", 30}, {"t", 40},
        {"tb", 40},  {"tib", 40},
    };
    char digits[32];
    size_t n = 0;
    uint64_t v;

    if (!text)
        return false;
    while (isdigit((unsigned char)text[n]))
        n++;
    if (n == 0 || n >= sizeof digits)
        return false;
    memcpy(digits, text, n);
    digits[n] = '\0';
    if (!sb_parse_uint(digits, &v))
        return false;
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        if (strcasecmp(text + n, units[i].suffix) == 0) {
            if (units[i].shift && v > (UINT64_MAX >> units[i].shift))
                return false;
            *bytes = v << units[i].shift;
            return true;
        }
    }
    return false;
}

const char *sb_format_size(uint64_t bytes, char *buf, size_t len)
{
    static const char *names[] = {"B", "KB", "MB", "GB", "TB"};
    unsigned u = 0;

    while (u < 4 && bytes >= 1024 && bytes % 1024 == 0) {
        bytes /= 1024;
        u++;
    }
    snprintf(buf, len, "%llu%s", (unsigned long long)bytes, names[u]);
    return buf;
}

const char *sb_format_size_word(uint64_t bytes, char *buf, size_t len)
{
    if (bytes && bytes % (1ull << 30) == 0)
        snprintf(buf, len, "%lluG", (unsigned long long)(bytes >> 30));
    else if (bytes && bytes % (1ull << 20) == 0)
        snprintf(buf, len, "%lluM", (unsigned long long)(bytes >> 20));
    else if (bytes && bytes % 1024 == 0)
        snprintf(buf, len, "%lluK", (unsigned long long)(bytes >> 10));
    else
        snprintf(buf, len, "%llu", (unsigned long long)bytes);
    return buf;
}

const char *sb_format_size_approx(double bytes, char *buf, size_t len)
{
    static const char *names[] = {"B", "KB", "MB", "GB", "TB"};
    unsigned u = 0;

    while (u < 4 && bytes >= 1024.0) {
        bytes /= 1024.0;
        u++;
    }
    snprintf(buf, len, "%.*f%s", bytes >= 100.0 || u == 0 ? 0 : bytes >= 10.0 ? 1 : 2, bytes,
             names[u]);
    return buf;
}
