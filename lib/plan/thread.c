/* SPDX-License-Identifier: BSD-3-Clause */
/* thread.c: the [thread] section of an experiment file (see thread.h): its keys, each value
 * checked, and the checks of the section as a whole. */
#include "config.h"
#include "plan/thread.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/core.h"
#include "vocab/vocab.h"

/* `figure = OP POLICY SIZE: VALUE UNIT`, e.g. `count clock 16MB: 1221 MB/s` (POLICY SIZE read
 * by the one placement parser, vocab/placement_name.h). */
static int thread_figure(struct sb_thread *t, const char *value, struct sb_error *err)
{
    struct sb_thread_figure *f;
    struct sb_error why = {0};
    char placement[64], unit[16];
    int used = 0;

    if (t->nfigures == SB_MAX_THREAD_FIGURES)
        return sb_fail(err, SB_ERR_INPUT, "more than %d figures", SB_MAX_THREAD_FIGURES);
    f = &t->figures[t->nfigures];
    if (sscanf(value, "%15s %63[^:]: %lf %15s%n", f->op, placement, &f->value, unit, &used) != 4 ||
        value[used] != '\0')
        return sb_fail(err, SB_ERR_INPUT, "\"%s\" is not `OP POLICY SIZE: VALUE MB/s|s`", value);
    if (!sb_op_find(f->op))
        return sb_fail(err, SB_ERR_INPUT, "\"%s\": unknown op %s", value, f->op);
    if (sb_placement_name_parse(placement, &f->placement, &why) != SB_OK)
        return sb_fail(err, SB_ERR_INPUT, "\"%s\": %s", value, why.msg);
    if (strcmp(unit, "MB/s") != 0 && strcmp(unit, "s") != 0)
        return sb_fail(err, SB_ERR_INPUT, "\"%s\": the unit is MB/s or s", value);
    if (!(f->value > 0) || !isfinite(f->value))
        return sb_fail(err, SB_ERR_INPUT, "\"%s\": the figure must be a positive number", value);
    snprintf(f->unit, sizeof f->unit, "%s", unit);
    t->nfigures++;
    return SB_OK;
}

/* The [thread] keys, in the order of the fields of struct sb_thread; figure may be given many
 * times. Their values are checked here (sb_thread_key), not by the reader. */
const struct sb_ini_key sb_thread_keys[] = {
    {.name = "who", .type = SB_INI_TEXT, .help = "who ran it, when, on what"},
    {.name = "machine", .type = SB_INI_TEXT, .help = "the model of that machine"},
    {.name = "table", .type = SB_INI_TEXT, .help = "what the table was"},
    {.name = "table_size", .type = SB_INI_WORD, .help = "the thread's table (a size)"},
    {.name = "slow", .type = SB_INI_TEXT, .help = "the placement found slow"},
    {.name = "fast", .type = SB_INI_TEXT, .help = "and fast"},
    {.name = "figure", .type = SB_INI_TEXT, .repeat = true,
     .help = "OP POLICY SIZE: VALUE MB/s|s"},
    {.name = "calibrate", .type = SB_INI_TEXT,
     .help = "OP POLICY SIZE: the one figure the machine's core factor is fitted to"},
    {.name = "scanners", .type = SB_INI_WORD,
     .help = "scans the figures ran at once, each on a core of its own (1 to 64; 1)"},
    {.name = "scanners_source", .type = SB_INI_TEXT,
     .help = "where scanners comes from (required when more than 1)"},
    {0},
};
enum { T_WHO, T_MACHINE, T_TABLE, T_TABLE_SIZE, T_SLOW, T_FAST, T_FIGURE, T_CALIBRATE,
       T_SCANNERS, T_SCANNERS_SOURCE };

/* A text of [thread] into its field: UTF-8 (the verdict reports it) and fitting, never cut. */
static int thread_text(char *field, size_t size, const char *value, struct sb_error *err)
{
    if (!sb_utf8_valid(value))
        return sb_fail(err, SB_ERR_INPUT, "the value is not UTF-8 (a report holds UTF-8 text "
                       "only)");
    if (!sb_utf8_copy(field, size, value))
        return sb_fail(err, SB_ERR_INPUT, "%zu bytes: at most %zu (\"%.*s...\")", strlen(value),
                       size - 1, (int)sb_utf8_fit(value, 40), value);
    return SB_OK;
}

int sb_thread_key(struct sb_thread *t, int key, const char *value, struct sb_error *err)
{
    t->present = true;
    switch (key) {
    case T_FIGURE:
        return thread_figure(t, value, err);
    case T_TABLE_SIZE:
        return sb_parse_size(value, &t->table_size)
                   ? SB_OK
                   : sb_fail(err, SB_ERR_INPUT, "\"%s\" is not a size", value);
    case T_WHO:
        return thread_text(t->who, sizeof t->who, value, err);
    case T_MACHINE:
        return thread_text(t->machine, sizeof t->machine, value, err);
    case T_TABLE:
        return thread_text(t->table, sizeof t->table, value, err);
    case T_SLOW:
        return sb_placement_name_parse(value, &t->slow, err);
    case T_FAST:
        return sb_placement_name_parse(value, &t->fast, err);
    case T_CALIBRATE:
        return thread_text(t->calibrate, sizeof t->calibrate, value, err);
    case T_SCANNERS: {
        uint64_t n;
        if (!sb_parse_uint(value, &n) || n < 1 || n > SB_MAX_THREAD_SCANNERS)
            return sb_fail(err, SB_ERR_INPUT, "\"%s\" is not a whole number from 1 to %d",
                           value, SB_MAX_THREAD_SCANNERS);
        t->scanners = (unsigned)n;
        return SB_OK;
    }
    case T_SCANNERS_SOURCE:
        return thread_text(t->scanners_source, sizeof t->scanners_source, value, err);
    default:
        return sb_fail(err, SB_ERR_INPUT, "key %d: not a key of [thread]", key);
    }
}

/* `calibrate = OP POLICY SIZE` names one of the section's figures (and there is a machine to
 * calibrate); its index into calibrate_figure. */
static int thread_calibration(struct sb_thread *t, const char *label, struct sb_error *err)
{
    char op[16], placement[64];
    struct sb_placement_name where;
    struct sb_error why = {0};
    int used = 0;

    if (!t->calibrate[0])
        return SB_OK;
    if (sscanf(t->calibrate, "%15s %63[^\n]%n", op, placement, &used) != 2 ||
        t->calibrate[used] != '\0' || sb_placement_name_parse(placement, &where, &why) != SB_OK)
        return sb_fail(err, SB_ERR_INPUT, "%s: [thread] calibrate: \"%s\" is not `OP POLICY "
                       "SIZE` (a figure's, e.g. count clock 16MB)", label, t->calibrate);
    if (!t->machine[0])
        return sb_fail(err, SB_ERR_INPUT, "%s: [thread] calibrate: no machine to calibrate "
                       "(machine = a file of configs/machines)", label);
    for (int i = 0; i < t->nfigures; i++)
        if (strcmp(t->figures[i].op, op) == 0 &&
            sb_placement_name_equal(&t->figures[i].placement, &where)) {
            t->calibrate_figure = i;
            return SB_OK;
        }
    return sb_fail(err, SB_ERR_INPUT, "%s: [thread] calibrate: \"%s\" is not a figure of the "
                   "section (the calibration is one of the thread's figures)", label,
                   t->calibrate);
}

/* `scanners = N` above 1 needs its source and the machine it ran on. */
static int thread_scanners(const struct sb_thread *t, const char *label, struct sb_error *err)
{
    if (t->scanners <= 1)
        return SB_OK;
    if (!t->scanners_source[0])
        return sb_fail(err, SB_ERR_INPUT, "%s: [thread] scanners = %u: no scanners_source (where "
                       "the thread or its software says so)", label, t->scanners);
    if (!t->machine[0])
        return sb_fail(err, SB_ERR_INPUT, "%s: [thread] scanners = %u: no machine they ran on "
                       "(machine = a file of configs/machines)", label, t->scanners);
    return SB_OK;
}

/* What a reproduction says of the thread whatever else the section holds: who measured, and
 * what the table was (reproduce prints both above its table). */
static int thread_labels(const struct sb_thread *t, const char *label, struct sb_error *err)
{
    if (!t->present)
        return SB_OK;
    if (!t->who[0])
        return sb_fail(err, SB_ERR_INPUT, "%s: [thread]: no who (who ran the thread's "
                       "measurements, when, on what); a [thread] section needs who and table",
                       label);
    if (!t->table[0])
        return sb_fail(err, SB_ERR_INPUT, "%s: [thread]: no table (what the thread's table "
                       "was); a [thread] section needs who and table", label);
    return SB_OK;
}

int sb_thread_check(struct sb_thread *t, const char *label, struct sb_error *err)
{
    int status = thread_labels(t, label, err);

    if (status == SB_OK)
        status = thread_calibration(t, label, err);
    return status == SB_OK ? thread_scanners(t, label, err) : status;
}
