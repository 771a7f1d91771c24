/* SPDX-License-Identifier: BSD-3-Clause */
/* reproducible.c: comparing the analyses of two runs of one schedule. */
#include "config.h"
#include "report/reproducible.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "report/analysis.h"
#include "stats/stats.h"
#include "vocab/vocab.h"
#include "report/field.h"

static double num(const json_t *o, const char *k) { return json_number_value(json_object_get(o, k)); }

static void add(char *why, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Appends one disagreement to why, after "; " when there is one before. */
static void add(char *why, size_t len, const char *fmt, ...)
{
    size_t used = strlen(why);
    va_list ap;

    if (used && used + 2 < len) {
        memcpy(why + used, "; ", 3);
        used += 2;
    }
    if (used >= len)
        return;
    va_start(ap, fmt);
    vsnprintf(why + used, len - used, fmt, ap);
    va_end(ap);
}

static const json_t *same_comparison(const json_t *list, const json_t *c)
{
    size_t i;
    json_t *o;
    json_array_foreach(list, i, o)
        if (json_equal(json_object_get(o, "a"), json_object_get(c, "a")) &&
            json_equal(json_object_get(o, "b"), json_object_get(c, "b")))
            return o;
    return NULL;
}

static const json_t *same_knee(const json_t *list, const json_t *k)
{
    size_t i;
    json_t *o;
    json_array_foreach(list, i, o)
        if (json_equal(json_object_get(o, "op"), json_object_get(k, "op")) &&
            json_equal(json_object_get(o, "kernel"), json_object_get(k, "kernel")) &&
            json_equal(json_object_get(o, "pools"), json_object_get(k, "pools")))
            return o;
    return NULL;
}

/* Where x lies on the sweep's pools, as a fractional index in log2 terms. */
static double grid_position(const json_t *pools, double x)
{
    size_t n = json_array_size(pools);

    for (size_t i = 0; i + 1 < n; i++) {
        double a = (double)json_integer_value(json_array_get(pools, i));
        double b = (double)json_integer_value(json_array_get(pools, i + 1));
        if (x <= b || i + 2 == n)
            return (double)i + log2(x / a) / log2(b / a);
    }
    return 0.0;
}

static bool overlap(double a0, double a1, double b0, double b1) { return a0 <= b1 && b0 <= a1; }

static bool knees_agree(const json_t *k1, const json_t *k2)
{
    const char *a = sb_field_text(k1, "kind"), *b = sb_field_text(k2, "kind");
    bool clear1 = strcmp(a, "clear") == 0, clear2 = strcmp(b, "clear") == 0;
    const json_t *pools = json_object_get(k1, "pools");

    if (!clear1 && !clear2)
        return true; /* no drop, or no clear knee, both times */
    if (strcmp(a, "fall undecided") == 0 || strcmp(b, "fall undecided") == 0)
        return true; /* undecided is no contradiction: the other pass decided alone */
    if (!json_is_number(json_object_get(k1, "x50")) || !json_is_number(json_object_get(k2, "x50")))
        return false;
    if (clear1 && clear2) {
        const json_t *s1 = json_object_get(k1, "step"), *s2 = json_object_get(k2, "step");
        if (!overlap(num(s1, "from"), num(s1, "to"), num(s2, "from"), num(s2, "to")))
            return false;
    } else if (!overlap(num(k1, "x50_lo"), num(k1, "x50_hi"), num(k2, "x50_lo"),
                        num(k2, "x50_hi"))) {
        return false;
    }
    return fabs(grid_position(pools, num(k1, "x50")) - grid_position(pools, num(k2, "x50"))) <=
           1.0;
}

static void knee_words(const json_t *k, char *buf, size_t len)
{
    char a[32], b[32];
    if (strcmp(sb_field_text(k, "kind"), "clear") == 0)
        snprintf(buf, len, "clear knee %s-%s",
                 sb_format_size((uint64_t)num(json_object_get(k, "step"), "from"), a, sizeof a),
                 sb_format_size((uint64_t)num(json_object_get(k, "step"), "to"), b, sizeof b));
    else if (json_is_number(json_object_get(k, "x50")))
        snprintf(buf, len, "%s, halfway at %s", sb_field_text(k, "kind"),
                 sb_format_size_approx(num(k, "x50"), a, sizeof a));
    else
        snprintf(buf, len, "%s", sb_field_text(k, "kind"));
}

/* A call with what judging it needs: its interval and the threshold it was made against. */
struct call_view {
    const char *call;
    double lo, hi, delta; /* delta NaN: a report of schema 2 or older */
};

/* Whether two decided calls say incompatible things: faster and slower; or the same within
 * one's delta and, in the other, an interval wholly beyond that delta (another pass's "faster
 * by 3%" under a 2% threshold does not contradict "the same within 5%" under a noisier pass's
 * 5%). */
static bool views_contradict(const struct call_view *a, const struct call_view *b)
{
    const struct call_view *same = strcmp(a->call, "same") == 0 ? a : b,
                           *other = same == a ? b : a;

    if (strcmp(a->call, b->call) == 0)
        return false;
    if (strcmp(a->call, "same") != 0 && strcmp(b->call, "same") != 0)
        return true; /* faster and slower */
    if (isnan(same->delta))
        return true; /* calls that differ disagree */
    return other->lo > 1.0 + same->delta || other->hi < 1.0 / (1.0 + same->delta);
}

/* A comparison's calls: its own where it is decided (1), else its quiet and busy thirds' where
 * it is called by the host's level (2), else none (0). */
static int views_of(const json_t *c, struct call_view v[2])
{
    static const char *const third[2] = {"quiet", "busy"};
    const json_t *d = json_object_get(c, "delta");
    double delta = json_is_number(d) ? json_number_value(d) : NAN;
    const char *q, *b;

    if (sb_call_decided(sb_field_text(c, "call"))) {
        v[0] = (struct call_view){sb_field_text(c, "call"), num(c, "lo"), num(c, "hi"),
                                  delta};
        return 1;
    }
    if (!sb_level_call(c, &q, &b))
        return 0;
    for (int t = 0; t < 2; t++) {
        const json_t *h = json_object_get(json_object_get(c, "host_level"), third[t]);
        v[t] = (struct call_view){t ? b : q, num(h, "lo"), num(h, "hi"), delta};
    }
    return 2;
}

/* Whether one comparison's calls in two passes say incompatible things. Calls by the host's
 * level compare like with like (quiet with quiet, busy with busy); a pass's single call against
 * the other's two contradicts only if it contradicts both (the first may have met one state). */
static bool contradict(const json_t *c1, const json_t *c2)
{
    struct call_view x[2], y[2];
    int nx = views_of(c1, x), ny = views_of(c2, y);

    if (!nx || !ny)
        return false;
    if (nx == ny)
        return views_contradict(&x[0], &y[0]) || (nx == 2 && views_contradict(&x[1], &y[1]));
    if (nx == 2)
        return views_contradict(&x[0], &y[0]) && views_contradict(&x[1], &y[0]);
    return views_contradict(&x[0], &y[0]) && views_contradict(&x[0], &y[1]);
}

/* A comparison's calls in words: "slower", or "slower when quiet, faster when busy". */
static const char *calls_words(const json_t *c, char *buf, size_t len)
{
    const char *q, *b;

    if (sb_level_call(c, &q, &b))
        snprintf(buf, len, "%s when quiet, %s when busy", q, b);
    else
        snprintf(buf, len, "%s", sb_field_text(c, "call"));
    return buf;
}

/* The median MB/s of an analysis's A-A run (noise.trace: [at, MB/s] of both its timings per
 * round): how fast the host let that schedule run. NaN without a trace. */
static double host_speed(const json_t *analysis)
{
    const json_t *trace = sb_field(analysis, "noise.trace");
    size_t n = json_array_size(trace), i;
    double *y = malloc((n ? n : 1) * sizeof *y), m = NAN;
    json_t *p;

    if (!y)
        return NAN;
    json_array_foreach(trace, i, p)
        y[i] = json_number_value(json_array_get(p, 1));
    if (n)
        m = sb_median(y, n);
    free(y);
    return m;
}

/* Calls that contradict may come from a host that ran at another level: say how far apart. */
static void level_note(const json_t *first, const json_t *second, char *why, size_t len)
{
    double a = host_speed(first), b = host_speed(second);

    if (why[0] && a > 0 && b > 0)
        add(why, len, "the host's level moved between them: the A-A run's median MB/s %.0f, "
            "then %.0f (%+.0f%%)", a, b, 100.0 * (b / a - 1.0));
}

bool sb_reproducible(const json_t *first, const json_t *second, char *why, size_t len)
{
    size_t i;
    json_t *c;

    why[0] = '\0';
    json_array_foreach(json_object_get(first, "comparisons"), i, c) {
        const json_t *o = same_comparison(json_object_get(second, "comparisons"), c);
        const struct sb_op *op = sb_op_find(sb_field_text(c, "op"));
        char x[64], y[64];
        if (o && contradict(c, o))
            add(why, len, "%s %s: %s, then %s", op ? op->label : "?",
                sb_field_text(c, "a_placement"), calls_words(c, x, sizeof x),
                calls_words(o, y, sizeof y));
    }
    level_note(first, second, why, len);
    json_array_foreach(json_object_get(first, "knees"), i, c) {
        const json_t *o = same_knee(json_object_get(second, "knees"), c);
        const struct sb_op *op = sb_op_find(sb_field_text(c, "op"));
        char w1[96], w2[96];
        if (!o || knees_agree(c, o))
            continue;
        knee_words(c, w1, sizeof w1);
        knee_words(o, w2, sizeof w2);
        add(why, len, "%s knee: %s, then %s", op ? op->label : "?", w1, w2);
    }
    return why[0] == '\0';
}

size_t sb_analysis_decided(const json_t *analysis)
{
    size_t n = 0, i;
    json_t *c;

    json_array_foreach(json_object_get(analysis, "comparisons"), i, c)
        n += sb_call_decided(sb_field_text(c, "call")) || sb_level_call(c, NULL, NULL);
    json_array_foreach(json_object_get(analysis, "knees"), i, c) {
        const char *kind = sb_field_text(c, "kind");
        n += strcmp(kind, "clear") == 0 || strcmp(kind, "no drop") == 0;
    }
    return n;
}

const json_t *sb_reproducibility_judge(const json_t *first, json_t *second)
{
    char why[2048];
    const json_t *a = json_object_get(first, "analysis"), *b = json_object_get(second, "analysis");
    bool same = sb_reproducible(a, b, why, sizeof why);
    bool vacuous = same && !sb_analysis_decided(a) && !sb_analysis_decided(b);
    json_int_t seed = json_integer_value(sb_field(first, "schedule.seed"));

    json_object_set_new(second, "reproducibility",
                        json_pack("{s:b, s:b, s:I, s:s}", "reproducible", same, "vacuous",
                                  vacuous, "first_seed", seed, "why", same ? "" : why));
    return json_object_get(second, "reproducibility");
}
