/* SPDX-License-Identifier: BSD-3-Clause */
/* sim-speed.c: how fast the cache model runs: the `sim` backend's own replay of a scan (the same
 * function, sb_sim_model_replay, the same line accesses, in the same order) timed apart from the
 * scan itself. Counts the lines fed to the model (L1d lookups of loads and stores, plus lines
 * of streaming stores) and divides by the seconds the model took, wall and the process's CPU
 * time (on a shared host, the CPU time leaves out the time others had the core); prints every
 * repetition, the medians, and the model's memory (bytes per simulated cache line). SLICES:
 * the model's slices, each on a thread (default: as the sim backend, one per CPU here).
 * SIM_SPEED_CODE=baseline (or avx2+bmi2) in the environment: the machine code the model runs
 * (default: the fastest this CPU has, as the sim backend; sb_cachesim_use_code).
 * usage: sim-speed MACHINE TABLE_SIZE POOL_SIZE POLICY KERNEL OP REPETITIONS [SLICES]
 *        e.g. sim-speed x4500 64M 16M clock memcpy count 5 (machine: a name, a path or auto) */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cachesim/machine.h"
#include "cachesim/model.h"
#include "core/timer.h"
#include "core/units.h"
#include "counters/sim.h"
#include "counters/sim_replay.h"
#include "engine/iocache.h"
#include "host/cpu_id.h"
#include "plan/plan.h"
#include "stats/stats.h"
#include "vocab/policy.h"

#define PAGE 8192u

/* The seconds of CPU time this process's threads have used: on a shared host, the model's own
 * time (the slices' threads included). */
static double cpu_seconds(void)
{
    struct timespec t;

    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int usage(void)
{
    fprintf(stderr, "usage: sim-speed MACHINE TABLE_SIZE POOL_SIZE POLICY KERNEL OP REPETITIONS "
            "[SLICES]\n");
    return 2;
}

int main(int argc, char **argv)
{
    struct sb_run_params run = {0};
    struct sb_iocache ioc = {0};
    struct sb_policy_state ps = {0};
    struct sb_machine machine;
    struct sb_sim_model *model = NULL;
    struct sb_cachesim *sim = NULL;
    struct sb_error err = {0};
    uint64_t table_size, pool_size, reps, slices = sb_sim_default_slices();
    const char *want_code = getenv("SIM_SPEED_CODE");
    uint32_t *victims = NULL;
    double *rate = NULL, *cpu_rate = NULL;
    int status = 1;

    if ((argc != 8 && argc != 9) || !sb_parse_size(argv[2], &table_size) ||
        !sb_parse_size(argv[3], &pool_size) || !sb_parse_uint(argv[7], &reps) || reps == 0 ||
        reps > 100 || table_size < PAGE || pool_size < PAGE ||
        (argc == 9 && (!sb_parse_uint(argv[8], &slices) || slices == 0 || slices > 64)))
        return usage();
    run.policy = sb_policy_find(argv[4]);
    run.kernel = sb_kernel_find(argv[5]);
    run.op = sb_op_find(argv[6]);
    if (!run.policy || !run.kernel || !run.op)
        return usage();
    if (strcmp(argv[1], "auto") == 0) {
        struct sb_topology topo;
        struct sb_cpu_id cpu;
        sb_topology_detect(&topo, "");
        sb_cpu_id_detect(&cpu);
        status = sb_machine_from_topology(&topo, cpu.vendor, &machine, &err);
    } else {
        status = sb_machine_load(argv[1], &machine, &err);
    }
    if (status != SB_OK || !sb_heap_layout_init(&run.layout, PAGE, 100, 10) ||
        (status = sb_iocache_create(&ioc, table_size, &run.layout, &err)) != SB_OK ||
        (status = sb_sim_model_create(&machine.config, (unsigned)slices, &model, &err)) != SB_OK ||
        (status = sb_cachesim_create(&machine.config, &sim, &err)) != SB_OK) {
        fprintf(stderr, "sim-speed: %s\n", err.msg);
        goto out;
    }
    if (want_code) {
        int code = -1;
        for (int c = 0; c < SB_CACHESIM_NCODES; c++)
            if (strcmp(want_code, sb_cachesim_code_names[c]) == 0)
                code = c;
        if (code < 0 || !sb_sim_model_use_code(model, (enum sb_cachesim_code)code)) {
            fprintf(stderr, "sim-speed: SIM_SPEED_CODE: \"%s\" is %s\n", want_code,
                    code < 0 ? "not baseline or avx2+bmi2" : "not in this build or CPU");
            status = SB_ERR_INPUT;
            goto out;
        }
    }
    run.page_size = PAGE;
    run.table_size = table_size;
    run.pool_size = pool_size;
    run.ring_size = 256 << 10;
    victims = malloc(ioc.npages * sizeof *victims);
    rate = calloc(reps, sizeof *rate);
    cpu_rate = calloc(reps, sizeof *cpu_rate);
    status = SB_ERR_RUN;
    if (!victims || !rate || !cpu_rate ||
        sb_policy_state_init(&ps, (uint32_t)(pool_size / PAGE), (uint32_t)(run.ring_size / PAGE),
                             1) != 0) {
        fprintf(stderr, "sim-speed: out of memory\n");
        goto out;
    }
    printf("machine %s (%s): %s\n", machine.name, machine.file,
           sb_machine_geometry(&machine, (char[256]){0}, 256));
    printf("model state %zu bytes for %llu simulated lines: %.2f bytes per line; %u slices, each "
           "on a thread of its own; %s code\n", sb_sim_model_state_bytes(model),
           (unsigned long long)sb_sim_model_lines(model),
           (double)sb_sim_model_state_bytes(model) / (double)sb_sim_model_lines(model),
           sb_sim_model_slices(model), sb_cachesim_code_names[sb_sim_model_code(model)]);
    for (uint64_t r = 0; r <= reps; r++) { /* scan 0 warms the model up, untimed */
        struct sb_scan_trace trace = {
            .pages = ioc.pages,
            .npages = ioc.npages,
            .page_size = ioc.page_size,
            .op = run.op,
            .temporal = run.kernel->temporal,
            .bigtable = run.bigtable,
            .victims = victims,
            .writeback = SB_WRITEBACK_NONE,
            .nbuffers = ps.nbuffers,
            .side = SB_KERNEL_COPY,
        };
        struct sb_cachesim_counts n;
        double t0, t1, c0, c1;

        for (uint64_t b = 0; b < ioc.npages; b++)
            victims[b] = run.policy->victim(&ps);
        c0 = cpu_seconds();
        t0 = sb_timer_now();
        sb_sim_model_replay(model, &trace, &n);
        t1 = sb_timer_now();
        c1 = cpu_seconds();
        if (r == 0)
            continue;
        rate[r - 1] = (double)n.line_accesses / (t1 - t0);
        cpu_rate[r - 1] = (double)n.line_accesses / (c1 - c0);
        printf("scan %llu: %llu lines in %.4f s (%.4f s CPU): %.1f million lines/s (%.1f per CPU "
               "second; L1d miss %.1f%%, L2 miss %llu, L2 write-back %llu)\n", (unsigned long long)r,
               (unsigned long long)n.line_accesses, t1 - t0, c1 - c0, rate[r - 1] / 1e6,
               cpu_rate[r - 1] / 1e6,
               100.0 * (double)n.level[0].misses / (double)n.line_accesses,
               (unsigned long long)n.level[1].misses, (unsigned long long)n.level[1].writebacks);
    }
    printf("median %.1f million simulated line accesses per second, %.1f million per CPU second "
           "(%s %s over a %s pool, kernel %s, op %s)\n", sb_median(rate, (size_t)reps) / 1e6,
           sb_median(cpu_rate, (size_t)reps) / 1e6, argv[2], argv[4], argv[3], argv[5], argv[6]);
    /* the two extremes, for scale, on one thread (the whole model): loads that all hit L1d (16
     * lines in turn), and loads that all miss every level (a stream through 1GB, each line
     * once) */
    {
        const uint32_t line = sb_cachesim_line_size(sim);
        const uint64_t n = 16u << 20;
        double t0, t1, t2;

        t0 = sb_timer_now();
        for (uint64_t i = 0; i < n; i++)
            sb_cachesim_access(sim, (3ull << 40) + (i & 15) * line, line, false);
        t1 = sb_timer_now();
        for (uint64_t i = 0; i < n; i++)
            sb_cachesim_access(sim, (4ull << 40) + i * line, line, false);
        t2 = sb_timer_now();
        printf("L1d hits only: %.1f million line accesses per second; misses at every level "
               "only: %.1f million\n", (double)n / (t1 - t0) / 1e6, (double)n / (t2 - t1) / 1e6);
    }
    status = SB_OK;
out:
    sb_policy_state_destroy(&ps);
    sb_cachesim_destroy(sim);
    sb_sim_model_destroy(model);
    sb_iocache_destroy(&ioc);
    free(victims);
    free(rate);
    free(cpu_rate);
    return status;
}
