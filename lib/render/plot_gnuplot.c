/* SPDX-License-Identifier: BSD-3-Clause */
/* plot_gnuplot.c: a report drawn into a PNG or SVG by the gnuplot on PATH (sb_plot, see
 * plot.h): the script (plot.c's) and the image written under temporary names, gnuplot run with
 * a time limit in a process group of its own (a stop signal kills it, and it dies with
 * scanbench), the image published, the temporary files removed. */
#include "config.h"
#include "render/plot.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/core.h"

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

/* gnuplot's time limit (seconds) unless SCANBENCH_PLOT_TIMEOUT sets one: a report's plot
 * takes it well under a second; a gnuplot that hangs (a terminal it waits on, a font it cannot
 * find) is stopped rather than waited for without end. */
#define PLOT_LIMIT_ENV "SCANBENCH_PLOT_TIMEOUT"
#define PLOT_LIMIT 120.0

/* In the child, before exec: stdin /dev/null (a process group in the background that read the
 * terminal would be stopped). */
static void gnuplot_stdin(const void *arg)
{
    int fd = open("/dev/null", O_RDONLY);

    (void)arg;
    if (fd >= 0 && fd != STDIN_FILENO) {
        dup2(fd, STDIN_FILENO);
        close(fd);
    }
}

/* How gnuplot ended, in words, or "" when it exited 0. */
static const char *gnuplot_failure(int exit_status, char *buf, size_t len)
{
    if (exit_status > 128)
        snprintf(buf, len, "was killed by signal %d (%s)", exit_status - 128,
                 strsignal(exit_status - 128));
    else if (exit_status == 127)
        snprintf(buf, len, "could not be run (exit 127)");
    else if (exit_status != 0)
        snprintf(buf, len, "failed (exit %d)", exit_status);
    else
        buf[0] = '\0';
    return buf;
}

/* Runs gnuplot on the script for output (core/program.h: a process group of its own, a time
 * limit, dying with scanbench, reaped on every way out): SB_OK when it exited 0. A stop signal
 * (stop.h) kills it and its process group and ends the plot. */
static int run_gnuplot(const char *gnuplot, const char *script, const char *output,
                       struct sb_error *err)
{
    char why[160], what[1100];
    char *argv[] = {(char *)gnuplot, (char *)script, NULL};
    struct sb_program p = {.argv = argv, .what = what, .limit_env = PLOT_LIMIT_ENV,
                           .stoppable = true, .setup = gnuplot_stdin};
    int exit_status = 0, status;

    if (sb_stop_signal())
        return sb_fail(err, SB_ERR_RUN, "interrupted (%s): no plot written",
                       sb_stop_signal_name(sb_stop_signal()));
    status = sb_program_limit(PLOT_LIMIT_ENV, "gnuplot", PLOT_LIMIT, &p.limit, err);
    if (status != SB_OK)
        return status;
    snprintf(what, sizeof what, "%s: gnuplot", output);
    status = sb_program_run(&p, &exit_status, err);
    if (sb_stop_signal())
        return sb_fail(err, SB_ERR_RUN, "interrupted (%s): gnuplot stopped, no plot written",
                       sb_stop_signal_name(sb_stop_signal()));
    if (status != SB_OK)
        return status;
    if (!gnuplot_failure(exit_status, why, sizeof why)[0])
        return SB_OK;
    return sb_fail(err, SB_ERR_RUN, "%s: gnuplot %s", output, why);
}

/* Whether gnuplot's image is whole: a PNG ends with its IEND chunk, an SVG with </svg>
 * (gnuplot exits 0 when the disk fills under it and leaves a truncated file). */
static bool image_whole(const char *image, const char *ext)
{
    static const unsigned char iend[12] = {0, 0, 0, 0, 'I', 'E', 'N', 'D', 0xae, 0x42, 0x60,
                                           0x82};
    unsigned char tail[64];
    FILE *f = fopen(image, "rb");
    long size;
    size_t n = 0;

    if (!f)
        return false;
    if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) > 0 &&
        fseek(f, size > (long)sizeof tail ? size - (long)sizeof tail : 0, SEEK_SET) == 0)
        n = fread(tail, 1, sizeof tail, f);
    fclose(f);
    if (strcmp(ext, ".png") == 0)
        return n >= sizeof iend && memcmp(tail + n - sizeof iend, iend, sizeof iend) == 0;
    for (size_t i = 0; i + 6 <= n; i++)
        if (memcmp(tail + i, "</svg>", 6) == 0)
            return true;
    return false;
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
    if (status == SB_OK && !image_whole(image, ext))
        status = sb_fail(err, SB_ERR_RUN, "%s: gnuplot left an incomplete image (a full disk?): "
                         "no plot written", output);
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
