/* SPDX-License-Identifier: BSD-3-Clause */
/* fuzz.h: what the fuzz targets share: the libFuzzer entry point each target defines (also
 * called by fuzz/replay.c, the driver that replays saved inputs without libFuzzer), and the
 * helpers of fuzz_common.c. */
#ifndef SB_FUZZ_H
#define SB_FUZZ_H

#include <stddef.h>
#include <stdint.h>

#include "core/error.h"
#include "plan/experiment.h"

/* One input: the bytes the fuzzer (or the replay driver) hands over. Returns 0. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The bytes as a C string (cut at the first NUL byte, as a reader of text sees them); NULL
 * when out of memory. The caller frees it. */
char *sb_fuzz_text(const uint8_t *data, size_t size);

/* Aborts (a finding) when a reader broke its contract: a status other than 0, 1 or 2, or a
 * failure without a message. */
void sb_fuzz_check_status(int status, const struct sb_error *err);

/* Aborts when text that may reach a report is not UTF-8 (jansson refuses it: the report of a
 * finished run would be lost). */
void sb_fuzz_check_utf8(const char *text);

/* Aborts when an accepted experiment breaks the reader's promises: every key has a value, every
 * value and [thread] text is UTF-8, every [thread] figure a positive number a report can hold. */
void sb_fuzz_check_experiment(const struct sb_experiment *exp);

/* Builds the plan of an experiment that was read without error (every cross-key check, the
 * machine models and events maps it names), against a fixed memory limit, checks that the text
 * it hands the report (names, description, notes) is UTF-8, and frees it. */
void sb_fuzz_plan(const struct sb_experiment *exp);

#endif
