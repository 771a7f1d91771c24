/* SPDX-License-Identifier: BSD-3-Clause */
/* tally.c: what a power check's trials say (see power.h): which trial found its difference,
 * each kind's share with its Wilson interval, its true ratio and seconds, the sentence. */
#include "config.h"
#include "power/power.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/stats.h"

/* Whether a call finds what t was set: the extra-copy arm slower (the second run slower, or
 * the first, the reference, made the second faster). */
static bool found(const struct sb_power_trial *t, const char *call)
{
    return (t->arm == 1 && strcmp(call, "slower") == 0) ||
           (t->arm == 0 && strcmp(call, "faster") == 0);
}

static bool different(const char *call)
{
    return strcmp(call, "faster") == 0 || strcmp(call, "slower") == 0;
}

/* Whether t found what it was set: its call did; called by the host's level, one third did and
 * the other did not call the other way. */
bool sb_power_detected(const struct sb_power_trial *t)
{
    if (t->by_level[0][0])
        return (found(t, t->by_level[0]) || found(t, t->by_level[1])) &&
               !(different(t->by_level[0]) && !found(t, t->by_level[0])) &&
               !(different(t->by_level[1]) && !found(t, t->by_level[1]));
    return found(t, t->call);
}

/* A call of a difference (by either third, where called by the host's level): A-A's false
 * call; an injected arm called faster is the wrong way. */
bool sb_power_called_different(const struct sb_power_trial *t)
{
    return different(t->call) || different(t->by_level[0]) || different(t->by_level[1]);
}

/* The extra-copy arm's MB/s over the other's (A-A: the second's over the first's). */
double sb_power_extra_over_clean(const struct sb_power_trial *t)
{
    return t->arm == 0 ? 1.0 / t->ratio : t->ratio;
}

void sb_power_summarise(const struct sb_power *pw, int kind, struct sb_power_kind *k)
{
    double *ratios = malloc((pw->done + 1) * sizeof *ratios);
    double *secs = malloc((pw->done + 1) * sizeof *secs);
    unsigned nr = 0;

    memset(k, 0, sizeof *k);
    k->ratio = k->median_s = NAN;
    for (unsigned i = 0; ratios && secs && i < pw->done; i++) {
        const struct sb_power_trial *t = &pw->trials[i];
        if (t->kind != kind)
            continue;
        k->hits += kind == 0 ? sb_power_called_different(t) : sb_power_detected(t);
        k->wrong += kind != 0 && sb_power_called_different(t) && !sb_power_detected(t);
        secs[k->n++] = t->seconds;
        k->max_s = fmax(k->max_s, t->seconds);
        if (isfinite(t->ratio) && t->ratio > 0)
            ratios[nr++] = sb_power_extra_over_clean(t);
    }
    sb_wilson_interval(k->hits, k->n, SB_CONFIDENCE, &k->lo, &k->hi);
    if (nr)
        k->ratio = sb_median(ratios, nr);
    if (k->n)
        k->median_s = sb_median(secs, k->n);
    free(ratios);
    free(secs);
}

const char *sb_power_kind_name(const struct sb_power *pw, int kind, char *buf, size_t len)
{
    if (kind == 0)
        snprintf(buf, len, "A-A");
    else
        snprintf(buf, len, "extra_copy %s", pw->sizes[kind]);
    return buf;
}

/* 'on this host a difference of X% is found in Y% of runs within Z s; identical
 * configurations were called different in W%': X the size's true difference, Z its longest
 * trial's rounds. */
void sb_power_sentence(const struct sb_power *pw, char *buf, size_t len)
{
    size_t used = (size_t)snprintf(buf, len, "on this host");
    struct sb_power_kind k;
    int said = 0;

    for (int kind = 1; kind < pw->nkinds && used < len; kind++) {
        sb_power_summarise(pw, kind, &k);
        if (!k.n)
            continue;
        used += (size_t)snprintf(buf + used, len - used, said++ ? ", one of %.1f%% (extra_copy "
                                 "%s) in %.0f%% within %.1f s" : " a difference of %.1f%% "
                                 "(extra_copy %s) is found in %.0f%% of runs within %.1f s",
                                 100.0 * (1.0 - k.ratio), pw->sizes[kind], 100.0 * k.hits / k.n,
                                 k.max_s);
    }
    sb_power_summarise(pw, 0, &k);
    if (used < len && k.n)
        snprintf(buf + used, len - used, "%sidentical configurations were called different in "
                 "%.0f%% (%u of %u)", said ? "; " : " ", 100.0 * k.hits / k.n, k.hits, k.n);
}
