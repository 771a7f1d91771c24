/* SPDX-License-Identifier: BSD-3-Clause */
/* options.c: a subcommand's command line parsed and described by its table (see options.h).
 * getopt_long scans argv in order ("-": operands handed where they stand, nothing permuted;
 * ":" and opterr 0: no message of its own); what it accepts beyond the table's exact spellings
 * (abbreviations, clusters, -oVALUE) is refused here. */
#include "config.h"
#include "options.h"

#include <getopt.h>
#include <stdint.h>
#include <string.h>

#define LONG_ID_BASE 256 /* getopt's val for the table's entry i spelled long: LONG_ID_BASE + i */

static bool is_long(const char *spelling)
{
    return spelling && strncmp(spelling, "--", 2) == 0;
}

/* The table as getopt_long's: its short spellings in shorts (after "-:"), its long ones in
 * longs. */
static void getopt_tables(const struct sb_options *spec, char *shorts, struct option *longs)
{
    char *s = shorts;
    int n = 0;

    *s++ = '-';
    *s++ = ':';
    for (int i = 0; spec->options[i].id; i++) {
        const struct sb_option *o = &spec->options[i];
        const char *spellings[2] = {o->name, o->alias};
        for (int k = 0; k < 2; k++) {
            if (!spellings[k])
                continue;
            if (is_long(spellings[k])) {
                longs[n++] = (struct option){spellings[k] + 2, o->kind == SB_OPT_FLAG
                                             ? no_argument : required_argument, NULL,
                                             LONG_ID_BASE + i};
            } else {
                *s++ = spellings[k][1];
                if (o->kind != SB_OPT_FLAG)
                    *s++ = ':';
            }
        }
    }
    *s = '\0';
    longs[n] = (struct option){NULL, 0, NULL, 0};
}

/* The entry getopt's c (or optopt) stands for. */
static const struct sb_option *entry_of(const struct sb_options *spec, int c)
{
    if (c >= LONG_ID_BASE)
        return &spec->options[c - LONG_ID_BASE];
    for (const struct sb_option *o = spec->options; o->id; o++)
        if ((o->name[1] == c && !o->name[2]) || (o->alias && o->alias[1] == c && !o->alias[2]))
            return o;
    return NULL;
}

/* Which of o's spellings arg is: exactly one of them, or --name=VALUE for a long one with a
 * value. NULL: none. */
static const char *spelled_by(const struct sb_option *o, const char *arg)
{
    const char *spellings[2] = {o->name, o->alias};

    for (int k = 0; k < 2; k++) {
        size_t len = spellings[k] ? strlen(spellings[k]) : 0;
        if (!spellings[k])
            continue;
        if (strcmp(arg, spellings[k]) == 0)
            return spellings[k];
        if (is_long(spellings[k]) && o->kind != SB_OPT_FLAG && strncmp(arg, spellings[k], len) == 0
            && arg[len] == '=')
            return spellings[k];
    }
    return NULL;
}

/* Whether text is one of the table's options. */
static bool is_option(const struct sb_options *spec, const char *text)
{
    for (const struct sb_option *o = spec->options; o->id; o++)
        if (spelled_by(o, text))
            return true;
    return false;
}

int sb_options_refuse(const struct sb_options *spec, const char *arg, struct sb_error *err)
{
    char line[SB_OPTIONS_LINE];

    sb_options_usage_line(spec, line, sizeof line);
    return sb_fail(err, SB_ERR_INPUT, "%s%s: %s (usage: scanbench %s%s%s)",
                   spec->prefix ? spec->prefix : "", arg, spec->unknown, spec->command,
                   line[0] ? " " : "", line);
}

static int refuse_count(const struct sb_options *spec, const struct sb_option *o,
                        const char *spelling, const char *text, struct sb_error *err)
{
    return sb_fail(err, SB_ERR_INPUT, "%s%s %s: want a whole number from %lu to %lu",
                   spec->prefix ? spec->prefix : "", spelling, text, o->min, o->max);
}

/* o given last, without its value. */
static int refuse_missing(const struct sb_options *spec, const struct sb_option *o,
                          const char *spelling, struct sb_error *err)
{
    char line[SB_OPTIONS_LINE];

    if (o->kind == SB_OPT_COUNT)
        return refuse_count(spec, o, spelling, "(missing)", err);
    if (!o->missing)
        return sb_options_refuse(spec, spelling, err);
    sb_options_usage_line(spec, line, sizeof line);
    return sb_fail(err, SB_ERR_INPUT, "%s%s%s (usage: scanbench %s %s)",
                   spec->prefix ? spec->prefix : "", spelling, o->missing, spec->command, line);
}

/* An option getopt found at argv[at] (its value in optarg) checked and made into *arg. */
static int take_option(const struct sb_options *spec, int c, char **argv, int at,
                       struct sb_option_arg *arg, struct sb_error *err)
{
    const struct sb_option *o = entry_of(spec, c == ':' ? optopt : c);
    const char *spelling = o ? spelled_by(o, argv[at]) : NULL;
    uint64_t v;

    if (!spelling) /* not in the table, or not as it spells it: "-qo", "--qui", "-ofile" */
        return sb_options_refuse(spec, argv[at], err);
    if (c == ':')
        return refuse_missing(spec, o, spelling, err);
    *arg = (struct sb_option_arg){o->id, spelling, o->kind == SB_OPT_FLAG ? NULL : optarg, 0};
    /* the value apart from its option (not --name=VALUE) */
    if (arg->text && optind == at + 2 && is_option(spec, arg->text))
        return sb_fail(err, SB_ERR_INPUT, "%s%s: missing value (got option %s)",
                       spec->prefix ? spec->prefix : "", spelling, arg->text);
    if (o->kind == SB_OPT_COUNT) {
        if (!sb_parse_uint(arg->text, &v) || v < o->min || v > o->max)
            return refuse_count(spec, o, spelling, arg->text, err);
        arg->count = (unsigned long)v;
    }
    return SB_OK;
}

int sb_options_parse(const struct sb_options *spec, int argc, char **argv, sb_option_take take,
                     void *ctx, struct sb_error *err)
{
    char shorts[3 + 4 * SB_OPTIONS_MAX];
    struct option longs[2 * SB_OPTIONS_MAX + 1];
    struct sb_option_arg arg;
    int status = SB_OK;

    getopt_tables(spec, shorts, longs);
    opterr = 0;
    optind = 0; /* glibc: every scan starts afresh */
    while (status == SB_OK) {
        int at = optind ? optind : 1;
        int c = getopt_long(argc, argv, shorts, longs, NULL);
        if (c == -1) {
            if (optind > at) /* "--", which getopt takes for the end of the options */
                status = sb_options_refuse(spec, argv[at], err);
            break;
        }
        if (c == 1 && !spec->operands)
            status = sb_options_refuse(spec, optarg, err);
        else if (c == 1)
            status = take(ctx, &(struct sb_option_arg){SB_OPT_OPERAND, optarg, optarg, 0}, err);
        else if (c == '?')
            status = sb_options_refuse(spec, argv[at], err);
        else if ((status = take_option(spec, c, argv, at, &arg, err)) == SB_OK)
            status = take(ctx, &arg, err);
    }
    return status;
}

void sb_options_usage_line(const struct sb_options *spec, char *buf, size_t len)
{
    size_t used = (size_t)snprintf(buf, len, "%s", spec->operands ? spec->operands : "");

    for (const struct sb_option *o = spec->options; o->id && used < len; o++)
        used += (size_t)snprintf(buf + used, len - used, "%s[%s%s%s]%s", used ? " " : "",
                                 o->name, o->value ? " " : "", o->value ? o->value : "",
                                 o->repeats ? "..." : "");
}

/* One entry of the help: the label, then its help's lines from column 21. */
static void help_entry(FILE *out, const char *label, const char *help)
{
    const char *line = help;

    fprintf(out, "  %-16s  ", label);
    for (const char *end; (end = strchr(line, '\n')); line = end + 1)
        fprintf(out, "%.*s\n%20s", (int)(end - line), line, "");
    fprintf(out, "%s\n", line);
}

void sb_options_help(FILE *out, const struct sb_options *spec)
{
    char label[128];

    if (spec->operand_label)
        help_entry(out, spec->operand_label, spec->operand_help);
    for (const struct sb_option *o = spec->options; o->id; o++) {
        const char *shorter = o->alias && !is_long(o->alias) ? o->alias : NULL;
        const char *longer = shorter ? o->name : o->alias;
        snprintf(label, sizeof label, "%s%s%s%s%s", shorter ? shorter : o->name,
                 longer ? ", " : "", longer ? longer : "", o->value ? " " : "",
                 o->value ? o->value : "");
        help_entry(out, label, o->help);
    }
}
