/* plot.c: writing a gnuplot script for a report and running gnuplot on it (see plot.h). */
#include "config.h"
#include "render/plot.h"

#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/core.h"
#include "report/report.h"

/* One line of the plot: runs that differ only in the bytes the policy writes into. */
struct series {
    char *title;   /* op policy kernel, then key=value for every other key that varies */
    size_t *runs;  /* indexes into the report's runs, sorted by footprint */
    size_t n;
};

/* What else may differ between runs of one op, policy and kernel: each splits the line when it
 * varies (the key the footprint is made of, pool_size or ring_size, excepted). The field's path
 * in the run record, and its name in the line's title. */
static const struct {
    const char *path[3];
    const char *name;
} line_keys[] = {
    {{"source"}, "source"},           {{"table_size"}, "table_size"},
    {{"page_size"}, "page_size"},     {{"row_width"}, "row_width"},
    {{"dead_pct"}, "dead_pct"},       {{"threads"}, "threads"},
    {{"bigtable"}, "bigtable"},       {{"shared_table"}, "shared_table"},
    {{"shared_pool"}, "shared_pool"}, {{"pool_size"}, "pool_size"},
    {{"ring_size"}, "ring_size"},     {{"seed"}, "seed"},
    {{"warmup"}, "warmup"},           {{"counters", "backend"}, "counters"},
    {{"counters", "machine", "name"}, "machine"},
    {{"counters", "machine", "prefetch"}, "prefetch"},
    {{"placement", "iocache", "asked"}, "iocache_node"},
    {{"placement", "pool", "asked"}, "pool_node"},
};
#define NLINE_KEYS (sizeof line_keys / sizeof line_keys[0])

static const char *text(const json_t *v) { return json_is_string(v) ? json_string_value(v) : "?"; }

static const json_t *line_key(const json_t *run, size_t k)
{
    const json_t *v = run;
    for (int d = 0; d < 3 && line_keys[k].path[d]; d++)
        v = json_object_get(v, line_keys[k].path[d]);
    return v;
}

/* Whether two fields are the same, both absent included (json_equal says no to absent ones). */
static bool same_value(const json_t *a, const json_t *b)
{
    return (!a && !b) || json_equal(a, b);
}

/* The key the footprint is made of for the run's policy (it is the x axis, not a line). */
static bool is_x_key(const json_t *run, size_t k)
{
    const json_t *footprint = json_object_get(run, "footprint");
    return (strcmp(line_keys[k].name, "pool_size") == 0 ||
            strcmp(line_keys[k].name, "ring_size") == 0) &&
           same_value(line_key(run, k), footprint);
}

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

static int by_footprint(const void *a, const void *b, void *runs)
{
    json_int_t fa = json_integer_value(json_object_get(json_array_get(runs, *(const size_t *)a),
                                                       "footprint"));
    json_int_t fb = json_integer_value(json_object_get(json_array_get(runs, *(const size_t *)b),
                                                       "footprint"));
    return (fa > fb) - (fa < fb);
}

static bool same_group(const json_t *a, const json_t *b)
{
    static const char *const keys[] = {"op", "policy", "kernel"};
    for (size_t k = 0; k < 3; k++)
        if (!same_value(json_object_get(a, keys[k]), json_object_get(b, keys[k])))
            return false;
    return true;
}

/* Which line keys vary within each group of runs of one op, policy and kernel: varies[g] for
 * the group whose first run is g (group[i]: the first run of run i's group). */
static void varying_keys(const json_t *runs, size_t *group, bool (*varies)[NLINE_KEYS])
{
    size_t i, j;
    json_t *run;

    json_array_foreach(runs, i, run) {
        for (j = 0; j < i && !same_group(json_array_get(runs, group[j]), run); j++)
            ;
        group[i] = j < i ? group[j] : i;
        for (size_t k = 0; k < NLINE_KEYS; k++) {
            const json_t *first = json_array_get(runs, group[i]);
            if (group[i] == i)
                varies[i][k] = false;
            else
                varies[group[i]][k] |= !is_x_key(first, k) &&
                                       !same_value(line_key(first, k), line_key(run, k));
        }
    }
}

/* "op policy kernel key=value...", every varying key's value (sizes as sizes). */
static char *line_title(const json_t *run, const bool *varies)
{
    char *title = NULL, value[96];
    size_t len = 0;
    FILE *f = open_memstream(&title, &len);

    if (!f)
        return NULL;
    fprintf(f, "%s %s %s", text(json_object_get(run, "op")), text(json_object_get(run, "policy")),
            text(json_object_get(run, "kernel")));
    for (size_t k = 0; k < NLINE_KEYS; k++) {
        const json_t *v = line_key(run, k);
        if (!varies[k])
            continue;
        if (json_is_integer(v) && json_integer_value(v) >= 0 && strstr(line_keys[k].name, "_size"))
            sb_format_size((uint64_t)json_integer_value(v), value, sizeof value);
        else if (json_is_integer(v))
            snprintf(value, sizeof value, "%lld", (long long)json_integer_value(v));
        else if (json_is_number(v))
            snprintf(value, sizeof value, "%g", json_number_value(v));
        else if (json_is_boolean(v))
            snprintf(value, sizeof value, "%s", json_is_true(v) ? "yes" : "no");
        else
            snprintf(value, sizeof value, "%s", json_is_string(v) ? "" : "none");
        fprintf(f, " %s=%s", line_keys[k].name, json_is_string(v) ? json_string_value(v) : value);
    }
    return fclose(f) == 0 ? title : (free(title), NULL);
}

static void free_series(struct series *s, size_t n)
{
    for (size_t k = 0; s && k < n; k++) {
        free(s[k].title);
        free(s[k].runs);
    }
    free(s);
}

/* Two runs on one point of one line: what the plot cannot show (they differ in nothing it
 * draws a line for). */
static int check_points(const json_t *runs, const struct series *s, size_t n,
                        struct sb_error *err)
{
    for (size_t k = 0; k < n; k++)
        for (size_t p = 1; p < s[k].n; p++)
            if (by_footprint(&s[k].runs[p - 1], &s[k].runs[p], (void *)runs) == 0)
                return sb_fail(err, SB_ERR_INPUT, "runs \"%s\" and \"%s\" would be one point of "
                               "the line '%s' (the same footprint, nothing else the plot tells "
                               "apart): plot them from reports of their own",
                               text(json_object_get(json_array_get(runs, s[k].runs[p - 1]),
                                                    "name")),
                               text(json_object_get(json_array_get(runs, s[k].runs[p]), "name")),
                               s[k].title);
    return SB_OK;
}

/* Groups the runs into lines (struct series): one per op, policy and kernel and per value of
 * every other key that varies among those runs, points sorted by footprint. Every run is on
 * one line. *out is freed with free_series. */
static int make_series(const json_t *runs, struct series **out, size_t *nout,
                       struct sb_error *err)
{
    size_t nruns = json_array_size(runs), n = 0, i, *group = calloc(nruns + 1, sizeof *group);
    struct series *s = calloc(nruns + 1, sizeof *s);
    bool (*varies)[NLINE_KEYS] = calloc(nruns + 1, sizeof *varies);
    json_t *run;
    int status = SB_OK;

    if (!s || !group || !varies) {
        status = sb_fail(err, SB_ERR_RUN, "out of memory");
        goto out;
    }
    varying_keys(runs, group, varies);
    json_array_foreach(runs, i, run) {
        char *title = line_title(run, varies[group[i]]);
        size_t k;
        for (k = 0; title && k < n && strcmp(s[k].title, title) != 0; k++)
            ;
        if (!title || (k == n && !(s[n].runs = malloc(nruns * sizeof *s[n].runs)))) {
            free(title);
            status = sb_fail(err, SB_ERR_RUN, "out of memory");
            goto out;
        }
        if (k == n)
            s[n++].title = title;
        else
            free(title);
        s[k].runs[s[k].n++] = i;
    }
    for (size_t k = 0; k < n; k++)
        qsort_r(s[k].runs, s[k].n, sizeof s[k].runs[0], by_footprint, (void *)runs);
    if (nruns == 0)
        status = sb_fail(err, SB_ERR_INPUT, "the report has no runs: nothing to plot");
    else
        status = check_points(runs, s, n, err);
out:
    free(group);
    free(varies);
    if (status != SB_OK) {
        free_series(s, n);
        return status;
    }
    *out = s;
    *nout = n;
    return SB_OK;
}

int sb_plot_check(const json_t *report, const char *label, struct sb_error *err)
{
    struct series *s;
    size_t n;
    int status = make_series(json_object_get(report, "runs"), &s, &n, err);

    if (status == SB_OK)
        free_series(s, n);
    else
        sb_error_prefix(err, "%s", label);
    return status;
}

static bool has_counters(const json_t *runs)
{
    size_t i;
    json_t *run;
    json_array_foreach(runs, i, run) {
        const json_t *d = json_object_get(json_object_get(run, "counters"), "derived");
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
        if (json_is_number(json_object_get(json_object_get(json_object_get(run, "counters"),
                                                           "derived"), field)))
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
    json_array_foreach(json_object_get(json_object_get(report, "context"), "caches"), i, level) {
        const json_t *size = json_object_get(json_object_get(level, "size"), "value");
        double v = (double)json_integer_value(size);
        if (!json_is_integer(size))
            continue;
        lo = (lo == 0 || v < lo) ? v : lo;
        hi = v > hi ? v : hi;
    }
    if (lo > 0)
        fprintf(f, "set xrange [%g:%g]\n", lo / 1.5, hi * 1.5);

    json_array_foreach(json_object_get(json_object_get(report, "context"), "caches"), i, level) {
        const json_t *size = json_object_get(json_object_get(level, "size"), "value");
        if (!json_is_integer(size))
            continue;
        char name[64];
        fprintf(f, "set arrow from %lld, graph 0 to %lld, graph 1 nohead dashtype 2 lc rgb "
                   "'#888888'\nset label %s at %lld, graph 0.97 offset 0.5,0 tc rgb '#555555'\n",
                (long long)json_integer_value(size), (long long)json_integer_value(size),
                gp_quote(text(json_object_get(level, "level")), name, sizeof name),
                (long long)json_integer_value(size));
    }
}

/* The analysis' interval of a run's median MB/s ({"name", "median", "lo", "hi"}), or NULL. */
static const json_t *run_interval(const json_t *analysis, const json_t *run)
{
    size_t i;
    json_t *r;
    json_array_foreach(json_object_get(analysis, "runs"), i, r)
        if (same_value(json_object_get(r, "name"), json_object_get(run, "name")))
            return r;
    return NULL;
}

/* The MB/s block of one series: footprint, median, and the interval of the median (the median
 * itself where the report has no rounds to make one). */
static void mbps_block(FILE *f, const json_t *analysis, const json_t *runs,
                       const struct series *s, size_t k)
{
    fprintf(f, "$mbps%zu << EOD\n", k);
    for (size_t p = 0; p < s[k].n; p++) {
        const json_t *run = json_array_get(runs, s[k].runs[p]);
        const json_t *iv = run_interval(analysis, run);
        const json_t *v = json_object_get(json_object_get(run, "mbps"), "median");
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
            const json_t *v = json_object_get(json_object_get(json_object_get(run, "counters"),
                                                              "derived"), field);
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
            json_is_true(json_object_get(json_object_get(json_array_get(runs, 0), "counters"),
                                         "simulated")) ? "simulated" : "measured");
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

/* The plot's title: the experiment, the host and its CPU, from the report. */
static void plot_title(FILE *f, const json_t *report)
{
    const json_t *ctx = json_object_get(report, "context");
    char *raw = NULL, *quoted = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&raw, &len);

    if (m) {
        fprintf(m, "scanbench %s on %s (%s)",
                text(json_object_get(json_object_get(report, "experiment"), "name")),
                text(json_object_get(ctx, "host")), text(json_object_get(ctx, "cpu_model")));
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
    if ((status = make_series(runs, &s, &n, err)) != SB_OK)
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
    free_series(s, n);
    json_decref(analysis);
    return SB_OK;
}

/* The gnuplot on PATH, or NULL. */
static char *find_gnuplot(void)
{
    const char *path = getenv("PATH");
    char *copy, *dir, *cursor, *found = NULL;

    if (!path || !(copy = strdup(path)))
        return NULL;
    for (cursor = copy; !found && (dir = strsep(&cursor, ":")) != NULL;) {
        char candidate[1024];
        snprintf(candidate, sizeof candidate, "%s/gnuplot", *dir ? dir : ".");
        if (access(candidate, X_OK) == 0)
            found = strdup(candidate);
    }
    free(copy);
    return found;
}

/* The stop hook while gnuplot runs: a stop signal ends it (kill is async-signal-safe). */
static volatile pid_t gnuplot_pid;

static void stop_gnuplot(void *arg)
{
    pid_t pid = gnuplot_pid;

    (void)arg;
    if (pid > 0)
        kill(pid, SIGTERM);
}

/* How gnuplot ended, in words, or "" when it exited 0. */
static const char *gnuplot_failure(pid_t pid, pid_t waited, int wstatus, char *buf, size_t len)
{
    if (pid < 0 || waited < 0)
        snprintf(buf, len, "could not be run: %s", strerror(errno));
    else if (WIFSIGNALED(wstatus))
        snprintf(buf, len, "was killed by signal %d (%s)", WTERMSIG(wstatus),
                 strsignal(WTERMSIG(wstatus)));
    else if (WEXITSTATUS(wstatus) == 127)
        snprintf(buf, len, "could not be run (exit 127)");
    else if (WEXITSTATUS(wstatus) != 0)
        snprintf(buf, len, "failed (exit %d)", WEXITSTATUS(wstatus));
    else
        buf[0] = '\0';
    return buf;
}

/* Runs gnuplot on the script for output: SB_OK when it exited 0. A stop signal (stop.h) ends
 * it, and the plot with it. */
static int run_gnuplot(const char *gnuplot, const char *script, const char *output,
                       struct sb_error *err)
{
    char why[160];
    int wstatus = 0;
    pid_t pid, waited = 0;
    sigset_t old;

    if (sb_stop_signal())
        return sb_fail(err, SB_ERR_RUN, "interrupted (%s): no plot written",
                       sb_stop_signal_name(sb_stop_signal()));
    sb_stop_block(&old);
    pid = fork();
    if (pid == 0) {
        sb_stop_child_defaults();
        execl(gnuplot, "gnuplot", script, (char *)NULL);
        _exit(127);
    }
    gnuplot_pid = pid;
    sb_stop_on_signal(stop_gnuplot, NULL);
    sb_stop_unblock(&old);
    if (pid > 0 && sb_stop_signal())
        kill(pid, SIGTERM); /* came while blocked, before the hook could see the pid */
    while (pid > 0 && (waited = waitpid(pid, &wstatus, 0)) < 0 && errno == EINTR)
        ;
    sb_stop_on_signal(NULL, NULL);
    gnuplot_pid = 0;
    if (!gnuplot_failure(pid, waited, wstatus, why, sizeof why)[0])
        return SB_OK;
    if (sb_stop_signal())
        return sb_fail(err, SB_ERR_RUN, "interrupted (%s): gnuplot stopped, no plot written",
                       sb_stop_signal_name(sb_stop_signal()));
    return sb_fail(err, SB_ERR_RUN, "%s: gnuplot %s", output, why);
}

/* The script that draws report into image, written whole as a temporary file beside output
 * (its name into path). */
static int write_script(const json_t *report, const char *image, const char *output, char *path,
                        struct sb_error *err)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    int status = f ? sb_plot_script(f, report, image, err)
                   : sb_fail(err, SB_ERR_RUN, "out of memory");
    int fd;

    if (f && fclose(f) != 0 && status == SB_OK)
        status = sb_fail(err, SB_ERR_RUN, "out of memory");
    if (status == SB_OK) {
        fd = sb_outfile_temp(output, ".gp", path, err);
        status = fd < 0 ? SB_ERR_RUN : sb_outfile_put(fd, path, text, len, err);
        if (fd >= 0)
            close(fd);
    }
    free(text);
    return status;
}

int sb_plot(const json_t *report, const char *output, char *used, struct sb_error *err)
{
    char *gnuplot = find_gnuplot();
    char image[SB_OUTFILE_MAX], script[SB_OUTFILE_MAX];
    const char *ext = strrchr(output, '.');
    int status, fd;

    image[0] = script[0] = '\0';
    if (!gnuplot)
        return sb_fail(err, SB_ERR_INPUT, "gnuplot not found on PATH (Debian: apt-get install "
                       "gnuplot-nox)");
    status = sb_outfile_check(output, "plot", err);
    if (status == SB_OK && (!ext || (strcmp(ext, ".png") != 0 && strcmp(ext, ".svg") != 0)))
        status = sb_fail(err, SB_ERR_INPUT, "%s: the plot must end in .png or .svg", output);
    if (status != SB_OK)
        goto out;
    /* gnuplot draws into a temporary file, linked into place once it is whole */
    fd = sb_outfile_temp(output, ext, image, err);
    if (fd < 0) {
        status = SB_ERR_RUN;
        goto out;
    }
    close(fd);
    status = write_script(report, image, output, script, err);
    if (status == SB_OK)
        status = run_gnuplot(gnuplot, script, output, err);
    if (status == SB_OK) {
        status = sb_outfile_publish(image, output, used, err);
        image[0] = '\0';
    }
out:
    if (image[0])
        unlink(image);
    if (script[0])
        unlink(script);
    free(gnuplot);
    return status;
}
