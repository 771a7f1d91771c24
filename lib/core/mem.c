/* SPDX-License-Identifier: BSD-3-Clause */
/* mem.c: allocation of the IO cache and the pool (the limits checked before it are
 * mem_limit.c's; freed mappings kept for the next are mem_keep.c's). */
#include "config.h"
#include "core/mem.h"
#include "core/mem_keep.h"

#include <malloc.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

/* Linux 5.14's madvise that faults every page of a range in, writable, in one call. */
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

/* One store per page from user space, of the byte already there. Under a hypervisor that
 * shadows the guest's page tables, the kernel's populate fills the guest's entries but not the
 * shadow's, and the first user access to each page then exits to the hypervisor: about 6 us a
 * 4KB page on this project's VMs, where a 1GB pool's first scan ran at 700 MB/s and later ones
 * at 9000 (doc/reproduction.md). The stores take that cost here, outside any timed scan; on bare
 * metal they take about 0.3 ms a GB. */
struct touch_part {
    volatile unsigned char *bytes;
    size_t len, step;
};

static void *touch_part(void *arg)
{
    const struct touch_part *t = arg;

    for (size_t off = 0; off < t->len; off += t->step)
        t->bytes[off] = t->bytes[off];
    return NULL;
}

/* touch_part over [p, p + len), split between up to TOUCH_THREADS threads when it is long
 * (those exits run in parallel: 1GB took 1.25 s on one CPU of the VM, 0.7 s on two). */
#define TOUCH_THREADS 4
#define TOUCH_SPLIT (64ull << 20)

static void touch_pages(void *p, size_t len)
{
    long page = sysconf(_SC_PAGESIZE);
    size_t step = page > 0 ? (size_t)page : 4096, share;
    struct touch_part part[TOUCH_THREADS];
    pthread_t thread[TOUCH_THREADS];
    bool started[TOUCH_THREADS] = {false};
    cpu_set_t cpus;
    int n = 1;

    if (len >= TOUCH_SPLIT && sched_getaffinity(0, sizeof cpus, &cpus) == 0)
        n = CPU_COUNT(&cpus) < TOUCH_THREADS ? CPU_COUNT(&cpus) : TOUCH_THREADS;
    n = n < 1 ? 1 : n;
    share = (len / (size_t)n + step - 1) / step * step;
    for (int k = 0; k < n; k++) {
        size_t off = (size_t)k * share;
        part[k] = (struct touch_part){(volatile unsigned char *)p + off,
                                      off >= len ? 0 : (len - off < share ? len - off : share),
                                      step};
        if (k > 0)
            started[k] = pthread_create(&thread[k], NULL, touch_part, &part[k]) == 0;
    }
    for (int k = 0; k < n; k++)
        if (k == 0 || !started[k])
            touch_part(&part[k]);
    for (int k = 1; k < n; k++)
        if (started[k])
            pthread_join(thread[k], NULL);
}

/* Every page of [p, p + len) backed now (where the memory policy set on it says), not at its
 * first touch in a timed region: one madvise, 20 times as fast as a page fault per page on a
 * VM (1GB: 0.15 s against 2.8 s here), then one store per page (touch_pages); a memset where
 * the kernel lacks the madvise. */
void sb_mem_populate(void *p, size_t len)
{
    if (madvise(p, len, MADV_POPULATE_WRITE) != 0)
        memset(p, 0, len);
    else
        touch_pages(p, len);
}

void sb_mem_populate_only(void *p, size_t len)
{
    (void)madvise(p, len, MADV_POPULATE_WRITE); /* else the stores fault each page in */
}

void *sb_mem_alloc(size_t len)
{
    void *p = sb_mem_keep_take(len, 0);

    if (p)
        return p;
    p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    sb_mem_populate(p, len);
    return p;
}

void sb_mem_free(void *ptr, size_t len)
{
    if (ptr)
        sb_mem_keep_put(ptr, len, 0);
}

uint64_t sb_mem_peak_rss(void)
{
    struct rusage ru;

    if (getrusage(RUSAGE_SELF, &ru) != 0)
        return 0;
    return (uint64_t)ru.ru_maxrss * 1024;
}

uint64_t sb_mem_thread_bytes(void)
{
    pthread_attr_t attr;
    size_t stack = 8u << 20, guard = 4096;

    if (pthread_attr_init(&attr) == 0) {
        pthread_attr_getstacksize(&attr, &stack);
        pthread_attr_getguardsize(&attr, &guard);
        pthread_attr_destroy(&attr);
    }
    return (uint64_t)stack + guard;
}

void sb_mem_one_arena(void)
{
#ifdef M_ARENA_MAX
    mallopt(M_ARENA_MAX, 1);
#endif
}
