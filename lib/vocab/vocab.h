/* SPDX-License-Identifier: BSD-3-Clause */
/* vocab.h: the vocab subsystem's public header. The registries an experiment names, each a
 * const table, and what their rows point to: the heap page's layout, checksum and passes
 * (heap.h), the ops run over a page (op.h), the copy kernels (kernel.h), the replacement
 * policies (policy.h) and a placement named by one, "clock 16MB" (placement_name.h), the
 * sources pages come from (source.h) and the bigtable's DMA-like fill (dma_fill.h), and when
 * dirtied pages go back (writeback.h); the 8.1 executor's buffer structures at a pool's size
 * (executor.h). On core. */
#ifndef SB_VOCAB_H
#define SB_VOCAB_H

#include "vocab/dma_fill.h"
#include "vocab/executor.h"
#include "vocab/heap.h"
#include "vocab/kernel.h"
#include "vocab/op.h"
#include "vocab/placement_name.h"
#include "vocab/policy.h"
#include "vocab/source.h"
#include "vocab/writeback.h"

#endif
