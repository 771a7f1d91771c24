/* SPDX-License-Identifier: BSD-3-Clause */
/* cmd_events.c: `scanbench events [--set events=FILE]`: a diagnosis of hardware counting on
 * this host: the CPU and whether it is a VM, the kernel's PMUs, perf_event_paranoid and
 * capabilities, PAPI's version, components (and why disabled) and counters, the events map
 * chosen (and why), and for every role the native events it maps to and whether each can be
 * added here, or PAPI's error. Exits 0 whatever is available; 2 only for bad arguments or a
 * bad events file. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "counters/counters.h"
#include "host/host.h"
#include "plan/plan.h"
#include "run_args.h"
#ifdef HAVE_PAPI
#include "counters/counters.h"
#endif

static void print_host(const struct sb_perf_host *h, const char *cpu_what)
{
    const struct sb_cpu_id *cpu = &h->cpu;
    char obstacles[512];

    printf("CPU:                 %s family 0x%x model 0x%02x stepping %u (%s): %s\n",
           cpu->vendor[0] ? cpu->vendor : "unknown vendor", cpu->family, cpu->model,
           cpu->stepping, cpu->source, cpu_what);
    if (cpu->hypervisor)
        printf("virtual machine:     yes (CPUID hypervisor bit%s%s)\n",
               cpu->hypervisor_vendor[0] ? ": " : "", cpu->hypervisor_vendor);
    else
        printf("virtual machine:     no (CPUID hypervisor bit clear, no /sys/hypervisor)\n");
    printf("kernel PMUs:         %s (%s)\n", h->kernel_pmus[0] ? h->kernel_pmus : "none",
           h->kernel_core_pmu ? "a hardware core PMU is registered"
                              : "no hardware core PMU: nothing can count CPU events");
    if (h->paranoid_known)
        printf("perf_event_paranoid: %d (per-thread events need <= 2, CPU-wide/uncore <= 0, "
               "unless CAP_PERFMON)\n", h->paranoid);
    else
        printf("perf_event_paranoid: unreadable (/proc/sys/kernel/perf_event_paranoid)\n");
    printf("capabilities:        CAP_PERFMON %s, CAP_SYS_ADMIN %s\n",
           h->cap_perfmon ? "yes" : "no", h->cap_sys_admin ? "yes" : "no");
    sb_perf_host_obstacles(h, false, obstacles, sizeof obstacles);
    printf("obstacles:           %s\n", obstacles[0] ? obstacles : "none known to scanbench");
}

#ifdef HAVE_PAPI
static bool print_papi(void)
{
    struct sb_papi_host papi;
    char why[256];

    if (sb_papi_init(why, sizeof why) != 0) {
        printf("PAPI:                %s\n", why);
        return false;
    }
    sb_papi_host_probe(&papi);
    printf("PAPI:                %s (PAPI_library_init ok)\n", papi.version);
    printf("PAPI components:\n");
    for (int c = 0; c < papi.ncomponents; c++) {
        const struct sb_papi_component *pc = &papi.components[c];
        if (pc->disabled)
            printf("  %-18s disabled: %s\n", pc->name,
                   pc->disabled_reason[0] ? pc->disabled_reason : "(PAPI gives no reason)");
        else
            printf("  %-18s active, %d counters: %s\n", pc->name, pc->counters,
                   pc->description);
    }
    printf("hardware counters:   %d (PAPI's perf_event component%s)\n", papi.core_counters,
           papi.core_counters > 0 ? "; from libpfm4's tables, not a proof the kernel lets "
                                    "them count" : "");
    printf("PAPI says VM:        %s%s%s\n", papi.virtualized ? "yes" : "no",
           papi.vm_vendor[0] ? ", " : "", papi.vm_vendor);
    return true;
}

/* One event: whether it can be added here (uncore events bound to CPU 0 with cpu=0). */
static bool try_event(const char *name)
{
    char why[256], bound[SB_EVENT_NAME_LEN + 16];
    int component, status = sb_papi_try_event(name, &component, why, sizeof why);
    const char *shown = name;

    if (status != 0 && component >= 0) {
        /* an uncore event needs a CPU to be bound to */
        snprintf(bound, sizeof bound, "%s:cpu=0", name);
        if (sb_papi_try_event(bound, &component, why, sizeof why) == 0) {
            status = 0;
            shown = bound;
        }
    }
    if (status == 0)
        printf("      %s: can be added here\n", shown);
    else
        printf("      %s: cannot be added here: %s\n", name, why);
    return status == 0;
}
#endif

static int print_roles(const struct sb_events_map *map, bool papi_ready)
{
    int countable = 0, absent = 0;

    printf("roles:\n");
    for (int role = 0; role < SB_NROLES; role++) {
        const struct sb_events_role *r = &map->roles[role];
        bool all = true;
        if (!r->line)
            continue;
        if (r->none) {
            printf("  %-16s none: no event on this architecture: %s\n", sb_role_names[role],
                   r->reason);
            continue;
        }
        printf("  %-16s %d event%s x %g (line %d): %s\n", sb_role_names[role], r->nevents,
               r->nevents == 1 ? "" : "s", r->scale, r->events_line, r->counts);
        if (r->caveats[0])
            printf("  %-16s caveats: %s\n", "", r->caveats);
        for (int e = 0; e < r->nevents; e++) {
#ifdef HAVE_PAPI
            if (papi_ready) {
                all &= try_event(r->events[e]);
                continue;
            }
#endif
            (void)papi_ready;
            all = false;
            printf("      %s: not tried (no PAPI)\n", r->events[e]);
        }
        countable += all;
    }
    for (int role = 0; role < SB_NROLES; role++)
        if (!map->roles[role].line)
            printf("%s%s", absent++ ? ", " : "  no event in this map: ", sb_role_names[role]);
    if (absent)
        printf("\n");
    return countable;
}

const struct sb_options sb_options_events = {
    .command = "events",
    .unknown = "unknown argument",
    .options = {
        {SB_RUN_SET, "--set", "-s", SB_OPT_TEXT, "events=FILE", false,
         "the events map to diagnose (a name of configs/events or a path; default auto)", NULL,
         0, 0},
        {0},
    },
};

/* One --set into the experiment (sb_option_take): only events. */
static int take(void *ctx, const struct sb_option_arg *arg, struct sb_error *err)
{
    struct sb_experiment *exp = ctx;
    char line[SB_OPTIONS_LINE];
    int status = sb_experiment_set(exp, arg->text, err);

    /* the key set was events: its origin is this --set */
    if (status != SB_OK || (strncmp(exp->settings[SB_K_EVENTS].origin, "--set ", 6) == 0 &&
                            strcmp(exp->settings[SB_K_EVENTS].origin + 6, arg->text) == 0))
        return status;
    sb_options_usage_line(&sb_options_events, line, sizeof line);
    return sb_fail(err, SB_ERR_INPUT, "--set %s: scanbench events takes only --set events=FILE "
                   "(usage: scanbench events %s)", arg->text, line);
}

/* The events map the arguments name: `--set events=FILE` (in any spelling of --set, read as
 * `run` reads one: sb_experiment_set), the last one given; "auto" without. */
static int events_setting(int argc, char **argv, struct sb_experiment *exp, struct sb_error *err)
{
    int status = sb_experiment_init(exp, err);

    if (status == SB_OK)
        status = sb_options_parse(&sb_options_events, argc, argv, take, exp, err);
    return status;
}

int sb_cmd_events(int argc, char **argv)
{
    char cpu_what[256];
    struct sb_events_choice choice = {0};
    struct sb_experiment exp;
    struct sb_perf_host host;
    struct sb_error err = {0};
    bool papi_ready = false;
    int status = 0, countable = 0;

    status = events_setting(argc, argv, &exp, &err);
    if (status == SB_OK)
        status = sb_events_choose(exp.settings[SB_K_EVENTS].values[0],
                                  exp.settings[SB_K_EVENTS].origin, &choice, &err);
    sb_experiment_free(&exp);
    if (status != SB_OK) {
        fprintf(stderr, "scanbench: %s\n", err.msg);
        return status;
    }

    sb_perf_host_detect(&host, "");
    if (!sb_events_map_for_cpu(host.cpu.vendor, host.cpu.family, host.cpu.model, cpu_what,
                               sizeof cpu_what))
        snprintf(cpu_what, sizeof cpu_what, "no events map for this CPU");
    printf("scanbench events: hardware counters on this host (a diagnosis; exit 0 whatever is "
           "available)\n");
    print_host(&host, cpu_what);
#ifdef HAVE_PAPI
    papi_ready = print_papi();
#else
    printf("PAPI:                not built in (configure --with-papi): no counters can be "
           "read\n");
#endif
    if (!choice.map) {
        printf("events map:          none: %s\n", choice.why);
        printf("verdict:             counters=papi would report \"unavailable\": no events map\n");
        goto out;
    }
    printf("events map:          %s (%s)\n", choice.map->name, choice.map->path);
    printf("                     %s\n", choice.map->description);
    printf("chosen by:           %s\n", choice.why);
    printf("event names:         %s\n", choice.map->checked);
    countable = print_roles(choice.map, papi_ready);
    printf("verdict:             %d role%s can be counted here%s\n", countable,
           countable == 1 ? "" : "s",
           countable ? "" : ": counters=papi reports \"unavailable\" (the run is still timed)");
out:
    sb_events_choice_free(&choice);
    return 0;
}
