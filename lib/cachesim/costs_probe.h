/* SPDX-License-Identifier: BSD-3-Clause */
/* costs_probe.h: a machine's [costs] (costs.h) from `scanbench probe`'s measurements of this
 * host (host/probe.h), every value with its source: "scanbench probe on HOST, DATE: the method,
 * the working set, the repetitions". How each cost is made of the measurements:
 *   clock_ghz        the add chain's best;
 *   lN_hit_cycles    the level's chase (median ns per load) x clock_ghz;
 *   mem_latency_ns   memory's chase;
 *   mem_read_gbps    memory's streaming read;
 *   mem_write_gbps   write-backs alone: temporal stores at W GB/s read the share s of their
 *                    lines for ownership (rfo_share, at mem_read_gbps, R) and write each back,
 *                    and the time model adds those two (timemodel.h), so 1 / (1/W - s/R); R
 *                    when that is above R or not positive (the two overlapped: the sum would
 *                    make write-backs faster than reads, assumed no faster);
 *   nt_write_gbps    memory's non-temporal stores (the temporal W when the build has none);
 *   prefetch_hidden  1 - (memory's chase in address order) / (memory's random chase), in [0, 1];
 *   mlp              Little's law: mem_read_gbps x mem_latency_ns / line, rounded, at least 1.
 * l3_hit_cycles only when the probe measured an L3. */
#ifndef SB_COSTS_PROBE_H
#define SB_COSTS_PROBE_H

#include <stdbool.h>

#include "cachesim/costs.h"
#include "cachesim/machine.h"
#include "host/host.h"

/* Fills c (present) from p; host names the processor ("AMD EPYC 9B45, family 26 model 17"),
 * date the day ("2026-12-01"). */
void sb_costs_from_probe(const struct sb_probe *p, const char *host, const char *date,
                         struct sb_machine_costs *c);

/* Fills m's [costs] from p (sb_costs_from_probe) and what else the probe found: each level's
 * effective size where the sweep found a step (the chase's where it has one, the sharper step
 * that moves least between probes, else the streaming read's; the nominal size the
 * topology's, with its source), and the write-allocate rule from the share of a temporal store
 * stream's lines read first (rfo_share): the nearer of every line (nt_stores, from 1/2 on) and
 * none (full_line). m is the host's model from its topology (sb_machine_from_topology). */
void sb_machine_apply_probe(const struct sb_probe *p, const struct sb_topology *topo,
                            const char *host, const char *date, struct sb_machine *m);

/* Whether m is this host's own machine: `auto`, or a file `scanbench probe` wrote (its source
 * says so). Its core is the host's: a prediction's CPU work is the host's as measured (core
 * factor 1, no calibration). */
bool sb_machine_is_this_host(const struct sb_machine *m);

#endif
