/* sim_replay.h: a scan's memory accesses fed to the cache model, in order, and the model split into
 * slices (lib/cachesim/model.h) replayed on threads of their own: the sim backend's engine, and
 * bench/dev/sim-speed's. The slices' counts add up to the whole model's exactly, so the counts do not
 * depend on how many threads ran them; only the time does. */
#ifndef SB_SIM_REPLAY_H
#define SB_SIM_REPLAY_H

#include <stdint.h>

#include "cachesim/cachesim.h"
#include "counters/interface.h"

/* Where the model sees the two regions: each at its own 1TB-aligned base (see sim_replay.c). */
#define SB_SIM_IOCACHE_BASE (1ull << 40)
#define SB_SIM_POOL_BASE (2ull << 40)

/* Feeds the model one scan of the trace: for each page in block order the copy (each line of
 * the IO-cache page read, each line of the pool buffer written: stored by a temporal kernel,
 * streamed through the WC buffers and fenced by `nt`), then the op's reads and writes, walked
 * on the source page. A slice keeps only its own lines of the same feed. Returns the live
 * tuples the op's walk saw (the op's own count; 0 for op none). */
uint64_t sb_sim_feed_scan(struct sb_cachesim *sim, const struct sb_scan_trace *trace);

/* A model as slices, each replayed by a thread of its own (slice 0 by the caller's). */
struct sb_sim_model;

/* Builds a cold model of cfg in want_slices slices (rounded down to a power of two, and to
 * what the model allows: sb_cachesim_max_slice_shift; 1 = the whole model on one thread).
 * Errors as sb_cachesim_create. */
int sb_sim_model_create(const struct sb_cachesim_config *cfg, unsigned want_slices,
                        struct sb_sim_model **model, struct sb_error *err);
void sb_sim_model_destroy(struct sb_sim_model *model);
unsigned sb_sim_model_slices(const struct sb_sim_model *model);

/* Replays one scan of the trace through every slice (state carries over from the scans before),
 * each on a thread of its own (on the caller's if one cannot start), and gives the scan's
 * counts, summed over the slices; returns sb_sim_feed_scan's live tuples. The slices' threads
 * share the op's walk of each page (each page walked once, into a list per slice) when every
 * one of them started; otherwise each slice walks the whole trace itself (sb_sim_feed_scan):
 * the same counts either way. */
uint64_t sb_sim_model_replay(struct sb_sim_model *model, const struct sb_scan_trace *trace,
                             struct sb_cachesim_counts *counts);

/* The machine code the slices run (sb_cachesim_code_of), and every slice made to run code
 * (sb_cachesim_use_code: false, and none changed, if this build or CPU has no such code). */
enum sb_cachesim_code sb_sim_model_code(const struct sb_sim_model *model);
bool sb_sim_model_use_code(struct sb_sim_model *model, enum sb_cachesim_code code);

/* The memory all the slices' state takes, and the cache lines they simulate together. */
size_t sb_sim_model_state_bytes(const struct sb_sim_model *model);
uint64_t sb_sim_model_lines(const struct sb_sim_model *model);

#endif
