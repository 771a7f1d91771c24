/* SPDX-License-Identifier: BSD-3-Clause */
/* search.h: Mark Kirkwood's "searching for a new buffer", measured on this host: for
 * each run at the thread's slow and fast placements, the policy's buffer search alone (its
 * victim choice, and its release for pg82, over as many pages as a scan, with nothing copied)
 * timed, beside the run's own clock-sweep visits per page and its time per page: the search's
 * share of the host's time. */
#ifndef SB_REPRODUCE_SEARCH_H
#define SB_REPRODUCE_SEARCH_H

#include <jansson.h>

/* The report's "buffer_search" block, from its runs and thread block (NULL: no [thread] pair). */
json_t *sb_reproduce_buffer_search(const json_t *report);

#endif
