/* SPDX-License-Identifier: BSD-3-Clause */
/* frames.c: the physical frames of a mapping (frames.h), read from /proc/self/pagemap and
 * /proc/kpageflags in chunks and summarised by one streaming accumulator, which the pure
 * sb_frames_summarise_pfns shares.
 *
 * The formats (Linux, Documentation/admin-guide/mm/pagemap.rst, "Examining Process Page
 * Tables"): /proc/pid/pagemap holds one 64-bit entry per virtual page, at byte
 * (vaddr / page size) * 8: bit 63 page present, bit 62 page swapped, bits 0-54 the page frame
 * number when present. Since Linux 4.2 the frame number reads as 0 without CAP_SYS_ADMIN (4.0
 * and 4.1 refuse the open with EPERM). /proc/kpageflags holds one 64-bit entry per frame, at
 * byte pfn * 8 (root only): bit 15 COMPOUND_HEAD, 16 COMPOUND_TAIL, 17 HUGE (part of a hugetlb
 * page), 22 THP (part of a transparent huge page); include/uapi/linux/kernel-page-flags.h. */
#include "config.h"
#include "host/frames.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PM_PRESENT (1ull << 63)
#define PM_PFN_MASK ((1ull << 55) - 1)
#define KPF_HUGE_BIT (1ull << 17)
#define KPF_THP_BIT (1ull << 22)

/* Pagemap entries read at once (512KB of entries, 256MB of 4KB pages). */
#define CHUNK_PAGES 65536u
/* Up to this many pages (4MB of 4KB pages), every resolved page's kpageflags are counted;
 * beyond, only every k-th resolved page's (k = ceil(pages / FLAGS_ALL_PAGES), so at most this
 * many preads: a layout drawn between rounds is summarised in about a millisecond) and
 * huge_pages is that count scaled by resolved / counted, rounded. */
#define FLAGS_ALL_PAGES (1ull << 10)

/* --- the accumulator ---------------------------------------------------------------------- */

struct acc {
    uint32_t colours;
    bool flags_known;    /* flags were given (a NULL page flag is then "not sampled") */
    uint64_t pages, resolved;
    uint64_t prev;       /* the previous page's frame; 0: not resolved (or the first page) */
    uint64_t pairs, joined; /* pairs of consecutive resolved pages; of those, contiguous */
    uint64_t pfn_min, pfn_max;
    uint64_t flagged, huge; /* resolved pages whose flags were seen; of those, huge */
    uint64_t count[SB_FRAMES_MAX_COLOURS];
};

/* colours: 0 or 1 count none; more than SB_FRAMES_MAX_COLOURS count SB_FRAMES_MAX_COLOURS. */
static void acc_init(struct acc *a, uint32_t colours, bool flags_known)
{
    memset(a, 0, sizeof *a);
    a->colours = colours <= 1 ? 0 : colours > SB_FRAMES_MAX_COLOURS ? SB_FRAMES_MAX_COLOURS
                                                                       : colours;
    a->flags_known = flags_known;
}

/* One more page: frame pfn (0: not resolved), its kpageflags at flags (NULL: not read). */
static void acc_page(struct acc *a, uint64_t pfn, const uint64_t *flags)
{
    a->pages++;
    if (pfn) {
        if (a->prev) {
            a->pairs++;
            a->joined += pfn == a->prev + 1;
        }
        if (!a->resolved || pfn < a->pfn_min)
            a->pfn_min = pfn;
        if (pfn > a->pfn_max)
            a->pfn_max = pfn;
        a->resolved++;
        if (a->colours)
            a->count[pfn % a->colours]++;
        if (flags) {
            a->flagged++;
            a->huge += (*flags & (KPF_HUGE_BIT | KPF_THP_BIT)) != 0;
        }
    }
    a->prev = pfn;
}

static void acc_colours(const struct acc *a, struct sb_frames *out)
{
    uint64_t lo = UINT64_MAX, hi = 0;
    double mean, var = 0;

    out->colours = a->colours;
    if (!a->colours)
        return;
    mean = (double)a->resolved / a->colours;
    for (uint32_t c = 0; c < a->colours; c++) {
        double d = (double)a->count[c] - mean;
        lo = a->count[c] < lo ? a->count[c] : lo;
        hi = a->count[c] > hi ? a->count[c] : hi;
        var += d * d;
    }
    out->colour_min = lo > UINT32_MAX ? UINT32_MAX : (uint32_t)lo;
    out->colour_max = hi > UINT32_MAX ? UINT32_MAX : (uint32_t)hi;
    out->colour_cv = mean > 0 ? sqrt(var / a->colours) / mean : 0;
}

/* The summary, available, why empty. */
static void acc_finish(const struct acc *a, struct sb_frames *out)
{
    memset(out, 0, sizeof *out);
    out->available = true;
    out->pages = a->pages;
    out->resolved = a->resolved;
    out->contiguous = a->pairs ? (double)a->joined / a->pairs : 0;
    acc_colours(a, out);
    if (!a->flags_known)
        out->huge_pages = UINT64_MAX;
    else if (a->flagged == a->resolved)
        out->huge_pages = a->huge;
    else /* sampled: scaled to the resolved pages, rounded */
        out->huge_pages = (uint64_t)((double)a->huge * a->resolved / a->flagged + 0.5);
    out->pfn_min = a->pfn_min;
    out->pfn_max = a->pfn_max;
}

void sb_frames_summarise_pfns(const uint64_t *pfn, const uint64_t *flags, size_t n,
                              uint32_t colours, struct sb_frames *out)
{
    struct acc a;

    acc_init(&a, colours, flags != NULL);
    for (size_t k = 0; k < n; k++)
        acc_page(&a, pfn[k], flags ? &flags[k] : NULL);
    acc_finish(&a, out);
}

/* --- reading the files -------------------------------------------------------------------- */

/* Reads bytes at off in full: 0, or -1 with errno set (EIO for a short read: end of file). */
static int read_full(int fd, void *buf, size_t bytes, off_t off)
{
    char *p = buf;

    while (bytes) {
        ssize_t got = pread(fd, p, bytes, off);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0) {
            if (got == 0)
                errno = EIO;
            return -1;
        }
        p += got;
        bytes -= (size_t)got;
        off += got;
    }
    return 0;
}

/* The chunk's buffers: n pagemap entries turned into frames, their kpageflags, and which pages
 * had their flags read. */
struct chunk {
    uint64_t *pfn, *flags;
    unsigned char *read;
};

/* Turns pagemap entries into frames (0: not present, swapped, or frame not shown; a present
 * frame 0, which x86 kernels keep for themselves, reads as unresolved too); counts the present
 * pages in *present. */
static void entries_to_pfns(uint64_t *e, size_t n, uint64_t *present)
{
    for (size_t i = 0; i < n; i++) {
        *present += (e[i] & PM_PRESENT) != 0;
        e[i] = (e[i] & PM_PRESENT) ? e[i] & PM_PFN_MASK : 0;
    }
}

/* Reads the flags of the chunk's resolved pages, every stride-th by *ordinal (the resolved
 * pages' running count), marking them in c->read. A sampled page's run of contiguous frames is
 * read in one pread (THP makes runs of 512), though only its sampled pages are marked, so the
 * sample does not favour long runs. Returns 0, or -1 when kpageflags could not be read. */
static int read_flags(int fd, struct chunk *c, size_t n, uint64_t stride, uint64_t *ordinal)
{
    memset(c->read, 0, n);
    for (size_t i = 0; i < n; i++) {
        size_t run = 1;
        if (!c->pfn[i] || (*ordinal)++ % stride)
            continue;
        c->read[i] = 1;
        for (; i + run < n && c->pfn[i + run] == c->pfn[i] + run; run++)
            c->read[i + run] = (*ordinal)++ % stride == 0;
        if (read_full(fd, &c->flags[i], run * 8, (off_t)(c->pfn[i] * 8)) < 0)
            return -1;
        i += run - 1;
    }
    return 0;
}

/* Feeds the chunk's n pages to the accumulator. */
static void acc_chunk(struct acc *a, const struct chunk *c, size_t n)
{
    for (size_t i = 0; i < n; i++)
        acc_page(a, c->pfn[i], a->flags_known && c->read[i] ? &c->flags[i] : NULL);
}

/* Streams [first, first + pages) through the accumulator; 0, or -1 with why set. */
static int stream(int map, int *kpf, uint64_t first, uint64_t pages, struct acc *a,
                  uint64_t *present, char *why, size_t len)
{
    struct chunk c;
    size_t cap = pages < CHUNK_PAGES ? (size_t)pages : CHUNK_PAGES;
    uint64_t stride = (pages + FLAGS_ALL_PAGES - 1) / FLAGS_ALL_PAGES, ordinal = 0;
    int rc = -1;

    c.pfn = malloc(cap * sizeof *c.pfn);
    c.flags = malloc(cap * sizeof *c.flags);
    c.read = malloc(cap);
    if (!c.pfn || !c.flags || !c.read) {
        snprintf(why, len, "out of memory for %zu pagemap entries", cap);
        goto done;
    }
    for (uint64_t at = 0; at < pages; at += cap) {
        size_t n = pages - at < cap ? (size_t)(pages - at) : cap;
        if (read_full(map, c.pfn, n * 8, (off_t)((first + at) * 8)) < 0) {
            snprintf(why, len, "cannot read /proc/self/pagemap: %s", strerror(errno));
            goto done;
        }
        entries_to_pfns(c.pfn, n, present);
        if (*kpf >= 0 && read_flags(*kpf, &c, n, stride, &ordinal) < 0) {
            close(*kpf); /* huge pages unknown: the rest goes on without */
            *kpf = -1;
            a->flags_known = false;
        }
        acc_chunk(a, &c, n);
    }
    rc = 0;
done:
    free(c.pfn);
    free(c.flags);
    free(c.read);
    return rc;
}

void sb_frames_summarise(const void *addr, size_t len, uint64_t colour_bytes,
                         struct sb_frames *out)
{
    long ps = sysconf(_SC_PAGESIZE);
    uint64_t page = ps > 0 ? (uint64_t)ps : 4096, present = 0;
    uint64_t first = (uintptr_t)addr / page;
    uint64_t pages = ((uintptr_t)addr + len + page - 1) / page - first;
    uint64_t colours = colour_bytes / page;
    struct acc *a = malloc(sizeof *a);
    char why[sizeof out->why] = "";
    int map = -1, kpf = -1;

    if (!pages) {
        snprintf(why, sizeof why, "the range is empty");
        goto done;
    }
    if (!a) {
        snprintf(why, sizeof why, "out of memory");
        goto done;
    }
    if ((map = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC)) < 0) {
        snprintf(why, sizeof why, "cannot open /proc/self/pagemap: %s", strerror(errno));
        goto done;
    }
    kpf = open("/proc/kpageflags", O_RDONLY | O_CLOEXEC);
    acc_init(a, colours > UINT32_MAX ? UINT32_MAX : (uint32_t)colours, kpf >= 0);
    if (stream(map, &kpf, first, pages, a, &present, why, sizeof why) < 0)
        goto done;
    if (!present)
        snprintf(why, sizeof why, "none of the %llu pages is resident", (unsigned long long)pages);
    else if (!a->resolved)
        snprintf(why, sizeof why,
                 "/proc/self/pagemap shows no frame numbers (they need CAP_SYS_ADMIN)");
    else
        acc_finish(a, out);
done:
    if (why[0]) {
        memset(out, 0, sizeof *out);
        out->pages = pages;
        out->huge_pages = UINT64_MAX;
        snprintf(out->why, sizeof out->why, "%s", why);
    }
    if (kpf >= 0)
        close(kpf);
    if (map >= 0)
        close(map);
    free(a);
}
