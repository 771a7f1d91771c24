/* SPDX-License-Identifier: BSD-3-Clause */
/* aggressor.h: contention on purpose (key contention): a thread pinned to a CPU the scans do not
 * use, moving memory while the timed scans run, so that a run can be measured against a known
 * neighbour, the same every time. `stream` copies one buffer into another, each four times the
 * last-level cache and at least 256MB (STREAM's copy: memory traffic both ways); `l3` reads,
 * changes and writes back a working set the size of the L3 (at most 64MB): it keeps the shared
 * cache busy with its own lines. It counts the bytes it reads and writes (a copy of N bytes
 * counts 2N, as STREAM does; so does a read-modify-write of N) and the seconds it was active, so
 * its own speed is known. It starts paused; the caller resumes it around what it wants
 * contended and pauses it after. While it exists, the thread that started it (and the threads
 * that one starts unpinned) keep off its CPU. */
#ifndef SB_AGGRESSOR_H
#define SB_AGGRESSOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/core.h"

enum sb_contention_kind { SB_CONTENTION_NONE, SB_CONTENTION_STREAM, SB_CONTENTION_L3 };

/* "none", "stream", "l3", indexed by the kind, then NULL. */
extern const char *const sb_contention_names[];

#define SB_AGGRESSOR_STREAM_MIN (256ull << 20) /* the least of each stream buffer */
#define SB_AGGRESSOR_L3_MAX (64ull << 20)      /* the most of l3's working set */

/* What an aggressor runs: its kind, its CPU and its buffers. */
struct sb_aggressor_plan {
    enum sb_contention_kind kind;
    int cpu;                     /* the CPU it is pinned to (-1 with none) */
    uint64_t working_set_bytes;  /* bytes of each buffer */
    unsigned buffers;            /* stream 2, l3 1 */
    bool capped;                 /* l3: the L3 was larger than SB_AGGRESSOR_L3_MAX */
    char sized[160];             /* how the working set was sized, in words */
};

/* kind's buffers sized from the L3 (llc_bytes: the last-level cache, 0 unknown; l3 true when it
 * is an L3): false, with why, for l3 without an L3 size. */
bool sb_aggressor_size(enum sb_contention_kind kind, uint64_t llc_bytes, bool l3,
                       struct sb_aggressor_plan *plan, char *why, size_t len);

/* The aggressor's CPU: the highest-numbered one this process may use that none of the first
 * `scanners` pinned places (cpu_place.h) takes, when the process may use at least two. false,
 * with why: what it needs and lacks ("a second CPU for the aggressor, and this process may use
 * only CPU 0"). */
bool sb_aggressor_cpu(uint32_t scanners, int *cpu, char *why, size_t len);

/* What it did: bytes read and written, seconds active, their GB/s (10^9 bytes a second). */
struct sb_aggressor_result {
    uint64_t bytes;
    double seconds;
    double gbps;
};

struct sb_aggressor;

/* Starts the thread (signals blocked in it), pinned to plan->cpu, its buffers mapped and
 * backed there, paused; keeps the calling thread off that CPU. *ag NULL on failure. */
int sb_aggressor_start(struct sb_aggressor **ag, const struct sb_aggressor_plan *plan,
                       struct sb_error *err);

/* Resume returns once it works, pause once it has stopped working (within one chunk of 256KB).
 * NULL: nothing. */
void sb_aggressor_resume(struct sb_aggressor *ag);
void sb_aggressor_pause(struct sb_aggressor *ag);

/* What it did so far (read while paused). */
void sb_aggressor_result(struct sb_aggressor *ag, struct sb_aggressor_result *res);

/* Ends the thread, unmaps its buffers, gives the calling thread back the CPUs it had, frees ag
 * (NULL: nothing). Call from the thread that started it. */
void sb_aggressor_stop(struct sb_aggressor *ag);

/* Tests: bytes of aggressor buffers mapped now, in the whole process. */
uint64_t sb_aggressor_mapped_bytes(void);

#endif
