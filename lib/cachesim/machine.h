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
 *     [L1d]
 *     size = 64K
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

struct sb_machine {
    char name[64];
    char description[768];
    char source[768];  /* where the figures come from */
    char file[1024];   /* the file read (SB_PATH_MAX), or "auto (host topology)" */
    struct sb_cachesim_config config; /* config.prefetch: the file's `prefetch` */
    struct sb_machine_costs costs;    /* [costs] (costs.h): present false without one */
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

/* The names of configs/machines/ (sorted, comma-separated) into buf. */
void sb_machine_known(char *buf, size_t len);

/* One line: "L1d 64KB 2-way lru, L2 1MB 16-way plru exclusive, 64B lines, 4 WC buffers". */
const char *sb_machine_geometry(const struct sb_machine *m, char *buf, size_t len);

#endif
