/* SPDX-License-Identifier: BSD-3-Clause */
/* table_labels.h: what tells a report's runs apart (the keys that differ between them, found
 * once per table), and each run's label as the run table's columns and rows and its notes
 * name it: the policy and footprint ("clock 16MB"), the ring's pool, and each key that varies.
 * Private to lib/render. */
#ifndef SB_RENDER_TABLE_LABELS_H
#define SB_RENDER_TABLE_LABELS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#define SB_TABLE_LABEL_LEN 96
#define SB_TABLE_MAX_KEYS 24

/* What tells a report's runs apart, found once per table (each label asked every run: a sweep
 * of 4000 runs spent 80 s labelling its columns). */
struct sb_table_varying {
    bool pool_size, key[SB_TABLE_MAX_KEYS], slice, model;
};

/* Whether key differs between the runs (absent in every run: it does not). */
bool sb_table_key_varies(const json_t *runs, const char *key);

void sb_table_varying_of(const json_t *runs, struct sb_table_varying *v);

/* The run's label: "clock 16MB", then each varying key ("memcpy", "hint_bits=unset"). */
void sb_table_label(const struct sb_table_varying *vary, const json_t *run, char *label,
                    size_t len);

/* A comparison's side ("a" or "b") as its column is labelled (the placement, and the swept
 * keys that tell the runs apart), else its placement. */
const char *sb_table_side_label(const json_t *report, const struct sb_table_varying *vary,
                                const json_t *c, const char *side, char *buf, size_t len);

#endif
