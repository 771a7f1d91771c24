/* SPDX-License-Identifier: BSD-3-Clause */
/* cmd_list.c: `scanbench list`: every registry (kernels with what this CPU supports, policies,
 * write-backs, ops, sources, counter backends) and every experiment key with its default. */
#include "config.h"

#include <stdio.h>

#include "commands.h"
#include "counters/counters.h"
#include "plan/plan.h"
#include "vocab/vocab.h"

/* No options: the table says so in its usage (its one refusal is its own). */
const struct sb_options sb_options_list = {.command = "list", .unknown = "unknown argument"};

int sb_cmd_list(int argc, char **argv)
{
    (void)argv;
    if (argc > 1) {
        fprintf(stderr, "scanbench list: takes no arguments\n");
        return 2;
    }
    printf("kernels (CPU: %s)\n", sb_cpu_features());
    for (const struct sb_kernel *k = sb_kernels; k->name; k++) {
        char status[64];
        snprintf(status, sizeof status, "%s%s", k->supported() ? "supported" : "lacks ",
                 k->supported() ? "" : k->requires);
        printf("  %-11s %-14s %s\n", k->name, status, k->description);
    }
    printf("  %-11s %-14s %s\n", sb_kernel_pread.name, "(source file)",
           sb_kernel_pread.description);
    printf("  %-11s %-14s %s\n", sb_kernel_read.name, "(half a copy)",
           sb_kernel_read.description);
    printf("  %-11s %-14s %s\n", sb_kernel_write.name, "(half a copy)",
           sb_kernel_write.description);
    printf("  %-11s %-14s %s\n", sb_kernel_solaris_nta.name, "(write-back)",
           sb_kernel_solaris_nta.description);
    printf("  %-11s %-14s %s\n", sb_kernel_pwrite.name, "(write-back)",
           sb_kernel_pwrite.description);
    printf("write-backs (key writeback; writeback_kernel: a kernel above)\n");
    for (const struct sb_writeback *w = sb_writebacks; w->name; w++)
        printf("  %-10s %s\n", w->name, w->description);
    printf("policies\n");
    for (const struct sb_policy *p = sb_policies; p->name; p++)
        printf("  %-8s %s\n", p->name, p->description);
    printf("ops\n");
    for (const struct sb_op *o = sb_ops; o->name; o++)
        printf("  %-8s %s\n", o->name, o->description);
    printf("executors (key executor: whose work count and vacuum do)\n");
    for (const struct sb_executor *e = sb_executors; e->name; e++)
        printf("  %-8s %s\n", e->name, e->description);
    printf("sources\n");
    for (const struct sb_source *s = sb_sources; s->name; s++)
        printf("  %-8s %s\n", s->name, s->description);
    printf("counter backends\n");
    for (const struct sb_counter_backend *b = sb_counter_backends; b->name; b++)
        printf("  %-8s %s\n", b->name, b->description);
    printf("experiment keys ([experiment] section or --set KEY=VALUE; lists marked * sweep)\n");
    for (int k = 0; k < SB_NKEYS; k++)
        printf("  %-16s %c default %-11s %s\n", sb_keys[k].name, sb_keys[k].list ? '*' : ' ',
               sb_keys[k].default_value[0] ? sb_keys[k].default_value : "\"\"", sb_keys[k].help);
    return 0;
}
