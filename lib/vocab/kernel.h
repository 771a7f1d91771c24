/* SPDX-License-Identifier: BSD-3-Clause */
/* kernel.h: the registry of copy kernels that move a page from the IO cache into a pool buffer:
 * `memcpy` (libc), `movsb` (rep movsb), `avx2`, `avx512` (vector loads and stores), `nt`
 * (non-temporal streaming stores, then sfence: the write-combining path). Which ones the CPU
 * can run is decided at run time from CPUID; the others are refused by name. Beside them, the
 * halves of a copy (`read`, `write`) that tell which side sets a copy's speed. */
#ifndef SB_KERNEL_H
#define SB_KERNEL_H

#include <stdbool.h>
#include <stddef.h>

/* Copies len bytes (any length; dst and src do not overlap). */
typedef void (*sb_copy_fn)(void *restrict dst, const void *restrict src, size_t len);

/* What a kernel does with a page: copy it, or only one side of the copy (the read side or the
 * write side), to tell which of the two sets a copy's speed. */
enum sb_kernel_side {
    SB_KERNEL_COPY,  /* the page copied from the IO cache into the buffer */
    SB_KERNEL_READ,  /* `read`: the source loaded; only its 8-byte fold stored, into the buffer */
    SB_KERNEL_WRITE, /* `write`: the buffer stored, the source unread (its address the value) */
};

struct sb_kernel {
    const char *name;
    const char *description;
    sb_copy_fn copy;         /* NULL for `pread`: the source copies (source_file.c) */
    const char *requires;    /* the CPU feature it needs, as people name it ("avx2"), or "" */
    bool (*supported)(void); /* true when this CPU (and OS) can run it */
    bool temporal;           /* false for streaming stores that bypass the caches */
    bool prefetch_nta;       /* prefetchnta ahead on the source (solaris-nta): on AMD K8 the
                                lines fill L1 only and are not written into L2 when evicted */
    enum sb_kernel_side side;
};

extern const struct sb_kernel sb_kernels[]; /* terminated by an entry whose name is NULL */

/* `pread`: the operating system's own copy (copy_to_user) of a pread() from the page cache into
 * the pool buffer. Not a CPU kernel (copy is NULL, and `kernel = all` does not list it): it is
 * the copy of source `file`, and only of that source (plan.c holds the two together). */
extern const struct sb_kernel sb_kernel_pread;

/* The write-back's kernels beyond sb_kernels (key writeback_kernel): `pwrite`, the operating
 * system's copy of source file's write-back (copy NULL, as pread), and `solaris-nta`, Solaris
 * 10's xcopyin_nta that write() used (prefetchnta on the source, movnti stores, mfence). */
extern const struct sb_kernel sb_kernel_pwrite;
extern const struct sb_kernel sb_kernel_solaris_nta;

/* The two halves of a copy, for telling its read side from its write side (op none only: the
 * buffer does not hold the page). `read` loads every 8-byte word of the source page and stores
 * their xor into the buffer's first 8 bytes (one line of the buffer, the evidence that the
 * validation checks); `write` stores the source page's address into every 8-byte word of the
 * buffer and reads nothing. Neither is in sb_kernels (`kernel = all` lists copies). */
extern const struct sb_kernel sb_kernel_read;
extern const struct sb_kernel sb_kernel_write;

/* Whether buffer holds what half kernel k (`read` or `write`) leaves there after its call
 * with page as source (len bytes, a multiple of 8). */
bool sb_kernel_half_done(const struct sb_kernel *k, const void *buffer, const void *page,
                         size_t len);

/* Finds a kernel of sb_kernels, `pread`, `read` or `write`. */
const struct sb_kernel *sb_kernel_find(const char *name);

/* Finds a write-back kernel: one of sb_kernels, `pwrite` or `solaris-nta` (not `pread`). */
const struct sb_kernel *sb_writeback_kernel_find(const char *name);

/* A yes/no CPU feature line for `scanbench list` and the report ("erms avx2 ..."). */
const char *sb_cpu_features(void);

#endif
