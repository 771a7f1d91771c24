/* SPDX-License-Identifier: BSD-3-Clause */
/* copier.h: who copies a page from the OS cache into shared_buffers. Up to 17 the backend
 * that scans reads it itself; from 18 through asynchronous I/O (src/include/storage/aio.h,
 * DEFAULT_IO_METHOD IOMETHOD_WORKER): with io_method = worker an I/O worker process makes the
 * copy, on whatever CPU it runs, and the backend then reads a page that sits in that CPU's
 * cache; sync, the backend; io_uring, the kernel for the backend. Key io_worker_cpu pins the
 * backend and the I/O workers to one CPU (same) or two (other). scanbench's own engine and
 * cache model copy on the scanning core: a copy on another CPU is not modelled, and the text
 * says so. */
#ifndef SB_PG_COPIER_H
#define SB_PG_COPIER_H

#include <stddef.h>

#include "core/core.h"

struct sb_pg_client; /* pg/client.h: libpq's, only where scanbench is built with it */

/* With libpq only (pin.c). where (index of sb_io_worker_cpu_names: 1 same, 2 other; 0 does
 * nothing): the connection's backend pinned to the first CPU scanbench may run on, the
 * server's I/O workers (from pg_stat_activity) to that CPU or to the next one; what was done
 * into note ("backend 41 on CPU 0, I/O workers 37 38 39 on CPU 1"). SB_ERR_RUN when a process
 * cannot be pinned, or `other` on a host where scanbench may run on one CPU only. */
int sb_pg_pin_io_workers(struct sb_pg_client *client, int where, char *note, size_t len,
                         struct sb_error *err);

/* Who copies, in words, for a server of this version with this io_method in force (NULL or
 * "" before 18) and the pinning note ("" when nothing was pinned). */
void sb_pg_copier_text(int server_num, const char *io_method, const char *pinned, char *buf,
                       size_t len);

#endif
