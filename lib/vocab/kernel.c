/* SPDX-License-Identifier: BSD-3-Clause */
/* kernel.c: the copy kernels and their CPU-feature checks, and the halves of a copy with the
 * check of what they leave. Vector kernels are compiled with per-function target attributes,
 * so one binary runs everywhere and picks at run time. */
#include "config.h"
#include "vocab/kernel.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>
#define SB_X86 1
#else
#define SB_X86 0
#endif

static bool always(void) { return true; }

static void copy_memcpy(void *restrict dst, const void *restrict src, size_t len)
{
    memcpy(dst, src, len);
}

#if SB_X86
static bool cpu_has_erms(void)
{
    unsigned a, b, c, d;
    return __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & (1u << 9));
}

static bool cpu_has_avx2(void)
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2");
}

static bool cpu_has_avx512(void)
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f");
}

static void copy_movsb(void *restrict dst, const void *restrict src, size_t len)
{
    __asm__ volatile("rep movsb" : "+D"(dst), "+S"(src), "+c"(len) : : "memory");
}

static void copy_tail(uint8_t *restrict d, const uint8_t *restrict s, size_t len)
{
    for (size_t i = 0; i < len; i++)
        d[i] = s[i];
}

__attribute__((target("avx2"))) static void copy_avx2(void *restrict dst,
                                                      const void *restrict src, size_t len)
{
    uint8_t *d = dst;
    const uint8_t *s = src;
    size_t i = 0;

    for (; i + 128 <= len; i += 128) {
        __m256i a = _mm256_loadu_si256((const __m256i *)(s + i));
        __m256i b = _mm256_loadu_si256((const __m256i *)(s + i + 32));
        __m256i c = _mm256_loadu_si256((const __m256i *)(s + i + 64));
        __m256i e = _mm256_loadu_si256((const __m256i *)(s + i + 96));
        _mm256_storeu_si256((__m256i *)(d + i), a);
        _mm256_storeu_si256((__m256i *)(d + i + 32), b);
        _mm256_storeu_si256((__m256i *)(d + i + 64), c);
        _mm256_storeu_si256((__m256i *)(d + i + 96), e);
    }
    for (; i + 32 <= len; i += 32)
        _mm256_storeu_si256((__m256i *)(d + i), _mm256_loadu_si256((const __m256i *)(s + i)));
    copy_tail(d + i, s + i, len - i);
}

__attribute__((target("avx512f"))) static void copy_avx512(void *restrict dst,
                                                           const void *restrict src, size_t len)
{
    uint8_t *d = dst;
    const uint8_t *s = src;
    size_t i = 0;

    for (; i + 256 <= len; i += 256) {
        __m512i a = _mm512_loadu_si512((const void *)(s + i));
        __m512i b = _mm512_loadu_si512((const void *)(s + i + 64));
        __m512i c = _mm512_loadu_si512((const void *)(s + i + 128));
        __m512i e = _mm512_loadu_si512((const void *)(s + i + 192));
        _mm512_storeu_si512((void *)(d + i), a);
        _mm512_storeu_si512((void *)(d + i + 64), b);
        _mm512_storeu_si512((void *)(d + i + 128), c);
        _mm512_storeu_si512((void *)(d + i + 192), e);
    }
    for (; i + 64 <= len; i += 64)
        _mm512_storeu_si512((void *)(d + i), _mm512_loadu_si512((const void *)(s + i)));
    copy_tail(d + i, s + i, len - i);
}

/* Streaming stores need a 16-byte aligned destination: a misaligned head is copied plainly. */
static void copy_nt(void *restrict dst, const void *restrict src, size_t len)
{
    uint8_t *d = dst;
    const uint8_t *s = src;
    size_t head = (16 - ((uintptr_t)d & 15)) & 15;
    size_t i;

    if (head > len)
        head = len;
    copy_tail(d, s, head);
    for (i = head; i + 128 <= len; i += 128) {
        __m128i r[8];
        for (int k = 0; k < 8; k++)
            r[k] = _mm_loadu_si128((const __m128i *)(s + i + 16 * k));
        for (int k = 0; k < 8; k++)
            _mm_stream_si128((__m128i *)(d + i + 16 * k), r[k]);
    }
    for (; i + 16 <= len; i += 16)
        _mm_stream_si128((__m128i *)(d + i), _mm_loadu_si128((const __m128i *)(s + i)));
    _mm_sfence();
    copy_tail(d + i, s + i, len - i);
}

/* Solaris 10's xcopyin_nta (OpenSolaris usr/src/uts/intel/ia32/ml/copy.s, COPY_LOOP_BODY):
 * for a copy of at least 128 bytes, source and destination 4-byte aligned and a length that is
 * a multiple of 16 (write()'s UIO_COPY_DEFAULT takes it, so every 8KB page does), each 16-byte
 * step prefetches 256 bytes ahead on the source with prefetchnta, loads two quadwords and
 * stores them with movnti; an mfence ends the copy. Anything else takes the plain copy
 * (xcopyin, i.e. bcopy), as Solaris does. */
static void copy_solaris_nta(void *restrict dst, const void *restrict src, size_t len)
{
    uint8_t *d = dst;
    const uint8_t *s = src;

    if (len < 128 || (len & 15) || ((uintptr_t)d & 3) || ((uintptr_t)s & 3)) {
        memcpy(dst, src, len);
        return;
    }
    for (size_t i = 0; i < len; i += 16) {
        long long a, b;
        _mm_prefetch((const char *)(s + i + 256), _MM_HINT_NTA);
        memcpy(&a, s + i, 8);
        memcpy(&b, s + i + 8, 8);
        _mm_stream_si64((long long *)(void *)(d + i), a);
        _mm_stream_si64((long long *)(void *)(d + i + 8), b);
    }
    _mm_mfence();
}
#else
static bool never(void) { return false; }
#endif /* SB_X86 */

/* --- the halves of a copy ---------------------------------------------------------------------
 * Eight 16-byte vectors a step, 128 bytes a loop like the avx2 copy's (GCC's vector extension:
 * SSE2 registers on x86-64, the baseline every x86-64 CPU has; 32-byte vectors without -mavx2
 * would be spilled to the stack). The empty asm with a memory clobber keeps the compiler from
 * turning the store loop into a memset call. */
typedef uint64_t sb_vec2 __attribute__((vector_size(16)));

static uint64_t fold_tail(const uint8_t *s, size_t len)
{
    uint64_t x = 0;

    for (size_t i = 0; i + 8 <= len; i += 8) {
        uint64_t w;
        memcpy(&w, s + i, 8);
        x ^= w;
    }
    return x;
}

/* acc ^= the 16 bytes at p: a macro, so the eight accumulators stay in registers */
#define SB_FOLD16(acc, p) do { sb_vec2 v_; memcpy(&v_, (p), 16); (acc) ^= v_; } while (0)

static void read_only(void *restrict dst, const void *restrict src, size_t len)
{
    const uint8_t *s = src;
    sb_vec2 a0 = {0}, a1 = {0}, a2 = {0}, a3 = {0}, a4 = {0}, a5 = {0}, a6 = {0}, a7 = {0};
    uint64_t x;
    size_t i = 0;

    for (; i + 128 <= len; i += 128) {
        SB_FOLD16(a0, s + i);
        SB_FOLD16(a1, s + i + 16);
        SB_FOLD16(a2, s + i + 32);
        SB_FOLD16(a3, s + i + 48);
        SB_FOLD16(a4, s + i + 64);
        SB_FOLD16(a5, s + i + 80);
        SB_FOLD16(a6, s + i + 96);
        SB_FOLD16(a7, s + i + 112);
    }
    a0 ^= a1 ^ a2 ^ a3 ^ a4 ^ a5 ^ a6 ^ a7;
    x = a0[0] ^ a0[1] ^ fold_tail(s + i, len - i);
    memcpy(dst, &x, len < 8 ? len : 8);
}

static void write_only(void *restrict dst, const void *restrict src, size_t len)
{
    uint8_t *d = dst;
    const uint64_t value = (uint64_t)(uintptr_t)src;
    const sb_vec2 v = {value, value};
    size_t i = 0;

    for (; i + 128 <= len; i += 128) {
        memcpy(d + i, &v, 16);
        memcpy(d + i + 16, &v, 16);
        memcpy(d + i + 32, &v, 16);
        memcpy(d + i + 48, &v, 16);
        memcpy(d + i + 64, &v, 16);
        memcpy(d + i + 80, &v, 16);
        memcpy(d + i + 96, &v, 16);
        memcpy(d + i + 112, &v, 16);
        __asm__ volatile("" : : "r"(d) : "memory");
    }
    for (; i + 8 <= len; i += 8)
        memcpy(d + i, &value, 8);
}

bool sb_kernel_half_done(const struct sb_kernel *k, const void *buffer, const void *page,
                         size_t len)
{
    const uint8_t *b = buffer;
    const uint64_t value = (uint64_t)(uintptr_t)page;
    uint64_t w;

    if (k->side == SB_KERNEL_READ) {
        w = fold_tail(page, len);
        return len >= 8 && memcmp(b, &w, 8) == 0;
    }
    for (size_t i = 0; i + 8 <= len; i += 8) {
        memcpy(&w, b + i, 8);
        if (w != value)
            return false;
    }
    return k->side == SB_KERNEL_WRITE;
}

const struct sb_kernel sb_kernels[] = {
    {.name = "memcpy", .description = "glibc memcpy (the library's own choice for this CPU)",
     .copy = copy_memcpy, .requires = "", .supported = always, .temporal = true,
     .side = SB_KERNEL_COPY},
#if SB_X86
    {.name = "movsb", .description = "rep movsb (fast with ERMS/FSRM)", .copy = copy_movsb,
     .requires = "", .supported = always, .temporal = true, .side = SB_KERNEL_COPY},
    {.name = "avx2", .description = "32-byte AVX2 loads and stores, 128 bytes a loop",
     .copy = copy_avx2, .requires = "avx2", .supported = cpu_has_avx2, .temporal = true,
     .side = SB_KERNEL_COPY},
    {.name = "avx512", .description = "64-byte AVX-512 loads and stores, 256 bytes a loop",
     .copy = copy_avx512, .requires = "avx512f", .supported = cpu_has_avx512, .temporal = true,
     .side = SB_KERNEL_COPY},
    {.name = "nt", .description = "non-temporal 16-byte streaming stores (movntdq), then sfence",
     .copy = copy_nt, .requires = "sse2", .supported = always, .temporal = false,
     .side = SB_KERNEL_COPY},
#endif
    {.name = NULL},
};

const struct sb_kernel sb_kernel_pread = {
    .name = "pread",
    .description = "the operating system's copy (copy_to_user) of pread() from the page cache: "
                   "source file only",
    .copy = NULL, .requires = "", .supported = always, .temporal = true, .side = SB_KERNEL_COPY};

const struct sb_kernel sb_kernel_pwrite = {
    .name = "pwrite",
    .description = "the operating system's copy (copy_from_user) of pwrite() into the page "
                   "cache: the write-back of source file only",
    .copy = NULL, .requires = "", .supported = always, .temporal = true, .side = SB_KERNEL_COPY};

const struct sb_kernel sb_kernel_solaris_nta = {
    .name = "solaris-nta",
    .description = "Solaris 10's xcopyin_nta for write(): prefetchnta 256 bytes ahead on the "
                   "source, movnti stores 16 bytes a step, mfence at the end (write-back only)",
#if SB_X86
    .copy = copy_solaris_nta, .requires = "sse2", .supported = always,
#else
    .copy = NULL, .requires = "sse2", .supported = never,
#endif
    .temporal = false, .prefetch_nta = true, .side = SB_KERNEL_COPY};

const struct sb_kernel sb_kernel_read = {
    .name = "read",
    .description = "the read side of a copy: every 8-byte word of the source page loaded "
                   "(16-byte vectors, 128 bytes a loop), their xor stored into the buffer's "
                   "first 8 bytes (op none)",
    .copy = read_only, .requires = "", .supported = always, .temporal = true,
    .side = SB_KERNEL_READ};

const struct sb_kernel sb_kernel_write = {
    .name = "write",
    .description = "the write side of a copy: the buffer stored whole (16-byte vectors, 128 "
                   "bytes a loop) with the source page's address, the source unread (op none)",
    .copy = write_only, .requires = "", .supported = always, .temporal = true,
    .side = SB_KERNEL_WRITE};

const struct sb_kernel *sb_kernel_find(const char *name)
{
    for (const struct sb_kernel *k = sb_kernels; k->name; k++)
        if (strcmp(k->name, name) == 0)
            return k;
    if (strcmp(name, sb_kernel_pread.name) == 0)
        return &sb_kernel_pread;
    if (strcmp(name, sb_kernel_read.name) == 0)
        return &sb_kernel_read;
    if (strcmp(name, sb_kernel_write.name) == 0)
        return &sb_kernel_write;
    return NULL;
}

const struct sb_kernel *sb_writeback_kernel_find(const char *name)
{
    if (strcmp(name, sb_kernel_pread.name) == 0)
        return NULL;
    if (strcmp(name, sb_kernel_pwrite.name) == 0)
        return &sb_kernel_pwrite;
    if (strcmp(name, sb_kernel_solaris_nta.name) == 0)
        return &sb_kernel_solaris_nta;
    const struct sb_kernel *k = sb_kernel_find(name);
    return k && k->side == SB_KERNEL_COPY ? k : NULL;
}

const char *sb_cpu_features(void)
{
#if SB_X86
    static char line[96];
    const char *yes = "yes", *no = "no";
    __builtin_cpu_init();
    snprintf(line, sizeof line, "x86-64 erms=%s avx2=%s avx512f=%s",
             cpu_has_erms() ? yes : no, cpu_has_avx2() ? yes : no, cpu_has_avx512() ? yes : no);
    return line;
#else
    return "not x86-64: only memcpy";
#endif
}
