/* SPDX-License-Identifier: BSD-3-Clause */
/* core.h: the core subsystem's public header. What every other part stands on, depending on
 * nothing of scanbench's: one-line errors with their origin (error.h), checked UTF-8 text
 * (utf8.h), sizes (units.h), the clock (timer.h), big allocations and the memory a run may have
 * (mem.h), signals and the watchdog as flags (stop.h), the one INI reader, driven by tables of
 * keys (ini_keys.h), and its line reader (ini_lines.h), finding configs/ (configs_path.h),
 * result files and directories written whole, never replacing one (outfile.h, outdir.h), the
 * host's steal time (hoststat.h), a nameless scratch file (scratch.h), a file's identity
 * (file_id.h), another program run with a time limit in a process group of its own
 * (program.h), the commit the program was built from (build_id.h) and the rule for a machine
 * that is this host (this_host.h). */
#ifndef SB_CORE_H
#define SB_CORE_H

#include "core/build_id.h"
#include "core/configs_path.h"
#include "core/error.h"
#include "core/file_id.h"
#include "core/hoststat.h"
#include "core/ini_keys.h"
#include "core/ini_lines.h"
#include "core/mem.h"
#include "core/outdir.h"
#include "core/outfile.h"
#include "core/outkeep.h"
#include "core/program.h"
#include "core/scratch.h"
#include "core/stop.h"
#include "core/this_host.h"
#include "core/timer.h"
#include "core/units.h"
#include "core/utf8.h"

#endif
