/* SPDX-License-Identifier: BSD-3-Clause */
/* machine.h: machine models for the cache model (model.h): read from
 * configs/machines/NAME.ini (or any path), or built from the host's topology (`auto`).
 *
 * A machine file:
 *     ; where the figures come from (vendor guides, datasheets)
 *     [machine]
 *     name = x4500                 ; optional: the file's name without .ini
 *     description = Sun Fire X4500, dual-core Opteron 285 (K8)
 *     source = AMD, Software Optimization Guide for AMD64 Processors, 25112 rev 3.06 ...
 *     wc_buffers = 4               ; write-combining buffers for non-temporal stores
 *     prefetch = no                ; the next-line prefetcher (the `prefetch` key overrides)
 *     write_allocate = nt_stores   ; optional: what a store that misses reads first
 *                                  ; (model_types.h): nt_stores (the default: every temporal
 *                                  ; store miss reads its line), full_line_loaded (SpecI2M:
 *                                  ; with rfo_evasion_scanners and rfo_evasion_share), full_line
 *     write_allocate_source = ...  ; required with it (as every value below with a _source)
 *     [L1d]
 *     size = 64K                   ; the nominal size (size_source optional)
 *     effective_size = 48K         ; optional, with effective_size_source: what a core can use
 *                                  ; (scanbench probe's sweep); the model takes it, as the
 *                                  ; largest geometry of a power-of-two number of sets it fits
 *     line_size = 64
 *     associativity = 2
 *     replacement = lru            ; lru (at most 16 ways), plru (tree, power-of-two ways) or
 *                                  ; pairs (the K8 L2's: L2 and L3, even ways up to 16)
 *     [L2]
 *     size = 1M
 *     line_size = 64
 *     associativity = 16
 *     replacement = pairs
 *     inclusion = exclusive        ; towards the levels above: inclusive, exclusive (victim
 *                                  ; cache), non-inclusive (the default)
 *     [L3]                         ; optional
 *     [costs]                      ; optional: what events cost in time (costs.h), every
 *                                  ; value with its KEY_source
 * [L1d] and [L2] are required. Bad input is SB_ERR_INPUT with "file:line: key: what is wrong":
 * an unknown section or key, a key given twice, a value that is not a size or a number, an
 * unknown replacement or inclusion, a line size that does not divide the 8KB page, a geometry
 * that does not make a power-of-two number of sets, an inclusive level no larger than the one
 * above it (model.c checks the geometry). */
#ifndef SB_MACHINE_H
#define SB_MACHINE_H

#include <stddef.h>
#include <stdio.h>

#include "cachesim/costs.h"
#include "cachesim/model_types.h"
#include "core/core.h"
#include "host/host.h"

/* The page every line size must divide (BLCKSZ). */
#define SB_MACHINE_PAGE 8192u

/* A level's sizes: the nominal (`size`) and the effective one a core can use, each with its
 * source ("" when the file gives none); the model's geometry takes the effective one. */
struct sb_machine_size {
    uint64_t nominal;
    uint64_t effective; /* 0: not given */
    uint32_t nominal_ways; /* the file's associativity, where the model's differs for the
                              effective size */
    char nominal_source[SB_COST_SOURCE_MAX];
    char effective_source[SB_COST_SOURCE_MAX];
};

struct sb_machine {
    char name[64];
    char description[768];
    char source[768];  /* where the figures come from */
    char file[1024];   /* the file read (SB_PATH_MAX), or "auto (host topology)" */
    struct sb_cachesim_config config; /* config.prefetch: the file's `prefetch` */
    struct sb_machine_costs costs;    /* [costs] (costs.h): present false without one;
                                         costs.write_allocate etc. are [machine]'s */
    struct sb_machine_size sizes[SB_CACHESIM_MAX_LEVELS];
    char write_allocate_source[SB_COST_SOURCE_MAX]; /* "assumed: ..." when not given */
    char rfo_evasion_source[2][SB_COST_SOURCE_MAX]; /* rfo_evasion_scanners, _share */
};

/* Reads a model: `name` is a file of configs/machines/ (found through core/configs_path.h:
 * $SCANBENCH_CONFIGS, the source tree, the installed data) or, with a '/', a path. An unknown
 * name is SB_ERR_INPUT listing the known ones. */
int sb_machine_load(const char *name, struct sb_machine *m, struct sb_error *err);

/* Parses a machine file's text; label names it in errors ("file" in "file:line: key: ..."). */
int sb_machine_parse(const char *text, const char *label, struct sb_machine *m,
                     struct sb_error *err);

/* The host's model from its topology: the known levels with their sizes, line and ways;
 * what had to be assumed (unknown associativity, replacement, inclusion, WC buffers, sizes
 * rounded to a power-of-two number of sets) is said in the description. vendor is the CPU
 * vendor string ("AuthenticAMD": the L3 is modelled as a victim cache, as on Zen; otherwise
 * inclusive). SB_ERR_INPUT when L1d or L2 is unknown. */
int sb_machine_from_topology(const struct sb_topology *topo, const char *vendor,
                             struct sb_machine *m, struct sb_error *err);

/* Writes m as a machine file ([machine], [L1d], [L2], [L3] when it has one, and [costs] with
 * every value's source when m->costs.present) that sb_machine_load reads back to the same
 * machine (machine_write.c). Returns 0, or -1 on a write error (errno set). */
int sb_machine_costs_write(FILE *out, const struct sb_machine *m);

/* Level l's effective size (bytes, at least 8 lines) with its source: the model's geometry
 * becomes the largest of a power-of-two number of sets that it holds (machine file's
 * effective_size); the nominal size stays as it was. */
void sb_machine_set_effective(struct sb_machine *m, unsigned l, uint64_t effective,
                              const char *source);

/* The names of configs/machines/ (sorted, comma-separated) into buf. */
void sb_machine_known(char *buf, size_t len);

/* One line: "L1d 64KB 2-way lru, L2 1MB 16-way plru exclusive, 64B lines, 4 WC buffers". */
const char *sb_machine_geometry(const struct sb_machine *m, char *buf, size_t len);

#endif
