/* em FILE OP(count|vacuum) PASSES: the pg81 executor as the engine runs it from a file: each
 * page pread() into the next buffer of a 16MB pool, the pass over it with 8.1's buffer
 * structures at the pool's size (callgrind: toggle on `measured`). With PASSES 0 it writes
 * FILE: 16384 pages of 55 rows (row_width 120), 10% dead, hint bits set. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "vocab/executor.h"
#include "vocab/heap.h"

#define PAGES 16384u
#define NBUF 2048u

__attribute__((noinline)) uint32_t measured(int vac, void *page)
{
    bool d;
    return vac ? sb_exec81_vacuum(page, 8192, &d) : sb_exec81_count(page, 8192, &d);
}

int main(int argc, char **argv)
{
    int vac = strcmp(argv[2], "vacuum") == 0, passes = atoi(argv[3]);
    struct sb_heap_layout l;
    unsigned char *pool = aligned_alloc(4096, (size_t)NBUF * 8192);
    unsigned long long rows = 0;
    int fd;

    if (!sb_heap_layout_init(&l, 8192, 120, 10))
        return 1;
    l.hint_bits_set = 1;
    if (passes == 0) {
        fd = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0644);
        for (uint64_t b = 0; b < PAGES; b++) {
            sb_heap_fill_page(&l, pool, b);
            if (vac == 0) { /* hinted as COUNT leaves it */ bool d; sb_heap_count(pool, 8192, &d); }
            if (write(fd, pool, 8192) != 8192) return 2;
        }
        return close(fd);
    }
    fd = open(argv[1], O_RDONLY);
    struct sb_exec_shared *r = sb_exec_shared_create(NBUF);
    sb_exec_shared_bind(r);
    for (int p = 0; p < passes; p++)
        for (uint64_t b = 0; b < PAGES; b++) {
            unsigned char *buf = pool + (b % NBUF) * 8192;
            if (pread(fd, buf, 8192, (off_t)(b * 8192)) != 8192) return 3;
            rows += measured(vac, buf);
        }
    printf("rows %llu\n", rows);
    sb_exec_shared_destroy(r);
    return 0;
}
