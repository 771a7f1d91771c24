/* SPDX-License-Identifier: BSD-3-Clause */
/* costs.c: the names of the [costs] keys (costs.h). */
#include "config.h"
#include "cachesim/costs.h"

const char *const sb_cost_key_names[SB_COST_KEYS] = {
    "clock_ghz",      "l1d_hit_cycles", "l2_hit_cycles", "l3_hit_cycles",   "mem_latency_ns",
    "mem_read_gbps", "mem_write_gbps", "nt_write_gbps", "prefetch_hidden", "mlp",
    "memory_controllers", "l2_read_gbps", "l3_read_gbps",
};
