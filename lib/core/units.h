/* SPDX-License-Identifier: BSD-3-Clause */
/* units.h: sizes as people write them ("16M", "256kB", "8192") and as scanbench prints them.
 * Sizes are binary, as PostgreSQL's settings are (1kB = 1024 bytes, 1MB = 2^20); throughput is
 * decimal (MB/s = 10^6 bytes per second), as the 2007 thread reported it. */
#ifndef SB_UNITS_H
#define SB_UNITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SB_MB_DECIMAL 1e6

/* Parses a size: digits, optional unit B, K/KB/KiB, M/MB/MiB, G/GB/GiB, T/TB/TiB (any case).
 * Returns false for anything else, for overflow, and for an empty string. */
bool sb_parse_size(const char *text, uint64_t *bytes);

/* Parses a whole non-negative decimal number (no sign, no unit). */
bool sb_parse_uint(const char *text, uint64_t *value);

/* Formats a size the way the thread wrote them: "16MB", "256KB", "680KB", "8192B". Exact:
 * a size that is not a whole number of the larger unit is printed in the smaller one. */
const char *sb_format_size(uint64_t bytes, char *buf, size_t len);

/* Formats a size as a key's value is written ("1G", "16M", "680K"; bytes below a whole KB:
 * "100"), for the run names a sweep's size shows in (never read back). */
const char *sb_format_size_word(uint64_t bytes, char *buf, size_t len);

/* Formats an estimated size (an interpolated knee) to three significant digits in the largest
 * unit it fills: "1.19MB", "680KB", "20.5MB". */
const char *sb_format_size_approx(double bytes, char *buf, size_t len);

#endif
