/* probe_kernels.h (internal to host): the loops `scanbench probe` times (probe.h): a pointer
 * chase over a cyclic chain of lines, a streaming read, temporal and non-temporal stores, and a
 * dependent add chain for the core's clock. Each returns what one timed call measured. */
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

/* The core's clock in GHz: adds dependent on each other (one cycle each on every current
 * core) for about `seconds`, timed against the wall clock. */
double sb_add_chain_ghz(double seconds);

#endif
