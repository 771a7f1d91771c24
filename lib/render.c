/* render.c: the thread-style MB/s table, read from a report. */
#include "config.h"
#include "render.h"

#include <math.h>
#include <string.h>

#include "op.h"
#include "units.h"

#define MAX_COLS 32
#define MAX_ROWS 16
#define LABEL_LEN 96

/* Keys that, when they differ between runs, become part of the column label. */
static const char *const distinguishing[] = {"kernel", "table_size", "page_size", "row_width",
                                            "source", "dead_pct", "threads", "seed", NULL};

static const char *str_or(const json_t *v, const char *fallback)
{
    return json_is_string(v) ? json_string_value(v) : fallback;
}

static bool key_varies(const json_t *runs, const char *key)
{
    const json_t *first = json_object_get(json_array_get(runs, 0), key);
    size_t i;
    json_t *run;

    json_array_foreach(runs, i, run) if (!json_equal(json_object_get(run, key), first)) return true;
    return false;
}

static void column_label(const json_t *runs, const json_t *run, char *label, size_t len)
{
    char size[32];
    const char *policy = json_string_value(json_object_get(run, "policy"));
    uint64_t footprint = (uint64_t)json_integer_value(json_object_get(run, "footprint"));
    size_t used = (size_t)snprintf(label, len, "%s %s", policy ? policy : "?",
                                   sb_format_size(footprint, size, sizeof size));

    /* a ring inside pools of several sizes: say which pool */
    if (strcmp(policy ? policy : "", "ring") == 0 && key_varies(runs, "pool_size") && used < len)
        used += (size_t)snprintf(label + used, len - used, " in %s",
                                 sb_format_size((uint64_t)json_integer_value(
                                                    json_object_get(run, "pool_size")),
                                                size, sizeof size));
    for (int k = 0; distinguishing[k] && used < len; k++) {
        const json_t *v = json_object_get(run, distinguishing[k]);
        if (!key_varies(runs, distinguishing[k]))
            continue;
        if (json_is_string(v))
            used += (size_t)snprintf(label + used, len - used, " %s", json_string_value(v));
        else if (strstr(distinguishing[k], "size"))
            used += (size_t)snprintf(label + used, len - used, " %s=%s", distinguishing[k],
                                     sb_format_size((uint64_t)json_integer_value(v), size,
                                                    sizeof size));
        else
            used += (size_t)snprintf(label + used, len - used, " %s=%lld", distinguishing[k],
                                     (long long)json_integer_value(v));
    }
}

static int find_or_add(char names[][LABEL_LEN], int *n, int max, const char *name)
{
    for (int i = 0; i < *n; i++)
        if (strcmp(names[i], name) == 0)
            return i;
    if (*n == max)
        return -1;
    snprintf(names[*n], LABEL_LEN, "%s", name);
    return (*n)++;
}

int sb_render_table(FILE *out, const json_t *report)
{
    const json_t *runs = json_object_get(report, "runs");
    char cols[MAX_COLS][LABEL_LEN], rows[MAX_ROWS][LABEL_LEN];
    double cell[MAX_ROWS][MAX_COLS], cv[MAX_ROWS][MAX_COLS];
    int ncols = 0, nrows = 0, dropped = 0;
    const json_t *first, *exp = json_object_get(report, "experiment");
    json_t *run;
    size_t i;
    char size[32];

    if (!json_is_array(runs))
        return -1;
    for (int r = 0; r < MAX_ROWS; r++)
        for (int c = 0; c < MAX_COLS; c++)
            cell[r][c] = cv[r][c] = NAN;
    json_array_foreach(runs, i, run) {
        char label[LABEL_LEN];
        const char *op = json_string_value(json_object_get(run, "op"));
        int r, c;

        column_label(runs, run, label, sizeof label);
        r = find_or_add(rows, &nrows, MAX_ROWS, op ? op : "?");
        c = find_or_add(cols, &ncols, MAX_COLS, label);
        if (r < 0 || c < 0) {
            dropped++;
            continue;
        }
        cell[r][c] = json_real_value(json_object_get(json_object_get(run, "mbps"), "median"));
        cv[r][c] = json_real_value(json_object_get(json_object_get(run, "mbps"), "cv"));
    }

    first = json_array_get(runs, 0);
    fprintf(out, "scanbench %s: %s\n",
            str_or(json_object_get(exp, "name"), "?"),
            str_or(json_object_get(exp, "description"), ""));
    if (first)
        fprintf(out, "table %s (%lld pages of %lld bytes, %lld rows each), source %s, "
                "%lld timed scans after %lld warm-up\n\n",
                sb_format_size((uint64_t)json_integer_value(json_object_get(first, "table_size")),
                               size, sizeof size),
                (long long)json_integer_value(json_object_get(first, "pages")),
                (long long)json_integer_value(json_object_get(first, "page_size")),
                (long long)json_integer_value(json_object_get(first, "rows_per_page")),
                str_or(json_object_get(first, "source"), "?"),
                (long long)json_array_size(json_object_get(first, "repetitions")),
                (long long)json_integer_value(json_object_get(first, "warmup")));

    fprintf(out, "%-16s", "Operation");
    for (int c = 0; c < ncols; c++)
        fprintf(out, " | %23s", cols[c]);
    if (ncols == 2)
        fprintf(out, " | %6s", "ratio");
    fprintf(out, "\n");
    for (int r = 0; r < nrows; r++) {
        const struct sb_op *op = sb_op_find(rows[r]);
        fprintf(out, "%-16s", op ? op->label : rows[r]);
        for (int c = 0; c < ncols; c++) {
            if (isnan(cell[r][c]))
                fprintf(out, " | %23s", "-");
            else
                fprintf(out, " | %9.0f MB/s cv %4.1f%%", cell[r][c], 100.0 * cv[r][c]);
        }
        if (ncols == 2) {
            if (isnan(cell[r][0]) || isnan(cell[r][1]))
                fprintf(out, " | %6s", "-");
            else
                fprintf(out, " | %6.2f", cell[r][1] / cell[r][0]);
        }
        fprintf(out, "\n");
    }
    fprintf(out, "\nMB/s = table bytes scanned (page_size bytes per page, every page once per "
                 "scan) / seconds / 10^6;\n"
                 "median of the timed scans; cv: their coefficient of variation%s.\n",
            ncols == 2 ? "; ratio = right column / left column" : "");
    /* One line for the counters when every run has the same; else one line per run. */
    json_array_foreach(runs, i, run) {
        const json_t *counters = json_object_get(run, "counters");
        bool uniform = key_varies(runs, "counters") == false;
        if (uniform && i > 0)
            break;
        fprintf(out, "counters%s%s: %s, %s%s%s\n", uniform ? "" : " of ",
                uniform ? "" : str_or(json_object_get(run, "name"), "?"),
                str_or(json_object_get(counters, "backend"), "?"),
                str_or(json_object_get(counters, "status"), "?"),
                json_is_string(json_object_get(counters, "reason")) ? ": " : "",
                str_or(json_object_get(counters, "reason"), ""));
    }
    if (dropped)
        fprintf(out, "(%d runs not shown: the table has room for %d columns and %d rows; all "
                     "are in the report)\n", dropped, MAX_COLS, MAX_ROWS);
    return 0;
}
