/* SPDX-License-Identifier: BSD-3-Clause */
/* context.c: gathering the host and build facts recorded with every report. */
#include "config.h"
#include "runner/context.h"

#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

#include "core/core.h"
#include "cachesim/cachesim.h"
#include "host/host.h"
#include "vocab/vocab.h"

/* First line of a file, or "unavailable: <path> unreadable". */
static json_t *file_fact(const char *path)
{
    char buf[256];
    FILE *f = fopen(path, "r");

    if (f && fgets(buf, sizeof buf, f)) {
        fclose(f);
        buf[strcspn(buf, "\n")] = '\0';
        return json_string(buf);
    }
    if (f)
        fclose(f);
    snprintf(buf, sizeof buf, "unavailable: %s unreadable", path);
    return json_string(buf);
}

/* "always madvise [never]" -> "never" */
static json_t *bracketed_fact(const char *path)
{
    json_t *raw = file_fact(path);
    const char *s = json_string_value(raw);
    const char *open = strchr(s, '['), *close = open ? strchr(open, ']') : NULL;

    if (open && close) {
        json_t *v = json_stringn(open + 1, (size_t)(close - open - 1));
        json_decref(raw);
        return v;
    }
    return raw;
}

static json_t *cpu_model(void)
{
    static const char *const keys[] = {"model name", "Processor", NULL};
    char model[512];

    return json_string(sb_cpuinfo_first(keys, model, sizeof model)
                           ? model
                           : "unavailable: no model name in /proc/cpuinfo");
}

static json_t *figure(const struct sb_figure *f)
{
    return json_pack("{s:o, s:s}", "value", f->value ? json_integer((json_int_t)f->value)
                                                     : json_null(), "source", f->source);
}

/* Level l's effective size: the host's machine file's (scanbench probe's sweep), or why not. */
static json_t *effective(const struct sb_machine *host, int l)
{
    if (host && l < (int)host->config.nlevels && host->sizes[l].effective)
        return json_pack("{s:I, s:s, s:s}", "value", (json_int_t)host->sizes[l].effective,
                         "source", host->sizes[l].effective_source, "machine", host->file);
    return json_pack("{s:n, s:s}", "value", "source", "not measured: scanbench probe's sweep "
                     "finds it (a run with machine = its file records it here)");
}

static json_t *caches(const struct sb_topology *topo, const struct sb_machine *host)
{
    static const char *names[SB_NLEVELS] = {"L1d", "L2", "L3"};
    json_t *list = json_array();

    for (int l = 0; l < SB_NLEVELS; l++)
        json_array_append_new(list, json_pack("{s:s, s:o, s:o, s:o, s:o}", "level", names[l],
                                              "size", figure(&topo->cache[l].size), "line",
                                              figure(&topo->cache[l].line), "associativity",
                                              figure(&topo->cache[l].assoc), "effective",
                                              effective(host, l)));
    return list;
}

json_t *sb_context_build(const struct sb_topology *topo, const struct sb_machine *host)
{
    struct utsname u;
    char date[64];
    time_t now = time(NULL);
    int have_uname = uname(&u) == 0;

    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    return json_pack(
        "{s:s, s:s, s:o, s:o, s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:{s:s, s:s}, s:{s:s, s:s}, "
        "s:s, s:o, s:o, s:{s:s, s:f, s:f}}",
        "host", have_uname ? u.nodename : "unknown",
        "machine", have_uname ? u.machine : "unknown",
        "cpu_model", cpu_model(),
        "cpu_features", json_string(sb_cpu_features()),
        "kernel_release", have_uname ? u.release : "unknown",
        "caches", caches(topo, host),
        "cores", figure(&topo->cores),
        "hardware_threads", figure(&topo->pus),
        "numa_nodes", figure(&topo->numa_nodes),
        "memory_total", file_fact("/proc/meminfo"),
        "frequency_governor", file_fact("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"),
        "compiler", "version", __VERSION__, "flags", SB_CFLAGS,
        "scanbench", "version", PACKAGE_VERSION, "git", sb_build_git(),
        "date", date,
        "transparent_hugepages", bracketed_fact("/sys/kernel/mm/transparent_hugepage/enabled"),
        "numa_balancing", file_fact("/proc/sys/kernel/numa_balancing"),
        "timer", "clock", sb_timer_clock_name(), "resolution_s", sb_timer_resolution(),
        "observed_tick_s", sb_timer_observed_tick());
}
