/* SPDX-License-Identifier: BSD-3-Clause */
/* events_pfm.h: checking native event names against libpfm4's own event tables (the tables
 * PAPI's perf_event components use), without touching the PMU: works on any host, for any
 * PMU this libpfm4 describes. Only built with libpfm4 (HAVE_LIBPFM). */
#ifndef SB_EVENTS_PFM_H
#define SB_EVENTS_PFM_H

#include <stdbool.h>
#include <stddef.h>

/* "libpfm4 4.13" (the library's own version), or why it cannot be used. */
const char *sb_pfm_version(void);

/* Whether this libpfm4 describes a PMU of that name; *uncore is set for uncore PMUs. */
bool sb_pfm_pmu_known(const char *pmu, bool *uncore);

/* Checks "[pmu::]EVENT[:ATTR[=value]]...": a qualified name against its PMU; an unqualified
 * one against the PMUs in pmus that this libpfm4 knows: it must be in every core PMU of the
 * list, or in every uncore PMU of the list. Every ATTR must be one of the event's unit masks
 * or modifiers. Returns true when it passes, or when none of pmus is known (nothing to check
 * against: *checked is then false); else false with the reason in why. */
bool sb_pfm_check_event(const char *name, const char (*pmus)[48], int npmus, bool *checked,
                        char *why, size_t len);

/* Whether the unqualified event name (attributes ignored) is in that PMU's table. */
bool sb_pfm_pmu_has_event(const char *pmu, const char *name);

#endif
