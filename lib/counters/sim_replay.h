/* SPDX-License-Identifier: BSD-3-Clause */
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
 * on the source page (count's hint-bit stores where a tuple lacks them, vacuum's). A slice
 * keeps only its own lines of the same feed. Returns the live tuples the op's walk saw (the
 * op's own count; 0 for op none); UINT64_MAX if a trace with write-back found no memory for
 * the pool's state.
 * With write-back (trace->writeback evict or checkpoint) the replay keeps each buffer's tenant
 * block and dirty bit (at the start: the last block the trace put in it, dirty as the op left
 * that page: vacuum always, count where it set hint bits) and feeds, before a page's copy into
 * a dirty buffer, and (checkpoint) every checkpoint_pages pages for every dirty buffer in
 * buffer order, the write-back copy from the buffer to its tenant's IO cache page with the
 * write-back kernel's accesses: a temporal kernel's (and pwrite's) as a temporal copy, `nt`'s
 * streamed and fenced, solaris-nta's as xcopyin_nta makes them (per line: prefetchnta 256 bytes
 * ahead on the source, the source line loaded, the destination line streamed; a fence at the
 * end; see doc/cache-model.md). */
uint64_t sb_sim_feed_scan(struct sb_cachesim *sim, const struct sb_scan_trace *trace);

/* The same, the counts also split by phase when phases is not NULL: phases[SB_NPHASES]
 * (counters/interface.h) get the counts' growth while the model was fed each phase's accesses
 * (copy_in: the copy and a bigtable's DMA; op; writeback), adding up to the scan's. SB_ERR_RUN
 * when out of memory for the pool's state. */
int sb_sim_feed_scan_phases(struct sb_cachesim *sim, const struct sb_scan_trace *trace,
                            struct sb_cachesim_counts *phases, uint64_t *live,
                            struct sb_error *err);

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

/* The same, with the counts split by phase when phases is not NULL (phases[SB_NPHASES], summed
 * over the slices as the counts are), the live tuples in *live, and SB_ERR_RUN when out of
 * memory for the pool's state (a trace with write-back; sb_sim_model_replay then gives
 * UINT64_MAX and zero counts). */
int sb_sim_model_replay_phases(struct sb_sim_model *model, const struct sb_scan_trace *trace,
                               struct sb_cachesim_counts *counts,
                               struct sb_cachesim_counts *phases, uint64_t *live,
                               struct sb_error *err);

/* The machine code the slices run (sb_cachesim_code_of), and every slice made to run code
 * (sb_cachesim_use_code: false, and none changed, if this build or CPU has no such code). */
enum sb_cachesim_code sb_sim_model_code(const struct sb_sim_model *model);
bool sb_sim_model_use_code(struct sb_sim_model *model, enum sb_cachesim_code code);

/* The memory all the slices' state takes, and the cache lines they simulate together. */
size_t sb_sim_model_state_bytes(const struct sb_sim_model *model);
uint64_t sb_sim_model_lines(const struct sb_sim_model *model);

#endif
