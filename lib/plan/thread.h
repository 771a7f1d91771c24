/* SPDX-License-Identifier: BSD-3-Clause */
/* thread.h: the [thread] section of an experiment file: what the 2007 thread measured, on
 * which machine, with which slow and fast placements (struct sb_thread, part of the
 * experiment, experiment.h). Its keys are the reader's table for the section (experiment.c
 * reads it); each value is checked as it is read, and the section as a whole once the file is
 * read. */
#ifndef SB_PLAN_THREAD_H
#define SB_PLAN_THREAD_H

#include <stdbool.h>
#include <stdint.h>

#include "core/core.h"
#include "vocab/vocab.h"

/* A figure the 2007 thread reported, from an experiment file's [thread] section:
 * `figure = count clock 16MB: 1221 MB/s` (or `... : 101 s` for elapsed times). */
struct sb_thread_figure {
    char op[16];
    struct sb_placement_name placement; /* its policy and the pool, ring or page size it was
                                           measured with */
    double value;
    char unit[8];       /* "MB/s" or "s" */
};

#define SB_MAX_THREAD_FIGURES 32

/* The [thread] section: who measured what, on which machine, and the figures. */
#define SB_MAX_THREAD_SCANNERS 64

struct sb_thread {
    bool present;
    char who[256];      /* who ran it, when, on what */
    char machine[64];   /* the model of that machine in configs/machines, if any */
    char table[256];    /* what the table was, and how it is scaled here */
    struct sb_placement_name slow; /* the placement the thread found slow, e.g. clock 16MB
                                      (policy NULL: not given) */
    struct sb_placement_name fast; /* and fast, e.g. clock 680KB */
    uint64_t table_size; /* the thread's table, to turn elapsed seconds into MB/s (0: unknown) */
    int nfigures;
    struct sb_thread_figure figures[SB_MAX_THREAD_FIGURES];
    char calibrate[64];  /* `calibrate = OP POLICY SIZE`: the one figure the machine's core
                            factor is fitted to ("" none) */
    int calibrate_figure; /* its index in figures (valid when calibrate is set) */
    unsigned scanners;   /* `scanners = N`: scans the thread's figures ran at once, each into
                            pools of its own on a core of its own (0 when not given: one) */
    char scanners_source[768]; /* where N comes from (required when N > 1) */
};

/* The [thread] keys, in the order of the fields of struct sb_thread ({0}-terminated). */
extern const struct sb_ini_key sb_thread_keys[];

/* The value of key (an index into sb_thread_keys) into t; SB_ERR_INPUT when the value is not
 * one, or key is not a key of the table. */
int sb_thread_key(struct sb_thread *t, int key, const char *value, struct sb_error *err);

/* The section as a whole, read from label: who and table given (a section present without
 * them says nothing of the thread), calibrate names one of its figures and there is a
 * machine; scanners above 1 has its source and machine. SB_ERR_INPUT naming label otherwise. */
int sb_thread_check(struct sb_thread *t, const char *label, struct sb_error *err);

#endif
