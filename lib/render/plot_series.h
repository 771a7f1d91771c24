/* SPDX-License-Identifier: BSD-3-Clause */
/* plot_series.h: a report's runs grouped into the lines of its plot (see plot.h): one per op,
 * policy and kernel and per value of every other key that varies among those runs, each titled,
 * its points sorted by footprint. Internal to render. */
#ifndef SB_RENDER_PLOT_SERIES_H
#define SB_RENDER_PLOT_SERIES_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "core/core.h"

/* One line of the plot: runs that differ only in the bytes the policy writes into. */
struct series {
    char *title;   /* op policy kernel, then key=value for every other key that varies */
    size_t *runs;  /* indexes into the report's runs, sorted by footprint */
    size_t n;
};

/* Groups the runs into lines: every run is on one; SB_ERR_INPUT when there are none or two
 * would be one point of a line. *out is freed with sb_plot_series_free. */
int sb_plot_series_make(const json_t *runs, struct series **out, size_t *nout,
                        struct sb_error *err);
void sb_plot_series_free(struct series *s, size_t n);

/* Whether two fields are the same, both absent included (json_equal says no to absent ones). */
bool sb_plot_same_value(const json_t *a, const json_t *b);

#endif
