/* SPDX-License-Identifier: BSD-3-Clause */
/* copier.c: who copies a page into shared_buffers, in words (see copier.h). */
#include "config.h"
#include "pg/copier.h"

#include <stdio.h>
#include <string.h>

void sb_pg_copier_text(int server_num, const char *io_method, const char *pinned, char *buf,
                       size_t len)
{
    static const char unmodelled[] = "; scanbench's engine and cache model copy on the "
                                     "scanning core: a copy on another CPU is not modelled";
    const char *how;

    if (server_num < 180000 || !io_method || !io_method[0])
        how = "the backend that scans reads each page into shared_buffers itself";
    else if (strcmp(io_method, "sync") == 0)
        how = "the backend that scans (io_method = sync)";
    else if (strcmp(io_method, "worker") == 0)
        how = "an I/O worker process (io_method = worker): the page lands in the cache of the "
              "CPU the worker runs on, and the backend reads it from there";
    else
        how = "the kernel, for the backend (io_method = io_uring)";
    snprintf(buf, len, "%s%s%s%s", how, pinned && pinned[0] ? "; pinned: " : "",
             pinned ? pinned : "",
             server_num >= 180000 && io_method && strcmp(io_method, "worker") == 0
                 ? unmodelled : "");
}
