/* SPDX-License-Identifier: BSD-3-Clause */
/* probe_kernels.h (internal to host): the loops `scanbench probe` times (probe.h): a pointer
 * chase over a cyclic chain of lines, a streaming read, temporal and non-temporal stores, loads
 * and stores of the same lines, and a dependent add chain for the core's clock; the mapping
 * they run over. Each returns what one timed call measured. */
#ifndef SB_PROBE_KERNELS_H
#define SB_PROBE_KERNELS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Links the lines (64 bytes each, the first word a pointer) of buf[0, lines * 64) into one
 * cycle: a random cyclic permutation (Sattolo's algorithm, seeded) or, with in_order, address
 * order. Returns the chain's first line; NULL when lines is 0. */
void *sb_chase_link(void *buf, size_t lines, bool in_order, uint64_t seed);

/* Follows the chain for loads dependent loads from *at (left where it stopped); nanoseconds
 * per load. */
double sb_chase_ns(void **at, size_t loads);

/* Reads, writes with ordinary (temporal) stores, or writes with non-temporal stores the bytes
 * [buf, buf + len) passes times (len a multiple of 64, buf 64-byte aligned); GB/s (10^9 bytes
 * per second). sb_nt_write_gbps is false when this build has no non-temporal store. */
double sb_read_gbps(const void *buf, size_t len, unsigned passes);
double sb_write_gbps(void *buf, size_t len, unsigned passes);
bool sb_nt_write_gbps(void *buf, size_t len, unsigned passes, double *gbps);

/* Loads each 16 bytes of [buf, buf + len) and stores them back incremented, passes times: every
 * line read and written, as a copy's destination is under write-allocate. GB/s of the buffer
 * (each byte counted once, though it moves both ways). */
double sb_rmw_gbps(void *buf, size_t len, unsigned passes);

/* A 2MB-aligned anonymous mapping of len bytes with transparent huge pages asked for (*huge
 * says whether madvise took it), every page touched; NULL when it cannot be mapped. Freed with
 * sb_probe_unmap(raw, raw_len). */
void *sb_probe_map(size_t len, void **raw, size_t *raw_len, bool *huge);
void sb_probe_unmap(void *raw, size_t raw_len);

/* The core's clock in GHz: adds dependent on each other (one cycle each on every current
 * core) for about `seconds`, timed against the wall clock. */
double sb_add_chain_ghz(double seconds);

#endif
