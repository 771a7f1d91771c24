/* SPDX-License-Identifier: BSD-3-Clause */
/* plot.c: the gnuplot script that draws a report (see plot.h): its lines (plot_series.c), the
 * cache sizes marked, MB/s with the median's interval and, with counters, the counter figures;
 * running gnuplot on it is plot_gnuplot.c's. */
#include "config.h"
#include "render/plot.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "render/plot_series.h"
#include "report/report.h"

/* Text from a report (another host's, perhaps hostile) as a gnuplot single-quoted string:
 * quotes doubled, control characters as '?', so it can never end the string, the line or the
 * command (single quotes also stop gnuplot's backquote substitution). Cut to fit buf. */
static const char *gp_quote(const char *raw, char *buf, size_t len)
{
    size_t used = 0;

    buf[used++] = '\'';
    for (const char *p = raw; *p && used + 3 < len; p++) {
        unsigned char c = (unsigned char)*p;
        if (c == '\'')
            buf[used++] = '\'';
        buf[used++] = c < 0x20 || c == 0x7f ? '?' : (char)c;
    }
    buf[used++] = '\'';
    buf[used] = '\0';
    return buf;
}

/* gp_quote into a buffer of its own, which never cuts raw (NULL when out of memory). */
static char *gp_quoted(const char *raw)
{
    size_t len = 2 * strlen(raw) + 3;
    char *buf = malloc(len);
    return buf ? (char *)gp_quote(raw, buf, len) : NULL;
}

int sb_plot_check(const json_t *report, const char *label, struct sb_error *err)
{
    struct series *s;
    size_t n;
    int status = sb_plot_series_make(json_object_get(report, "runs"), &s, &n, err);

    if (status == SB_OK)
        sb_plot_series_free(s, n);
    else
        sb_error_prefix(err, "%s", label);
    return status;
}

static bool has_counters(const json_t *runs)
{
    size_t i;
    json_t *run;
    json_array_foreach(runs, i, run) {
        const json_t *d = sb_field(run, "counters.derived");
        if (json_is_number(json_object_get(d, "l2_writeback_per_page")) ||
            json_is_number(json_object_get(d, "mem_read_bytes_per_table_byte")))
            return true;
    }
    return false;
}

/* Whether some run of the series has a number for this derived counter figure. */
static bool has_points(const json_t *runs, const struct series *s, const char *field)
{
    for (size_t p = 0; p < s->n; p++) {
        const json_t *run = json_array_get(runs, s->runs[p]);
        if (json_is_number(json_object_get(sb_field(run, "counters.derived"), field)))
            return true;
    }
    return false;
}

/* Marks the cache sizes, and widens the x range so that every mark shows. */
static void cache_marks(FILE *f, const json_t *report)
{
    const json_t *runs = json_object_get(report, "runs");
    double lo = 0, hi = 0;
    size_t i;
    json_t *level, *run;

    json_array_foreach(runs, i, run) {
        double fp = (double)json_integer_value(json_object_get(run, "footprint"));
        lo = (lo == 0 || fp < lo) ? fp : lo;
        hi = fp > hi ? fp : hi;
    }
    json_array_foreach(sb_field(report, "context.caches"), i, level) {
        const json_t *size = sb_field(level, "size.value");
        double v = (double)json_integer_value(size);
        if (!json_is_integer(size))
            continue;
        lo = (lo == 0 || v < lo) ? v : lo;
        hi = v > hi ? v : hi;
    }
    if (lo > 0)
        fprintf(f, "set xrange [%g:%g]\n", lo / 1.5, hi * 1.5);

    json_array_foreach(sb_field(report, "context.caches"), i, level) {
        const json_t *size = sb_field(level, "size.value");
        if (!json_is_integer(size))
            continue;
        char name[64];
        fprintf(f, "set arrow from %lld, graph 0 to %lld, graph 1 nohead dashtype 2 lc rgb "
                   "'#888888'\nset label %s at %lld, graph 0.97 offset 0.5,0 tc rgb '#555555'\n",
                (long long)json_integer_value(size), (long long)json_integer_value(size),
                gp_quote(sb_field_text_or(level, "level", "?"), name, sizeof name),
                (long long)json_integer_value(size));
    }
}

/* The MB/s block of one series: footprint, median, and the interval of the median (the median
 * itself where the report has no rounds to make one). */
static void mbps_block(FILE *f, const json_t *analysis, const json_t *runs,
                       const struct series *s, size_t k)
{
    fprintf(f, "$mbps%zu << EOD\n", k);
    for (size_t p = 0; p < s[k].n; p++) {
        const json_t *run = json_array_get(runs, s[k].runs[p]);
        const json_t *iv = sb_analysis_run(analysis, run);
        const json_t *v = sb_field(run, "mbps.median");
        double median = json_number_value(v);
        bool interval = json_is_number(json_object_get(iv, "lo")) &&
                        json_is_number(json_object_get(iv, "hi"));
        if (!json_is_number(v))
            continue;
        fprintf(f, "%lld %.6g %.6g %.6g\n",
                (long long)json_integer_value(json_object_get(run, "footprint")), median,
                interval ? json_number_value(json_object_get(iv, "lo")) : median,
                interval ? json_number_value(json_object_get(iv, "hi")) : median);
    }
    fprintf(f, "EOD\n");
}

/* One inline data block per series: footprint and a counter figure per run. */
static void data_blocks(FILE *f, const char *prefix, const json_t *runs, const struct series *s,
                        size_t n, const char *field)
{
    for (size_t k = 0; k < n; k++) {
        fprintf(f, "$%s%zu << EOD\n", prefix, k);
        for (size_t p = 0; p < s[k].n; p++) {
            const json_t *run = json_array_get(runs, s[k].runs[p]);
            const json_t *v = json_object_get(sb_field(run, "counters.derived"), field);
            double scale = strstr(field, "table_byte") /* bytes per table byte -> per page */
                               ? (double)json_integer_value(json_object_get(run, "page_size"))
                               : 1.0;
            if (json_is_number(v))
                fprintf(f, "%lld %.6g\n",
                        (long long)json_integer_value(json_object_get(run, "footprint")),
                        json_number_value(v) * scale);
        }
        fprintf(f, "EOD\n");
    }
}

/* A line of the plot: $PREFIXk, its axes, its title (the series' title and what; never cut);
 * the MB/s lines with their intervals as error bars. */
static void plot_line(FILE *f, const char *sep, const char *prefix, size_t k, const char *axes,
                      const char *title, const char *what)
{
    bool bars = strcmp(prefix, "mbps") == 0;
    size_t len = strlen(title) + strlen(what) + 1;
    char *raw = malloc(len), *quoted = NULL;

    if (raw) {
        snprintf(raw, len, "%s%s", title, what);
        quoted = gp_quoted(raw);
    }
    fprintf(f, "%s$%s%zu using 1:2%s%s with %s title %s", sep, prefix, k, bars ? ":3:4" : "",
            axes, bars ? "yerrorlines" : "linespoints", quoted ? quoted : "'?'");
    free(raw);
    free(quoted);
}

/* The counters panel: only the lines with points (a role no run could read, null, has an empty
 * block, and gnuplot fails when every line on an axis is empty). */
static void counters_plot(FILE *f, const json_t *runs, const struct series *s, size_t n)
{
    static const struct {
        const char *prefix, *field, *axes, *what;
    } lines[] = {
        {"wb", "l2_writeback_per_page", "", ": L2 write-backs"},
        {"rd", "mem_read_bytes_per_table_byte", " axes x1y2", ": memory bytes read"},
        {"wr", "mem_write_bytes_per_table_byte", " axes x1y2", ": memory bytes written"},
    };
    const char *sep = "";

    fprintf(f, "set title 'counters per page (%s)'\nset ylabel 'L2 write-backs per page "
               "(lines)'\nset y2label 'memory bytes per page'\nset y2tics\nset ytics nomirror\n",
            json_is_true(sb_field(json_array_get(runs, 0), "counters.simulated")) ? "simulated"
                                                                                  : "measured");
    fprintf(f, "plot ");
    for (size_t k = 0; k < n; k++)
        for (size_t l = 0; l < sizeof lines / sizeof lines[0]; l++) {
            if (!has_points(runs, &s[k], lines[l].field))
                continue;
            plot_line(f, sep, lines[l].prefix, k, lines[l].axes, s[k].title, lines[l].what);
            sep = ", ";
        }
    fprintf(f, "\nunset multiplot\n");
}

/* The plot's title: the experiment, the host and its CPU, from the report; then, where the
 * report says, its rounds, noise floor and the aggressor beside them (key contention). */
static void plot_title(FILE *f, const json_t *report)
{
    const json_t *ctx = json_object_get(report, "context");
    const json_t *schedule = json_object_get(report, "schedule");
    const json_t *rounds = json_object_get(schedule, "rounds");
    const json_t *floor = sb_report_noise_floor(report);
    const json_t *contention = sb_field(schedule, "contention.kind");
    char *raw = NULL, *quoted = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&raw, &len);

    if (m) {
        fprintf(m, "scanbench %s on %s (%s)",
                sb_field_text_or(report, "experiment.name", "?"),
                sb_field_text_or(ctx, "host", "?"), sb_field_text_or(ctx, "cpu_model", "?"));
        if (json_is_integer(rounds))
            fprintf(m, ", %lld rounds", (long long)json_integer_value(rounds));
        if (json_is_number(floor))
            fprintf(m, ", noise floor %.1f%%", 100.0 * json_number_value(floor));
        if (json_is_string(contention) && strcmp(json_string_value(contention), "none") != 0)
            fprintf(m, ", beside a %s aggressor", json_string_value(contention));
        if (fclose(m) == 0)
            quoted = gp_quoted(raw);
    }
    fprintf(f, "set title %s noenhanced\n", quoted ? quoted : "'scanbench'");
    free(raw);
    free(quoted);
}

int sb_plot_script(FILE *f, const json_t *report, const char *output, struct sb_error *err)
{
    const json_t *runs = json_object_get(report, "runs");
    json_t *analysis = NULL;
    const char *ext = strrchr(output, '.');
    bool counters = has_counters(runs);
    struct series *s;
    char *quoted;
    size_t n;
    int status;

    if (!ext || (strcmp(ext, ".svg") != 0 && strcmp(ext, ".png") != 0))
        return sb_fail(err, SB_ERR_INPUT, "%s: the plot must end in .png or .svg", output);
    if ((status = sb_plot_series_make(runs, &s, &n, err)) != SB_OK)
        return status;
    /* a report read from a file may lack its analysis: made here (schema 1: no intervals) */
    if (!json_object_get(report, "analysis"))
        analysis = sb_analysis_build(report);
    if (strcmp(ext, ".svg") == 0)
        fprintf(f, "set terminal svg size 1000,%d dynamic font 'sans,11'\n", counters ? 1100 : 600);
    else
        fprintf(f, "set terminal pngcairo size 1000,%d font 'sans,10'\n", counters ? 1100 : 600);
    quoted = gp_quoted(output);
    fprintf(f, "set output %s\n", quoted ? quoted : "'?'");
    free(quoted);
    for (size_t k = 0; k < n; k++)
        mbps_block(f, analysis ? analysis : json_object_get(report, "analysis"), runs, s, k);
    if (counters) {
        data_blocks(f, "wb", runs, s, n, "l2_writeback_per_page");
        data_blocks(f, "rd", runs, s, n, "mem_read_bytes_per_table_byte");
        data_blocks(f, "wr", runs, s, n, "mem_write_bytes_per_table_byte");
        fprintf(f, "set multiplot layout 2,1\n");
    }
    plot_title(f, report);
    fprintf(f, "set logscale x 2\nset format x '%%.0b%%B'\nset grid\nset key outside right "
               "noenhanced\nset xlabel 'bytes the policy writes into (pool, ring or one page; "
               "log scale, binary units)'\nset ylabel 'MB/s (table bytes / s / 10^6): median, 95%% interval'\n");
    cache_marks(f, report);
    fprintf(f, "plot ");
    for (size_t k = 0; k < n; k++)
        plot_line(f, k ? ", " : "", "mbps", k, "", s[k].title, "");
    fprintf(f, "\n");
    if (counters)
        counters_plot(f, runs, s, n);
    sb_plot_series_free(s, n);
    json_decref(analysis);
    return SB_OK;
}
