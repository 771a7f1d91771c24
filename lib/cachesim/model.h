/* SPDX-License-Identifier: BSD-3-Clause */
/* model.h: a trace-driven model of a CPU data-cache hierarchy: up to three levels (L1d, L2,
 * L3), each with its size, line size, associativity, replacement (LRU or tree pseudo-LRU) and
 * inclusion policy towards the levels above it (inclusive, exclusive victim cache as on AMD
 * K8/K10, non-inclusive), all write-back and write-allocate, with memory at the bottom counting
 * the bytes read and written. Non-temporal stores go through write-combining buffers; an
 * optional tagged next-line prefetcher fills L1d. Fed one access at a time, it counts per level
 * hits, misses, fills and write-backs (dirty evictions). The model persists until destroyed;
 * sb_cachesim_reset_counts() zeroes the counts and keeps the cache contents.
 *
 * The state is, per level, one flat array of sets, each set's state together: one word of
 * replacement state (LRU: the ways in recency order, 4 bits each, so LRU takes at most 16 ways;
 * pseudo-LRU: a tree of ways-1 bits), one hint byte per way (a hash of the line, compared 16
 * ways at a time) rounded up to 16 bytes, and one uint64 tag per way (the line number, a dirty
 * bit, a prefetched bit, a prefetchnta bit): 9.5 bytes per simulated line for 16 ways, 11 for 8. Sets are powers
 * of two (mask and one multiply); nothing is allocated per access. sb_cachesim_copy() and
 * sb_cachesim_access_lines() take a page's worth of accesses in one call (the fast way to feed a
 * scan). */
#ifndef SB_CACHESIM_MODEL_H
#define SB_CACHESIM_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cachesim/model_types.h"
#include "core/core.h"

/* Builds an empty (cold) model; SB_ERR_INPUT if the configuration is invalid (the message
 * names the level and key), SB_ERR_RUN when out of memory. */
int sb_cachesim_create(const struct sb_cachesim_config *cfg, struct sb_cachesim **sim,
                       struct sb_error *err);

/* Slices: every level's set index starts with the low bits of the line number (one line size
 * at every level, power-of-two set counts), so the lines whose low k bits are i meet only each
 * other, in the sets whose low k bits are i, at every level. The model splits into 1 << k
 * independent slices of 1/2^k of the sets each; slice i, fed the whole trace, keeps only its
 * lines (numbered line >> k, so its sets are the same as the whole model's), and the counts of
 * the slices add up to the whole model's exactly, whatever runs them in parallel. Exact as
 * long as nothing relates two lines: the next-line prefetcher does (a model with it has no
 * slices), and so do the WC buffers once a partly written line waits in one (the oldest is
 * evicted across lines): a slice is exact for whole-line streaming stores, as the scan's
 * copies make, and a fence after each page. */
/* (SB_CACHESIM_MAX_SLICE_SHIFT, model_types.h: at most 8 slices) */

/* The largest k for which the model of cfg splits into 1 << k slices (0: it does not): every
 * level must keep at least one set per slice, and no prefetcher. */
unsigned sb_cachesim_max_slice_shift(const struct sb_cachesim_config *cfg);

/* Builds slice slice_index of 1 << slice_shift (a cold model of that slice's sets); shift 0,
 * index 0 is the whole model. SB_ERR_INPUT beyond sb_cachesim_max_slice_shift(). */
int sb_cachesim_create_slice(const struct sb_cachesim_config *cfg, unsigned slice_shift,
                             uint64_t slice_index, struct sb_cachesim **sim,
                             struct sb_error *err);
void sb_cachesim_destroy(struct sb_cachesim *sim);

/* A load (is_write false) or a store of size bytes at address: every line it overlaps is
 * looked up in L1d, and on a miss brought from below (a store miss reads the line first:
 * write-allocate) and marked dirty on a store. */
void sb_cachesim_access(struct sb_cachesim *sim, uint64_t address, uint64_t size, bool is_write);

/* The lines the model keeps: those whose low shift bits are index (a slice of
 * sb_cachesim_create_slice), each known to it as line >> shift; a whole model: 0 and 0. */
void sb_cachesim_slice_of(const struct sb_cachesim *sim, unsigned *shift, uint64_t *index);

/* Whole lines looked up in L1d, in order, every one a line the model keeps, near a first line
 * (a page's): each entry is the line's distance from first (in the model's numbering: the
 * address shifted right by log2 of the line size, then by the slice's shift, as
 * sb_cachesim_slice_of says) shifted left by SB_CACHESIM_ENTRY_SHIFT, with
 * SB_CACHESIM_LINE_WRITE set for a store. Exactly sb_cachesim_access(line * line_size, 1,
 * is_write) of each (line: the whole address space's number); the fastest way to feed accesses
 * that are not copies (sim_replay's op walk), as the caller skips the other slices' lines. */
#define SB_CACHESIM_ENTRY_SHIFT 3
#define SB_CACHESIM_LINE_WRITE 1u
void sb_cachesim_access_lines(struct sb_cachesim *sim, uint64_t first, const uint16_t *entries,
                              size_t n);

/* A copy of len bytes from src to dst as the temporal and streaming copy kernels make it, one
 * line-sized chunk at a time: the chunk of src loaded, then the chunk of dst at the same offset
 * stored (stream false: write-allocate) or streamed through the WC buffers (stream true; no
 * fence). Exactly sb_cachesim_access(src + off, line, false) followed by
 * sb_cachesim_access(dst + off, line, true) or sb_cachesim_stream_store(dst + off, line), for
 * off = 0, line, 2 * line, ... below len; faster, one call for a whole page. */
void sb_cachesim_copy(struct sb_cachesim *sim, uint64_t src, uint64_t dst, uint64_t len,
                      bool stream);

/* Non-temporal stores of len bytes at address, through the WC buffers: a buffer that fills a
 * whole line is written to memory at once without reading the line; a buffer needed for a new
 * line when all are busy flushes the oldest; a flush invalidates the line in every level
 * (writing back a dirty copy first). */
void sb_cachesim_stream_store(struct sb_cachesim *sim, uint64_t address, uint64_t len);

/* prefetchnta of the line holding address (AMD, Software Optimization Guide for AMD64
 * Processors, 25112 rev 3.06, section 5.6 "Prefetch Instructions": the data is read into L1d;
 * when the prefetch misses L2 and reads memory, the line is never evicted to L2; when it hits
 * L2, it goes back there on eviction as usual; revision E fills either way of L1d). It is not
 * a demand access: L1d counts neither a hit nor a miss for it, and it is not a line access.
 * - In L1d: nothing happens (no count, no recency, no mark).
 * - Not in L1d: the levels below are looked up as for a load (their hits and misses count).
 *   Found in one: exactly a load's fill (an exclusive level gives the line up to L1d and gets
 *   it back at L1d's eviction). Not found: memory is read, nta_prefetches counts the line, and
 *   it goes into L1d marked, and into every inclusive level below (which must hold what L1d
 *   holds), but not into a non-inclusive one (as a load's fill would) nor an exclusive one
 *   (a victim cache is never filled from below anyway).
 * - The mark: while L1d holds the line, loads and stores hit it as any other (a store makes it
 *   dirty; the mark stays); when L1d evicts it clean and the level below is an exclusive victim
 *   cache (AMD K8's L2), it is dropped instead of going into that level; evicted dirty, it is
 *   written back as any dirty line (the guide does not say what a modified line does: its
 *   data must go down, and the model sends it where other write-backs go). Below a
 *   non-inclusive or inclusive level, a clean eviction is silent anyway: the mark changes
 *   nothing there. Invalidations drop it with the line.
 * Per line, so a slice keeps exactly its own lines' prefetches. */
void sb_cachesim_prefetch_nta(struct sb_cachesim *sim, uint64_t address);

/* sfence: flushes every WC buffer (partly filled ones as partial writes). */
void sb_cachesim_fence(struct sb_cachesim *sim);

void sb_cachesim_read_counts(const struct sb_cachesim *sim, struct sb_cachesim_counts *counts);

void sb_cachesim_reset_counts(struct sb_cachesim *sim);

/* Whether the line holding address is in the level (for tests), and if so whether dirty. */
bool sb_cachesim_holds(const struct sb_cachesim *sim, unsigned level, uint64_t address,
                       bool *dirty);

/* The machine code a model runs (sb_cachesim_code, model_types.h), and choosing it. */
enum sb_cachesim_code sb_cachesim_code_of(const struct sb_cachesim *sim);
bool sb_cachesim_use_code(struct sb_cachesim *sim, enum sb_cachesim_code code);

/* The line size (the same at every level). */
uint32_t sb_cachesim_line_size(const struct sb_cachesim *sim);

/* Memory the model's state takes (tags, replacement bits, WC buffers, the struct itself), and
 * the number of cache lines it simulates. */
size_t sb_cachesim_state_bytes(const struct sb_cachesim *sim);

uint64_t sb_cachesim_lines(const struct sb_cachesim *sim);

#endif
