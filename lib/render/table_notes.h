/* SPDX-License-Identifier: BSD-3-Clause */
/* table_notes.h: the lines under the run table: how to read it (MB/s, the ratios and their
 * marks, the timed slices, the noise floor and a noisy host's warning, each inconclusive
 * comparison with what it could have resolved, each that follows the host's level), the
 * sweeps' knees, each run's write-back, each run's statements. Private to lib/render. */
#ifndef SB_RENDER_TABLE_NOTES_H
#define SB_RENDER_TABLE_NOTES_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

/* How to read the table; ratios: it shows ratios (the inconclusive and host-level lines). */
void sb_table_footer(FILE *out, const json_t *report, bool ratios);
void sb_table_knees(FILE *out, const json_t *report);
void sb_table_writeback(FILE *out, const json_t *runs);
void sb_table_statements(FILE *out, const json_t *runs);

#endif
