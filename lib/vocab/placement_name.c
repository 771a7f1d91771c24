/* SPDX-License-Identifier: BSD-3-Clause */
/* placement_name.c: "POLICY SIZE" parsed, written and compared (see placement_name.h). */
#include "config.h"
#include "vocab/placement_name.h"

#include <stdio.h>
#include <string.h>

/* The policies' names, "clock, ring, ...", for the message of an unknown one. */
static const char *policy_names(char *buf, size_t len)
{
    size_t used = 0;

    buf[0] = '\0';
    for (const struct sb_policy *p = sb_policies; p->name && used < len; p++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s", p == sb_policies ? "" : ", ",
                                 p->name);
    return buf;
}

int sb_placement_name_parse(const char *text, struct sb_placement_name *out,
                            struct sb_error *err)
{
    char policy[32], size[32], known[256];
    int used = 0;

    *out = (struct sb_placement_name){.policy = NULL, .footprint = 0};
    if (sscanf(text, " %31s %31s %n", policy, size, &used) != 2 || text[used] != '\0')
        return sb_fail(err, SB_ERR_INPUT, "\"%s\" is not `POLICY SIZE` (e.g. clock 16MB)", text);
    out->policy = sb_policy_find(policy);
    if (!out->policy)
        return sb_fail(err, SB_ERR_INPUT, "\"%s\": unknown policy %s (known: %s)", text, policy,
                       policy_names(known, sizeof known));
    if (!sb_parse_size(size, &out->footprint) || out->footprint == 0) {
        out->policy = NULL;
        return sb_fail(err, SB_ERR_INPUT, "\"%s\": \"%s\" is not a size (e.g. 16MB, 680KB)",
                       text, size);
    }
    return SB_OK;
}

const char *sb_placement_name_format(const struct sb_placement_name *p, char *buf, size_t len)
{
    char size[32];

    if (!p->policy)
        snprintf(buf, len, "%s", "");
    else
        snprintf(buf, len, "%s %s", p->policy->name,
                 sb_format_size(p->footprint, size, sizeof size));
    return buf;
}

bool sb_placement_name_equal(const struct sb_placement_name *a,
                             const struct sb_placement_name *b)
{
    return a->policy == b->policy && (!a->policy || a->footprint == b->footprint);
}
