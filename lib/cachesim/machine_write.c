/* SPDX-License-Identifier: BSD-3-Clause */
/* machine_write.c: a machine written back as a machine file, [costs] and their sources
 * included (sb_machine_costs_write, machine.h): what sb_machine_load reads back to the same
 * machine. */
#include "config.h"
#include "cachesim/machine.h"

#include <stdio.h>
#include <string.h>

/* A text value as the INI reader will read it back: no line breaks, no " ;" or " #" that it
 * would take for an inline comment, and lines of at most about WRAP bytes: a long value goes on
 * over indented lines, broken at a blank (the reader joins them with one). */
#define WRAP 96

static void put_text(FILE *out, const char *key, const char *text)
{
    size_t column = (size_t)fprintf(out, "%s = ", key);

    for (const char *p = text; *p; p++) {
        char ch = *p == '\n' || *p == '\r' || *p == '\t' ? ' ' : *p;
        if ((ch == ';' || ch == '#') && p > text && p[-1] == ' ')
            ch = ',';
        if (ch == ' ' && column >= WRAP && p[1] && p[1] != ' ') {
            fputs("\n   ", out);
            column = 3;
        }
        fputc(ch, out);
        column++;
    }
    fputc('\n', out);
}

static double cost_value(const struct sb_machine_costs *c, int key)
{
    switch (key) {
    case SB_COST_CLOCK_GHZ:
        return c->clock_ghz;
    case SB_COST_L1D_HIT_CYCLES:
    case SB_COST_L2_HIT_CYCLES:
    case SB_COST_L3_HIT_CYCLES:
        return c->hit_cycles[key - SB_COST_L1D_HIT_CYCLES];
    case SB_COST_MEM_LATENCY_NS:
        return c->mem_latency_ns;
    case SB_COST_MEM_READ_GBPS:
        return c->mem_read_gbps;
    case SB_COST_MEM_WRITE_GBPS:
        return c->mem_write_gbps;
    case SB_COST_NT_WRITE_GBPS:
        return c->nt_write_gbps;
    case SB_COST_PREFETCH_HIDDEN:
        return c->prefetch_hidden;
    case SB_COST_MEMORY_CONTROLLERS:
        return c->memory_controllers;
    case SB_COST_L2_READ_GBPS:
    case SB_COST_L3_READ_GBPS:
        return c->hit_read_gbps[1 + key - SB_COST_L2_READ_GBPS];
    default:
        return c->mlp;
    }
}

static void write_costs(FILE *out, const struct sb_machine *m)
{
    fprintf(out, "\n[costs]\n");
    for (int k = 0; k < SB_COST_KEYS; k++) {
        char key[64];
        if ((k == SB_COST_L3_HIT_CYCLES && m->config.nlevels < 3) ||
            (k == SB_COST_MEMORY_CONTROLLERS && m->costs.memory_controllers <= 1) ||
            ((k == SB_COST_L2_READ_GBPS || k == SB_COST_L3_READ_GBPS) &&
             !(cost_value(&m->costs, k) > 0)))
            continue;
        fprintf(out, "%s = %.17g\n", sb_cost_key_names[k], cost_value(&m->costs, k));
        snprintf(key, sizeof key, "%s_source", sb_cost_key_names[k]);
        put_text(out, key, m->costs.source[k][0] ? m->costs.source[k] : "unknown");
    }
}

/* [machine]'s write-allocate rule, where it is not the default or has a source of its own. */
static void write_allocate(FILE *out, const struct sb_machine *m)
{
    if (m->config.write_allocate == SB_WA_NT_STORES &&
        strncmp(m->write_allocate_source, "assumed: not given", 18) == 0)
        return;
    fprintf(out, "write_allocate = %s\n", sb_write_allocate_names[m->config.write_allocate]);
    put_text(out, "write_allocate_source", m->write_allocate_source[0] ? m->write_allocate_source
                                                                       : "unknown");
    if (m->config.write_allocate != SB_WA_FULL_LINE_LOADED)
        return;
    fprintf(out, "rfo_evasion_scanners = %u\n", m->costs.rfo_evasion_scanners);
    put_text(out, "rfo_evasion_scanners_source", m->rfo_evasion_source[0]);
    fprintf(out, "rfo_evasion_share = %.17g\n", m->costs.rfo_evasion_share);
    put_text(out, "rfo_evasion_share_source", m->rfo_evasion_source[1]);
}

/* Level l: the nominal size and ways (the model's geometry may differ for an effective size),
 * the sources. */
static void write_level(FILE *out, const struct sb_machine *m, unsigned l)
{
    static const char *const level_names[] = {"L1d", "L2", "L3"};
    const struct sb_cachesim_level_config *c = &m->config.level[l];
    const struct sb_machine_size *sz = &m->sizes[l];

    fprintf(out, "\n[%s]\nsize = %llu\n", level_names[l],
            (unsigned long long)(sz->nominal ? sz->nominal : c->size));
    if (sz->nominal_source[0])
        put_text(out, "size_source", sz->nominal_source);
    if (sz->effective) {
        fprintf(out, "effective_size = %llu\n", (unsigned long long)sz->effective);
        put_text(out, "effective_size_source", sz->effective_source);
    }
    fprintf(out, "line_size = %u\nassociativity = %u\nreplacement = %s\n", c->line_size,
            sz->effective && sz->nominal_ways ? sz->nominal_ways : c->associativity,
            sb_replacement_names[c->replacement]);
    if (l)
        fprintf(out, "inclusion = %s\n", sb_inclusion_names[c->inclusion]);
}

int sb_machine_costs_write(FILE *out, const struct sb_machine *m)
{
    fprintf(out, "; %s: written by scanbench\n[machine]\n", m->name);
    put_text(out, "name", m->name);
    put_text(out, "description", m->description[0] ? m->description : m->name);
    put_text(out, "source", m->source[0] ? m->source : "unknown");
    fprintf(out, "wc_buffers = %u\nprefetch = %s\n", m->config.wc_buffers,
            m->config.prefetch ? "yes" : "no");
    write_allocate(out, m);
    for (unsigned l = 0; l < m->config.nlevels && l < 3; l++)
        write_level(out, m, l);
    if (m->costs.present)
        write_costs(out, m);
    return fflush(out) == 0 && !ferror(out) ? 0 : -1;
}
