/* SPDX-License-Identifier: BSD-3-Clause */
/* aggressor.c: the contention thread (aggressor.h): its size and CPU, its loops, and the
 * handshake that pauses and resumes it. */
#include "config.h"
#include "host/aggressor.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "host/cpu_place.h"

const char *const sb_contention_names[] = {"none", "stream", "l3", NULL};

/* The work between two looks at what the caller wants: 256KB of each buffer. */
#define CHUNK_BYTES (256u << 10)
#define PAGE_BYTES 4096ull

static _Atomic uint64_t mapped_bytes;

uint64_t sb_aggressor_mapped_bytes(void)
{
    return atomic_load(&mapped_bytes);
}

bool sb_aggressor_size(enum sb_contention_kind kind, uint64_t llc_bytes, bool l3,
                       struct sb_aggressor_plan *plan, char *why, size_t len)
{
    char size[32], least[32];
    uint64_t want = 4 * llc_bytes;

    memset(plan, 0, sizeof *plan);
    plan->kind = kind;
    plan->cpu = -1;
    sb_format_size(llc_bytes, size, sizeof size);
    sb_format_size(SB_AGGRESSOR_STREAM_MIN, least, sizeof least);
    if (kind == SB_CONTENTION_STREAM) {
        plan->buffers = 2;
        plan->working_set_bytes = want > SB_AGGRESSOR_STREAM_MIN ? want : SB_AGGRESSOR_STREAM_MIN;
        if (want > SB_AGGRESSOR_STREAM_MIN)
            snprintf(plan->sized, sizeof plan->sized, "4 x the %s of %s", l3 ? "L3" : "L2", size);
        else if (llc_bytes)
            snprintf(plan->sized, sizeof plan->sized, "the least, %s (4 x the %s of %s is less)",
                     least, l3 ? "L3" : "L2", size);
        else
            snprintf(plan->sized, sizeof plan->sized, "the least, %s (no cache size known)",
                     least);
    } else if (kind == SB_CONTENTION_L3) {
        if (!l3 || !llc_bytes) {
            snprintf(why, len, "the L3's size, which this host does not say (l3_size sets it)");
            return false;
        }
        plan->buffers = 1;
        plan->capped = llc_bytes > SB_AGGRESSOR_L3_MAX;
        plan->working_set_bytes = plan->capped ? SB_AGGRESSOR_L3_MAX : llc_bytes;
        if (plan->capped)
            snprintf(plan->sized, sizeof plan->sized, "the L3 (%s), bounded at %s", size,
                     sb_format_size(SB_AGGRESSOR_L3_MAX, least, sizeof least));
        else
            snprintf(plan->sized, sizeof plan->sized, "the L3 (%s)", size);
    }
    /* whole pages: the loops move 8-byte words */
    plan->working_set_bytes &= ~(PAGE_BYTES - 1);
    if (kind != SB_CONTENTION_NONE && plan->working_set_bytes < PAGE_BYTES)
        plan->working_set_bytes = PAGE_BYTES;
    return true;
}

/* Marks in taken the PUs the first n pinned scanners take (cpu_place.h). */
static void scanners_taken(uint32_t n, cpu_set_t *taken)
{
    struct sb_cpu_place *place = n > 1 ? calloc(n, sizeof *place) : NULL;

    CPU_ZERO(taken);
    if (!place)
        return; /* one scanner: the calling thread, unpinned (it keeps off the aggressor) */
    sb_cpu_places(n, place);
    for (uint32_t i = 0; i < n; i++)
        if (place[i].pinnable && place[i].pu >= 0 && place[i].pu < CPU_SETSIZE)
            CPU_SET(place[i].pu, taken);
    free(place);
}

bool sb_aggressor_cpu(uint32_t scanners, int *cpu, char *why, size_t len)
{
    cpu_set_t allowed, taken;
    char list[128];
    int n = sb_cpus_allowed(&allowed, list, sizeof list);

    *cpu = -1;
    if (n == 0) {
        snprintf(why, len, "the CPUs this process may use, which the kernel does not say (%s)",
                 list);
        return false;
    }
    if (n < 2) {
        snprintf(why, len, "a second CPU for the aggressor, and this process may use only "
                 "CPU %s", list);
        return false;
    }
    scanners_taken(scanners, &taken);
    for (int c = CPU_SETSIZE - 1; c >= 0 && *cpu < 0; c--)
        if (CPU_ISSET(c, &allowed) && !CPU_ISSET(c, &taken))
            *cpu = c;
    if (*cpu < 0)
        snprintf(why, len, "a CPU for the aggressor that no scanner is pinned to, and the %u "
                 "scanners take all %d CPUs this process may use (%s)", scanners, n, list);
    return *cpu >= 0;
}

/* --- the thread ------------------------------------------------------------------------------ */

enum want { WANT_PAUSE, WANT_RUN, WANT_QUIT };
enum state { STATE_STARTING, STATE_FAILED, STATE_PAUSED, STATE_RUNNING };

struct sb_aggressor {
    struct sb_aggressor_plan plan;
    pthread_t thread;
    bool started, caller_moved;
    cpu_set_t caller_cpus;       /* the starting thread's CPUs, given back by stop */
    pthread_mutex_t mutex;
    pthread_cond_t cond;
    _Atomic int want;            /* enum want: set under mutex, read by the loops without */
    enum state state;            /* under mutex */
    unsigned char *buf[2];
    size_t offset;               /* where the next chunk starts (the thread's own) */
    uint64_t bytes;              /* under mutex */
    double seconds;
    char why[256];               /* STATE_FAILED: why */
};

/* One chunk at offset: stream copies buffer 1 into buffer 0, l3 changes buffer 0 in place.
 * The bytes read and written. */
static uint64_t chunk(struct sb_aggressor *ag, size_t offset, size_t len)
{
    uint64_t *dst = (uint64_t *)(ag->buf[0] + offset);
    size_t words = len / sizeof *dst;

    if (ag->plan.kind == SB_CONTENTION_STREAM) {
        const uint64_t *src = (const uint64_t *)(ag->buf[1] + offset);
        for (size_t i = 0; i < words; i++)
            dst[i] = src[i];
    } else {
        for (size_t i = 0; i < words; i++)
            dst[i] = dst[i] * 5 + 1;
    }
    return 2 * (uint64_t)words * sizeof *dst;
}

/* Chunks, round and round the buffers, until the caller wants something else (one at least,
 * however soon). */
static void work(struct sb_aggressor *ag)
{
    const size_t ws = (size_t)ag->plan.working_set_bytes;
    double t0 = sb_timer_now();
    uint64_t bytes = 0;

    do {
        size_t len = ws - ag->offset < CHUNK_BYTES ? ws - ag->offset : CHUNK_BYTES;
        bytes += chunk(ag, ag->offset, len);
        ag->offset = ag->offset + len == ws ? 0 : ag->offset + len;
    } while (atomic_load_explicit(&ag->want, memory_order_relaxed) == WANT_RUN);
    pthread_mutex_lock(&ag->mutex);
    ag->bytes += bytes;
    ag->seconds += sb_timer_now() - t0;
    pthread_mutex_unlock(&ag->mutex);
}

/* The buffers, mapped and backed by this thread (on its CPU's node, where the kernel puts a
 * first touch); 0, or -1 with errno. */
static int map_buffers(struct sb_aggressor *ag)
{
    const size_t ws = (size_t)ag->plan.working_set_bytes;

    for (unsigned b = 0; b < ag->plan.buffers; b++) {
        void *p = mmap(NULL, ws, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED)
            return -1;
        ag->buf[b] = p;
        atomic_fetch_add(&mapped_bytes, ws);
        sb_mem_populate(p, ws);
    }
    return 0;
}

static void *aggressor_main(void *arg)
{
    struct sb_aggressor *ag = arg;
    cpu_set_t one;
    int rc;

    CPU_ZERO(&one);
    CPU_SET(ag->plan.cpu, &one);
    rc = pthread_setaffinity_np(pthread_self(), sizeof one, &one);
    if (rc != 0)
        snprintf(ag->why, sizeof ag->why, "cannot pin the aggressor to CPU %d: %s",
                 ag->plan.cpu, strerror(rc));
    else if (map_buffers(ag) != 0)
        snprintf(ag->why, sizeof ag->why, "cannot map the aggressor's %u buffers of %llu "
                 "bytes: %s", ag->plan.buffers, (unsigned long long)ag->plan.working_set_bytes,
                 strerror(errno));
    pthread_mutex_lock(&ag->mutex);
    ag->state = ag->why[0] ? STATE_FAILED : STATE_PAUSED;
    pthread_cond_broadcast(&ag->cond);
    while (ag->state != STATE_FAILED && atomic_load(&ag->want) != WANT_QUIT) {
        if (atomic_load(&ag->want) == WANT_PAUSE) {
            ag->state = STATE_PAUSED;
            pthread_cond_broadcast(&ag->cond);
            pthread_cond_wait(&ag->cond, &ag->mutex);
            continue;
        }
        ag->state = STATE_RUNNING;
        pthread_cond_broadcast(&ag->cond);
        pthread_mutex_unlock(&ag->mutex);
        work(ag);
        pthread_mutex_lock(&ag->mutex);
    }
    pthread_mutex_unlock(&ag->mutex);
    return NULL;
}

/* --- the caller's side ------------------------------------------------------------------------ */

/* Tells the thread what to want and waits until it is in state (QUIT: waits for nothing). */
static void tell(struct sb_aggressor *ag, enum want want, enum state state)
{
    pthread_mutex_lock(&ag->mutex);
    atomic_store(&ag->want, want);
    pthread_cond_broadcast(&ag->cond);
    while (want != WANT_QUIT && ag->state != state && ag->state != STATE_FAILED)
        pthread_cond_wait(&ag->cond, &ag->mutex);
    pthread_mutex_unlock(&ag->mutex);
}

/* The one cleanup path: the thread ended, the buffers unmapped, the caller's CPUs given back. */
static void aggressor_free(struct sb_aggressor *ag)
{
    if (ag->started) {
        tell(ag, WANT_QUIT, STATE_PAUSED);
        pthread_join(ag->thread, NULL);
    }
    for (unsigned b = 0; b < 2; b++)
        if (ag->buf[b]) {
            munmap(ag->buf[b], (size_t)ag->plan.working_set_bytes);
            atomic_fetch_sub(&mapped_bytes, ag->plan.working_set_bytes);
        }
    if (ag->caller_moved)
        pthread_setaffinity_np(pthread_self(), sizeof ag->caller_cpus, &ag->caller_cpus);
    pthread_cond_destroy(&ag->cond);
    pthread_mutex_destroy(&ag->mutex);
    free(ag);
}

/* Starts the thread with every signal blocked in it: they go to the caller's threads, which
 * the stop handler and the test pauses expect. */
static int start_thread(struct sb_aggressor *ag)
{
    sigset_t all, old;
    int rc;

    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    rc = pthread_create(&ag->thread, NULL, aggressor_main, ag);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    ag->started = rc == 0;
    return rc;
}

int sb_aggressor_start(struct sb_aggressor **out, const struct sb_aggressor_plan *plan,
                       struct sb_error *err)
{
    struct sb_aggressor *ag = calloc(1, sizeof *ag);
    cpu_set_t others;
    int rc, status = SB_OK;

    *out = NULL;
    if (!ag)
        return sb_fail(err, SB_ERR_RUN, "out of memory for the aggressor");
    ag->plan = *plan;
    atomic_init(&ag->want, WANT_PAUSE);
    pthread_mutex_init(&ag->mutex, NULL);
    pthread_cond_init(&ag->cond, NULL);
    if ((rc = start_thread(ag)) != 0)
        status = sb_fail(err, SB_ERR_RUN, "cannot start the aggressor: %s", strerror(rc));
    if (status == SB_OK) {
        pthread_mutex_lock(&ag->mutex);
        while (ag->state == STATE_STARTING)
            pthread_cond_wait(&ag->cond, &ag->mutex);
        pthread_mutex_unlock(&ag->mutex);
        if (ag->state == STATE_FAILED)
            status = sb_fail(err, SB_ERR_RUN, "%s", ag->why);
    }
    if (status == SB_OK &&
        pthread_getaffinity_np(pthread_self(), sizeof ag->caller_cpus, &ag->caller_cpus) == 0) {
        others = ag->caller_cpus;
        CPU_CLR(plan->cpu, &others);
        ag->caller_moved = CPU_COUNT(&others) > 0 &&
                           pthread_setaffinity_np(pthread_self(), sizeof others, &others) == 0;
    }
    if (status != SB_OK)
        aggressor_free(ag);
    else
        *out = ag;
    return status;
}

void sb_aggressor_resume(struct sb_aggressor *ag)
{
    if (ag)
        tell(ag, WANT_RUN, STATE_RUNNING);
}

void sb_aggressor_pause(struct sb_aggressor *ag)
{
    if (ag)
        tell(ag, WANT_PAUSE, STATE_PAUSED);
}

void sb_aggressor_result(struct sb_aggressor *ag, struct sb_aggressor_result *res)
{
    memset(res, 0, sizeof *res);
    if (!ag)
        return;
    pthread_mutex_lock(&ag->mutex);
    res->bytes = ag->bytes;
    res->seconds = ag->seconds;
    pthread_mutex_unlock(&ag->mutex);
    res->gbps = res->seconds > 0 ? (double)res->bytes / res->seconds / 1e9 : 0.0;
}

void sb_aggressor_stop(struct sb_aggressor *ag)
{
    if (ag)
        aggressor_free(ag);
}
