/* plot.c: writing a gnuplot script for a report and running gnuplot on it (see plot.h). */
#include "config.h"
#include "plot.h"

#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "outfile.h"
#include "stop.h"

#define MAX_SERIES 64

struct series {
    char title[128];
    size_t runs[256];
    size_t n;
};

static const char *text(const json_t *v) { return json_is_string(v) ? json_string_value(v) : "?"; }

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

static int by_footprint(const void *a, const void *b, void *runs)
{
    json_int_t fa = json_integer_value(json_object_get(json_array_get(runs, *(const size_t *)a),
                                                       "footprint"));
    json_int_t fb = json_integer_value(json_object_get(json_array_get(runs, *(const size_t *)b),
                                                       "footprint"));
    return (fa > fb) - (fa < fb);
}

/* Groups the runs into lines: one per (policy, kernel, op), points sorted by footprint. */
static size_t make_series(const json_t *runs, struct series *s)
{
    size_t n = 0, i;
    json_t *run;

    json_array_foreach(runs, i, run) {
        char title[128];
        size_t k;
        snprintf(title, sizeof title, "%s %s %s", text(json_object_get(run, "op")),
                 text(json_object_get(run, "policy")), text(json_object_get(run, "kernel")));
        for (k = 0; k < n && strcmp(s[k].title, title) != 0; k++)
            ;
        if (k == n) {
            if (n == MAX_SERIES)
                continue;
            snprintf(s[n++].title, sizeof s[0].title, "%s", title);
        }
        if (s[k].n < sizeof s[k].runs / sizeof s[k].runs[0])
            s[k].runs[s[k].n++] = i;
    }
    for (size_t k = 0; k < n; k++)
        qsort_r(s[k].runs, s[k].n, sizeof s[k].runs[0], by_footprint, (void *)runs);
    return n;
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

/* One inline data block per series: footprint and a figure per run. */
static void data_blocks(FILE *f, const char *prefix, const json_t *runs, const struct series *s,
                        size_t n, const char *field)
{
    for (size_t k = 0; k < n; k++) {
        fprintf(f, "$%s%zu << EOD\n", prefix, k);
        for (size_t p = 0; p < s[k].n; p++) {
            const json_t *run = json_array_get(runs, s[k].runs[p]);
            const json_t *v;
            if (strcmp(field, "mbps") == 0) {
                v = json_object_get(json_object_get(run, "mbps"), "median");
            } else {
                const json_t *d = json_object_get(json_object_get(run, "counters"), "derived");
                v = json_object_get(d, field);
                /* bytes per table byte -> bytes per page */
                if (json_is_number(v) && strstr(field, "table_byte"))
                    fprintf(f, "%lld %.6g\n",
                            (long long)json_integer_value(json_object_get(run, "footprint")),
                            json_number_value(v) *
                                (double)json_integer_value(json_object_get(run, "page_size")));
                else if (json_is_number(v))
                    fprintf(f, "%lld %.6g\n",
                            (long long)json_integer_value(json_object_get(run, "footprint")),
                            json_number_value(v));
                continue;
            }
            if (json_is_number(v))
                fprintf(f, "%lld %.6g\n",
                        (long long)json_integer_value(json_object_get(run, "footprint")),
                        json_number_value(v));
        }
        fprintf(f, "EOD\n");
    }
}

static void plot_command(FILE *f, const char *prefix, const struct series *s, size_t n,
                         const char *suffix)
{
    fprintf(f, "plot ");
    for (size_t k = 0; k < n; k++) {
        char raw[160], title[2 * sizeof raw];
        snprintf(raw, sizeof raw, "%s%s", s[k].title, suffix);
        fprintf(f, "%s$%s%zu using 1:2 with linespoints title %s", k ? ", " : "", prefix, k,
                gp_quote(raw, title, sizeof title));
    }
    fprintf(f, "\n");
}

int sb_plot_script(FILE *f, const json_t *report, const char *output, struct sb_error *err)
{
    const json_t *runs = json_object_get(report, "runs");
    const char *ext = strrchr(output, '.');
    struct series *s = calloc(MAX_SERIES, sizeof *s);
    bool counters = has_counters(runs);
    const char *sep = "";
    char quoted[2 * 4096], raw[1024], title[2 * 160];
    size_t n;

    if (!s)
        return sb_fail(err, SB_ERR_RUN, "out of memory");
    if (ext && strcmp(ext, ".svg") == 0)
        fprintf(f, "set terminal svg size 1000,%d dynamic font 'sans,11'\n", counters ? 1100 : 600);
    else if (ext && strcmp(ext, ".png") == 0)
        fprintf(f, "set terminal pngcairo size 1000,%d font 'sans,10'\n", counters ? 1100 : 600);
    else {
        free(s);
        return sb_fail(err, SB_ERR_INPUT, "%s: the plot must end in .png or .svg", output);
    }
    n = make_series(runs, s);
    fprintf(f, "set output %s\n", gp_quote(output, quoted, sizeof quoted));
    data_blocks(f, "mbps", runs, s, n, "mbps");
    if (counters) {
        data_blocks(f, "wb", runs, s, n, "l2_writeback_per_page");
        data_blocks(f, "rd", runs, s, n, "mem_read_bytes_per_table_byte");
        data_blocks(f, "wr", runs, s, n, "mem_write_bytes_per_table_byte");
        fprintf(f, "set multiplot layout 2,1\n");
    }
    snprintf(raw, sizeof raw, "scanbench %s on %s (%s)",
             text(json_object_get(json_object_get(report, "experiment"), "name")),
             text(json_object_get(json_object_get(report, "context"), "host")),
             text(json_object_get(json_object_get(report, "context"), "cpu_model")));
    fprintf(f, "set title %s noenhanced\n", gp_quote(raw, quoted, sizeof quoted));
    fprintf(f, "set logscale x 2\nset format x '%%.0b%%B'\nset grid\nset key outside right "
               "noenhanced\nset xlabel 'bytes the policy writes into (pool, ring or one page; "
               "log scale, binary units)'\nset ylabel 'MB/s (table bytes / s / 10^6, median)'\n");
    cache_marks(f, report);
    plot_command(f, "mbps", s, n, "");
    if (counters) {
        fprintf(f, "set title 'counters per page (%s)'\nset ylabel 'L2 write-backs per page "
                   "(lines)'\nset y2label 'memory bytes per page'\nset y2tics\nset ytics nomirror\n",
                json_is_true(json_object_get(json_object_get(json_array_get(runs, 0), "counters"),
                                             "simulated")) ? "simulated" : "measured");
        fprintf(f, "plot ");
        /* only the lines with points: a role no run could read (null) has an empty block, and
         * gnuplot fails when every line on an axis is empty */
        for (size_t k = 0; k < n; k++) {
            if (has_points(runs, &s[k], "l2_writeback_per_page")) {
                snprintf(raw, sizeof raw, "%s: L2 write-backs", s[k].title);
                fprintf(f, "%s$wb%zu using 1:2 with linespoints title %s", sep, k,
                        gp_quote(raw, title, sizeof title));
                sep = ", ";
            }
            if (has_points(runs, &s[k], "mem_read_bytes_per_table_byte")) {
                snprintf(raw, sizeof raw, "%s: memory bytes read", s[k].title);
                fprintf(f, "%s$rd%zu using 1:2 axes x1y2 with linespoints title %s", sep, k,
                        gp_quote(raw, title, sizeof title));
                sep = ", ";
            }
            if (has_points(runs, &s[k], "mem_write_bytes_per_table_byte")) {
                snprintf(raw, sizeof raw, "%s: memory bytes written", s[k].title);
                fprintf(f, "%s$wr%zu using 1:2 axes x1y2 with linespoints title %s", sep, k,
                        gp_quote(raw, title, sizeof title));
                sep = ", ";
            }
        }
        fprintf(f, "\nunset multiplot\n");
    }
    free(s);
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
