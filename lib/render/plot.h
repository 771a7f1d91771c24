/* SPDX-License-Identifier: BSD-3-Clause */
/* plot.h: figures from a report with gnuplot: MB/s against the bytes the policy writes into
 * (pool or ring size, log scale) with the host's L1d, L2 and L3 sizes marked, one line per
 * policy, kernel and op and per value of any other key that varies among their runs; and,
 * when the report has counters, L2 write-backs and memory bytes per page against the same axis.
 * PNG or SVG, chosen by the output's extension. */
#ifndef SB_PLOT_H
#define SB_PLOT_H

#include <jansson.h>
#include <stdio.h>

#include "core/core.h"

/* Whether report can be plotted: it has runs, and no two of them fall on one point of one line
 * (a line per op, policy and kernel and per value of every other key that varies among them,
 * the key the footprint is made of excepted). SB_ERR_INPUT naming label otherwise. */
int sb_plot_check(const json_t *report, const char *label, struct sb_error *err);

/* Writes the gnuplot script that draws report into output (a .png or .svg path): its lines as
 * sb_plot_check says, each titled with its op, policy, kernel and the values of the keys that
 * vary (key=value); every run on one, none left out. */
int sb_plot_script(FILE *script, const json_t *report, const char *output, struct sb_error *err);

/* Draws report into output with the gnuplot found on PATH: the script and the image are
 * written under temporary names beside output, the image linked into place once gnuplot made
 * it whole, never replacing a file: when output appeared meanwhile, as output-2.png (the first
 * free name, outfile.h), the name used into used (SB_OUTFILE_MAX bytes). Both temporary files
 * are removed on every path: a failed write (ENOSPC, `ulimit -f`), gnuplot failing, a stop
 * signal (stop.h; it ends gnuplot). SB_ERR_INPUT when gnuplot is missing (naming the Debian
 * package), the extension is neither .png nor .svg, or output exists or cannot be made. */
int sb_plot(const json_t *report, const char *output, char *used, struct sb_error *err);

#endif
