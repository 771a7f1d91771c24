/* SPDX-License-Identifier: BSD-3-Clause */
/* source_file.c: source `file` (source_ops.h): the table as a nameless scratch file: making it,
 * warming and dropping it in the page cache, its residency (mincore) and the device rate. */
#include "config.h"
#include "engine/source_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "core/core.h"
#include "engine/iocache.h"
#include "engine/scan.h"
#include "engine/source_ops.h"
#include "host/host.h"
#include "plan/plan.h"

#define CHUNK_BYTES (1u << 20) /* generated and written, and read back, a megabyte at a time */

static int write_all(int fd, const uint8_t *buf, size_t len, uint64_t offset)
{
    while (len > 0) {
        ssize_t n = pwrite(fd, buf, len, (off_t)offset);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return n < 0 ? errno : EIO;
        buf += n;
        len -= (size_t)n;
        offset += (uint64_t)n;
    }
    return 0;
}

/* Generates the pages chunk by chunk, noting their checksums and live rows, and writes them. */
static int write_table(struct sb_iocache *ioc, struct sb_error *err)
{
    struct sb_file_table *f = ioc->file;
    uint32_t per_chunk = CHUNK_BYTES / ioc->page_size;
    uint8_t *chunk = aligned_alloc(4096, CHUNK_BYTES);
    int status = SB_OK, e;

    if (!chunk)
        return sb_fail(err, SB_ERR_RUN, "out of memory for the file's write buffer");
    for (uint64_t first = 0; first < ioc->npages; first += per_chunk) {
        uint64_t n = ioc->npages - first < per_chunk ? ioc->npages - first : per_chunk;
        for (uint64_t i = 0; i < n; i++) {
            uint8_t *page = chunk + i * ioc->page_size;
            sb_iocache_note_page(ioc, first + i, page,
                                 sb_heap_fill_page(&ioc->layout, page, first + i));
        }
        e = write_all(f->fd, chunk, n * ioc->page_size, first * ioc->page_size);
        if (e) {
            status = sb_fail(err, SB_ERR_RUN, "writing the table into %s: %s", f->dir,
                             strerror(e));
            goto out;
        }
    }
    if (fdatasync(f->fd) != 0)
        status = sb_fail(err, SB_ERR_RUN, "syncing the table in %s: %s", f->dir, strerror(errno));
out:
    free(chunk);
    return status;
}

int sb_file_table_create(struct sb_iocache *ioc, const struct sb_run_params *p, int home_node,
                         struct sb_error *err)
{
    struct sb_file_table *f;
    char why[600];
    double t0;
    int status = SB_OK;
    long sys_page = sysconf(_SC_PAGESIZE);

    memset(ioc, 0, sizeof *ioc);
    ioc->ops = &sb_source_file_ops;
    ioc->page_size = p->page_size;
    ioc->layout = p->layout;
    ioc->npages = p->table_size / p->page_size;
    ioc->source = p->source;
    ioc->node = p->iocache_node;
    ioc->file = f = calloc(1, sizeof *f);
    ioc->sum_copy = calloc(ioc->npages, sizeof *ioc->sum_copy);
    if (!f || !ioc->sum_copy) {
        free(f);
        ioc->file = NULL;
        sb_iocache_destroy(ioc);
        return sb_fail(err, SB_ERR_RUN, "out of memory for the table's checksums");
    }
    f->fd = -1;
    f->bytes = p->table_size;
    f->sys_pages = (size_t)((f->bytes + (uint64_t)sys_page - 1) / (uint64_t)sys_page);
    snprintf(f->dir, sizeof f->dir, "%s", p->data_dir);
    f->resident = malloc(f->sys_pages);
    f->fd = sb_file_scratch_open(f->dir, &f->scratch, why, sizeof why);
    if (!f->resident || f->fd < 0) {
        status = sb_fail(err, SB_ERR_RUN, "%s", f->resident ? why : "out of memory for mincore");
        goto out;
    }
    /* the page cache the writes and the warm-up allocate follows this thread's policy */
    sb_placement_thread_begin(&p->iocache_node, home_node, &ioc->placement);
    t0 = sb_timer_now();
    status = write_table(ioc, err);
    f->write_seconds = sb_timer_now() - t0;
    if (status == SB_OK) {
        ioc->pages = mmap(NULL, f->bytes, PROT_READ, MAP_SHARED, f->fd, 0);
        if (ioc->pages == MAP_FAILED) {
            ioc->pages = NULL;
            status = sb_fail(err, SB_ERR_RUN, "mapping the table file: %s", strerror(errno));
        }
    }
    if (status == SB_OK)
        status = sb_file_warm(ioc, err);
    sb_placement_thread_end();
    if (status == SB_OK)
        sb_placement_verify(ioc->pages, f->bytes, true, &ioc->placement);
out:
    if (status != SB_OK)
        sb_iocache_destroy(ioc);
    return status;
}

void sb_file_table_destroy(struct sb_iocache *ioc)
{
    struct sb_file_table *f = ioc->file;

    if (ioc->pages)
        munmap(ioc->pages, f->bytes);
    ioc->pages = NULL;
    if (f->fd >= 0)
        close(f->fd);
    free(f->resident);
    free(f);
    ioc->file = NULL;
}

bool sb_file_table_in(const struct sb_iocache *ioc, const char *dir)
{
    return ioc->file && strcmp(ioc->file->dir, dir) == 0;
}

int sb_file_warm(const struct sb_iocache *ioc, struct sb_error *err)
{
    const struct sb_file_table *f = ioc->file;
    uint8_t *buf = malloc(CHUNK_BYTES);
    int status = SB_OK;

    if (!buf)
        return sb_fail(err, SB_ERR_RUN, "out of memory for the warm-up read");
    for (uint64_t off = 0; off < f->bytes;) {
        size_t want = f->bytes - off < CHUNK_BYTES ? (size_t)(f->bytes - off) : CHUNK_BYTES;
        ssize_t n = pread(f->fd, buf, want, (off_t)off);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            status = sb_fail(err, SB_ERR_RUN, "reading the table file back: %s",
                             n < 0 ? strerror(errno) : "unexpected end of file");
            break;
        }
        off += (uint64_t)n;
    }
    free(buf);
    return status;
}

double sb_file_resident(const struct sb_iocache *ioc)
{
    const struct sb_file_table *f = ioc->file;
    size_t resident = 0;

    if (!f || !ioc->pages || mincore(ioc->pages, f->bytes, f->resident) != 0)
        return -1;
    for (size_t i = 0; i < f->sys_pages; i++)
        resident += f->resident[i] & 1;
    return (double)resident / (double)f->sys_pages;
}

/* A table written back into (issue 18) has dirty pages in the page cache, which DONTNEED
 * skips: they are written to the device first (sync_file_range, else fdatasync), as the
 * kernel's flusher would have before it could drop them. */
static void sync_written(const struct sb_iocache *ioc, uint64_t first, uint64_t end)
{
    if (!ioc->state)
        return;
#ifdef SYNC_FILE_RANGE_WRITE
    sync_file_range(ioc->file->fd, (off_t)(first * ioc->page_size),
                    (off_t)((end - first) * ioc->page_size),
                    SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE |
                        SYNC_FILE_RANGE_WAIT_AFTER);
#else
    (void)first;
    (void)end;
    fdatasync(ioc->file->fd);
#endif
}

void sb_file_drop(const struct sb_iocache *ioc, uint64_t first, uint64_t end)
{
    sync_written(ioc, first, end);
    posix_fadvise(ioc->file->fd, (off_t)(first * ioc->page_size),
                  (off_t)((end - first) * ioc->page_size), POSIX_FADV_DONTNEED);
}

void sb_file_drop_all(const struct sb_iocache *ioc)
{
    /* the kernel keeps a page it cannot unmap: take the mapping's own first (the untimed checks
     * and the cache model read through it); the page cache keeps the data */
    madvise(ioc->pages, ioc->file->bytes, MADV_DONTNEED);
    sb_file_drop(ioc, 0, ioc->npages);
}

double sb_file_drop_all_settled(const struct sb_iocache *ioc)
{
    const struct timespec ms = {0, 1000000};
    double resident = -1;

    for (int i = 0; i < SB_FILE_DROP_TRIES; i++) {
        if (i > 0)
            nanosleep(&ms, NULL);
        sb_file_drop_all(ioc);
        resident = sb_file_resident(ioc);
        if (resident <= 0)
            break;
    }
    return resident;
}

double sb_file_device_mbps(const struct sb_iocache *ioc, uint8_t *buffer)
{
    double t0, seconds;

    sb_file_drop_all_settled(ioc);
    t0 = sb_timer_now();
    for (uint64_t b = 0; b < ioc->npages; b++)
        if (pread(ioc->file->fd, buffer, ioc->page_size, (off_t)(b * ioc->page_size)) !=
            (ssize_t)ioc->page_size)
            return 0;
    seconds = sb_timer_now() - t0;
    sb_file_drop(ioc, 0, ioc->npages);
    return seconds > 0 ? (double)(ioc->npages * ioc->page_size) / seconds / SB_MB_DECIMAL : 0;
}

/* --- the source's implementation (source_ops.h) --------------------------------------------- */

static bool file_serves(const struct sb_iocache *ioc, const struct sb_run_params *p)
{
    return sb_file_table_in(ioc, p->data_dir);
}

static void file_destroy(struct sb_iocache *ioc)
{
    if (ioc->file)
        sb_file_table_destroy(ioc);
}

/* A warm file is read once more; a bigtable's device rate is measured, and what stays resident
 * after the drop noted. */
static int file_prepare(const struct sb_run_params *p, const struct sb_iocache *ioc,
                        uint8_t *buffer, struct sb_io_result *io, struct sb_error *err)
{
    io->scratch = ioc->file->scratch;
    io->write_seconds = ioc->file->write_seconds;
    if (!p->bigtable)
        return sb_file_warm(ioc, err);
    io->device_mbps = sb_file_device_mbps(ioc, buffer);
    if (io->device_mbps <= 0)
        return sb_fail(err, SB_ERR_RUN, "%s: reading the table file in %s failed", p->name,
                       ioc->file->dir);
    io->resident_after_drop = sb_file_drop_all_settled(ioc);
    return SB_OK;
}

static int file_settle(const struct sb_run_params *p, const struct sb_iocache *ioc,
                       struct sb_error *err)
{
    return p->bigtable ? SB_OK : sb_file_warm(ioc, err);
}

static void file_before_scan(const struct sb_run_params *p, const struct sb_iocache *ioc,
                             bool timed, struct sb_io_result *io)
{
    double resident;

    if (p->bigtable) {
        resident = sb_file_drop_all_settled(ioc);
        if (resident > io->resident_max_start)
            io->resident_max_start = resident;
    } else if (timed) {
        resident = sb_file_resident(ioc);
        if (io->resident_min < 0 || resident < io->resident_min)
            io->resident_min = resident;
    }
}

const struct sb_source_ops sb_source_file_ops = {
    .name = "file",
    .build = sb_file_table_create,
    .serves = file_serves,
    .destroy = file_destroy,
    .fetch = SB_FETCH_PREAD,
    .fetch_bigtable = SB_FETCH_PREAD_DROP,
    .kernel_reads = true,
    .prepare = file_prepare,
    .settle = file_settle,
    .before_scan = file_before_scan,
};
