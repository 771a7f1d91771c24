/* SPDX-License-Identifier: BSD-3-Clause */
/* fuzz_report.c: fuzz target: the input as a report from another host, through everything that
 * reads one: the reader (lib/report/read.c), compare with itself (lib/report/compare.c: pairs,
 * Mann-Whitney U, the table and the JSON document), the renderers (lib/render/render.c,
 * lib/render/reproduction.c, lib/render/pg.c) and the gnuplot script (lib/render/plot.c), all
 * written into memory. The script is checked too: the report's text must never become gnuplot
 * commands (a quote, backquote, semicolon or newline that escapes its string), and every plot
 * command draws a line. */
#include "config.h"
#include "fuzz.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/pg.h"
#include "render/plot.h"
#include "render/render.h"
#include "render/reproduction.h"
#include "report/compare.h"
#include "report/read.h"

/* The first words a line of scanbench's gnuplot scripts may start with (data lines start with
 * a digit or '-'). */
static const char *const script_words[] = {"set ", "unset ", "plot ", "$", "EOD", NULL};

/* Aborts when a line of the script is not scanbench's own: an unknown first word, or, outside
 * single-quoted strings (where '' is a quote), a double quote, backquote, '@' or ';' (other
 * strings, command substitution, macros, a second command). */
static void check_script(const char *script)
{
    const char *line = script;

    while (*line) {
        const char *end = strchr(line, '\n');
        bool known = (*line >= '0' && *line <= '9') || *line == '-';
        bool quoted = false;

        if (!end)
            abort(); /* every command ends its line */
        for (int w = 0; script_words[w] && !known; w++)
            known = strncmp(line, script_words[w], strlen(script_words[w])) == 0;
        if (!known)
            abort();
        for (const char *p = line; p < end; p++) {
            if (quoted && *p == '\'' && p[1] == '\'')
                p++;
            else if (*p == '\'')
                quoted = !quoted;
            else if (!quoted && strchr("\"`@;", *p))
                abort();
            else if ((unsigned char)*p < 0x20 && *p != '\t')
                abort();
        }
        if (quoted)
            abort(); /* a string left open across lines */
        if (strncmp(line, "plot ", 5) == 0 && !memchr(line, '$', (size_t)(end - line)))
            abort(); /* a plot command of no line: gnuplot fails on it */
        line = end + 1;
    }
}

static void read_everything(const json_t *report)
{
    json_t *const reports[2] = {(json_t *)report, (json_t *)report};
    const char *const paths[2] = {"a.json", "b.json"};
    struct sb_error err = {0};
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    json_t *comparison;

    if (!out)
        return;
    sb_render_table(out, report);
    sb_render_reproduction(out, report);
    sb_render_pg(out, report);
    comparison = sb_compare_build(reports, paths, 2);
    if (comparison) {
        char *dump = json_dumps(comparison, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
        sb_compare_render(out, comparison);
        free(dump);
        json_decref(comparison);
    }
    fclose(out);
    free(text);
    text = NULL;
    out = open_memstream(&text, &len);
    if (!out)
        return;
    sb_fuzz_check_status(sb_plot_script(out, report, "fuzz.png", &err), &err);
    fclose(out);
    check_script(text);
    free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct sb_error err = {0};
    json_t *report = NULL;
    int status = sb_report_parse((const char *)data, size, "fuzz.json", &report, &err);

    sb_fuzz_check_status(status, &err);
    if (status == SB_OK)
        read_everything(report);
    json_decref(report);
    return 0;
}
