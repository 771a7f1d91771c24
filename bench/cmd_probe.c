/* SPDX-License-Identifier: BSD-3-Clause */
/* cmd_probe.c: `scanbench probe`: this host's latency and bandwidth at each cache level and
 * memory (host/probe.h), written as a machine file: the host's geometry
 * (sb_machine_from_topology) and [costs] with every value's source (cachesim/costs_probe.h),
 * to stdout or, with -o, a new file. The text is read back before it is written: what comes
 * out loads with sb_machine_load. Where it cannot be written (a full disk, a full stdout), it is
 * kept under $TMPDIR (core/outkeep.h) and one line says where. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cachesim/cachesim.h"
#include "commands.h"
#include "core/core.h"
#include "host/host.h"

struct probe_args {
    const char *output; /* NULL: stdout */
    bool quick;
};

enum { OUTPUT = 1, QUICK };

const struct sb_options sb_options_probe = {
    .command = "probe",
    .prefix = "probe: ",
    .unknown = "unknown argument",
    .options = {
        {OUTPUT, "-o", NULL, SB_OPT_TEXT, "MACHINE.ini", false,
         "writes the machine file (default: stdout; a name that exists is\n"
         "refused before the probe; if one appears meanwhile, MACHINE-2.ini;\n"
         "where it cannot be written, kept under $TMPDIR/scanbench-kept-*)",
         " needs a file name", 0, 0},
        {QUICK, "--quick", NULL, SB_OPT_FLAG, NULL, false,
         "small working sets (memory's 64MB), 2 repetitions: a check, not figures", NULL, 0, 0},
        {0},
    },
};

/* One option into a (sb_option_take): -o again replaces the file. */
static int take(void *ctx, const struct sb_option_arg *arg, struct sb_error *err)
{
    struct probe_args *a = ctx;

    (void)err;
    if (arg->id == QUICK)
        a->quick = true;
    else
        a->output = arg->text;
    return SB_OK;
}

static int parse_args(int argc, char **argv, struct probe_args *a, struct sb_error *err)
{
    int status;

    memset(a, 0, sizeof *a);
    status = sb_options_parse(&sb_options_probe, argc, argv, take, a, err);
    if (status == SB_OK && a->output)
        status = sb_outfile_check(a->output, "machine file", err);
    return status;
}

/* "AMD EPYC, AuthenticAMD family 26 model 2": /proc/cpuinfo's model name and CPUID's numbers. */
static void host_words(char *buf, size_t len)
{
    static const char *const keys[] = {"model name", NULL};
    char model[256] = "unknown model";
    struct sb_cpu_id id;

    sb_cpuinfo_first(keys, model, sizeof model); /* left as it is when there is none */
    sb_cpu_id_detect(&id);
    snprintf(buf, len, "%s (%s family %u model %u%s)", model, id.vendor[0] ? id.vendor : "?",
             id.family, id.model, id.hypervisor ? ", under a hypervisor" : "");
}

/* The machine's name: the output file's name without its directory and .ini ("probe" on
 * stdout). */
static void machine_name(const char *output, char *name, size_t len)
{
    const char *base = output ? strrchr(output, '/') : NULL;
    size_t n;

    base = output ? (base ? base + 1 : output) : "probe.ini";
    n = strlen(base);
    if (n > 4 && strcmp(base + n - 4, ".ini") == 0)
        n -= 4;
    snprintf(name, len, "%.*s", (int)n, base);
}

/* The sweep and the effective sizes it found, as comments. */
static void put_sweep(FILE *out, const struct sb_probe *p)
{
    const struct sb_probe_sweep *sw = &p->sweep;
    char a[32], b[32];

    fprintf(out, "; the sweep (%.1f s): set, chase ns, read GB/s\n", sw->seconds);
    for (size_t i = 0; i < sw->npoints; i++)
        fprintf(out, ";   %-8s %9.2f %9.2f\n",
                sb_format_size(sw->point[i].working_set, a, sizeof a), sw->point[i].latency_ns,
                sw->point[i].read_gbps);
    for (unsigned l = 0; l < sw->levels; l++) {
        const struct sb_steps_level *e = &sw->by_latency[l], *r = &sw->by_read[l];
        fprintf(out, "; %s: nominal %s, effective %s by the chase", sb_probe_level_names[l],
                sb_format_size(sw->nominal[l], a, sizeof a),
                e->why == SB_STEPS_FOUND ? sb_format_size(e->size, b, sizeof b)
                                         : sb_steps_why_names[e->why]);
        fprintf(out, ", %s by the read\n", r->why == SB_STEPS_FOUND
                ? sb_format_size(r->size, b, sizeof b) : sb_steps_why_names[r->why]);
    }
}

/* Every figure measured, as comments above the machine file. */
static void put_figures(FILE *out, const struct sb_probe *p, const char *host, const char *date)
{
    char ws[32];

    fprintf(out, "; scanbench probe on %s, %s (%.1f s; %u repetitions of about %.0f ms each)\n"
            "; level    set      latency ns   read GB/s  write GB/s  nt write GB/s\n", host, date,
            p->seconds, p->repetitions, p->ms_per_measurement);
    for (int l = 0; l < SB_PROBE_LEVELS; l++)
        if (p->level[l].measured)
            fprintf(out, "; %-7s %-8s %10.2f %11.2f %11.2f %14.2f\n", sb_probe_level_names[l],
                    sb_format_size(p->level[l].working_set, ws, sizeof ws), p->level[l].latency_ns,
                    p->level[l].read_gbps, p->level[l].write_gbps, p->level[l].nt_write_gbps);
    for (int l = 0; l < SB_NLEVELS; l++)
        if (p->level[l].measured && p->level[l].latency_ns >= 0.8 * p->level[SB_PROBE_MEM].latency_ns)
            fprintf(out, "; note: the %s chase (%.1f ns) is within 20%% of memory's (%.1f ns): "
                    "this host may not give the %s the topology reports (a VM's CPUID)\n",
                    sb_probe_level_names[l], p->level[l].latency_ns,
                    p->level[SB_PROBE_MEM].latency_ns, sb_probe_level_names[l]);
    fprintf(out, "; memory in address order: %.2f ns per load; clock %.3f GHz (add chain), "
            "/proc/cpuinfo %.0f MHz\n; memory's set: %s\n", p->mem_in_order_ns, p->clock_ghz,
            p->cpuinfo_mhz, p->mem_set_why);
    fprintf(out, "; memory's set: loads and stores of the same lines %.2f GB/s: %.0f%% of the "
            "temporal stores' lines read first\n", p->rmw_gbps, 100 * p->rfo_share);
    put_sweep(out, p);
}

/* The machine file's text (malloc'd, *len bytes) for the host of topology topo, checked by
 * reading it back. */
static int machine_text(const struct sb_probe *p, const struct sb_topology *topo,
                        const struct probe_args *a, char **text, size_t *len,
                        struct sb_error *err)
{
    struct sb_cpu_id id;
    struct sb_machine *m = calloc(2, sizeof *m);
    char host[384], date[32], geometry[640];
    time_t now = time(NULL);
    FILE *out = NULL;
    int status = m ? SB_OK : sb_fail(err, SB_ERR_RUN, "probe: out of memory");

    sb_cpu_id_detect(&id);
    if (status == SB_OK)
        status = sb_machine_from_topology(topo, id.vendor, m, err);
    if (status == SB_OK) {
        host_words(host, sizeof host);
        strftime(date, sizeof date, "%Y-%m-%d", gmtime(&now));
        machine_name(a->output, m->name, sizeof m->name);
        snprintf(geometry, sizeof geometry, "%s", m->description);
        snprintf(m->description, sizeof m->description, "%s, measured by scanbench probe on %s: "
                 "%s", host, date, geometry);
        snprintf(m->source, sizeof m->source, "geometry: the host's topology (hwloc, else "
                 "sysfs, else CPUID); costs: scanbench probe (each value's source)");
        sb_machine_apply_probe(p, topo, host, date, m);
        snprintf(m->description + strlen(m->description),
                 sizeof m->description - strlen(m->description), "; the model with the "
                 "effective sizes the sweep found: %s",
                 sb_machine_geometry(m, geometry, sizeof geometry));
        out = open_memstream(text, len);
    }
    if (status == SB_OK && !out)
        status = sb_fail(err, SB_ERR_RUN, "probe: out of memory");
    if (status == SB_OK) {
        put_figures(out, p, host, date);
        if (sb_machine_costs_write(out, m) != 0)
            status = sb_fail(err, SB_ERR_RUN, "probe: cannot write the machine file's text");
    }
    if (out && fclose(out) != 0 && status == SB_OK)
        status = sb_fail(err, SB_ERR_RUN, "probe: cannot write the machine file's text");
    if (status == SB_OK && sb_machine_parse(*text, "probe", &m[1], err) != SB_OK) {
        char why[sizeof err->msg];
        snprintf(why, sizeof why, "%s", err->msg);
        status = sb_fail(err, SB_ERR_RUN, "probe: the machine file made does not read back: %s",
                         why);
    }
    free(m);
    return status;
}

/* The machine file's text on stdout, written whole with write(2) (stdio's buffer stays empty:
 * main's check of stdout has nothing more to say); where stdout cannot take it (a full disk, a
 * reader gone), the text is kept as probe.ini in a new directory under $TMPDIR (outkeep.h) and
 * err says, in one line, why and where (or that it is lost). */
static int put_stdout(const char *text, size_t len, struct sb_error *err)
{
    char dir[SB_OUTFILE_MAX], kept[SB_OUTFILE_MAX], why[256];
    struct sb_error keep_err = {0};
    int failed;

    fflush(stdout);
    if ((failed = sb_outfile_write_all(STDOUT_FILENO, text, len)) == 0)
        return SB_OK;
    snprintf(why, sizeof why, "%s", strerror(failed > 0 ? failed : EIO));
    if (sb_outkeep_put("probe.ini", text, len, dir, kept, &keep_err) == SB_OK)
        return sb_fail(err, SB_ERR_RUN, "cannot write the output (stdout): %s; the machine "
                       "file is kept as %.900s", why, kept);
    return sb_fail(err, SB_ERR_RUN, "cannot write the output (stdout): %s; the machine file "
                   "is lost: %.900s", why, keep_err.msg);
}

int sb_cmd_probe(int argc, char **argv)
{
    struct sb_error err = {0};
    struct probe_args a;
    struct sb_topology topo;
    struct sb_probe_options opt = {.quick = false, .repetitions = 0};
    struct sb_probe p;
    char *text = NULL, used[SB_OUTFILE_MAX];
    size_t len = 0;
    int status = parse_args(argc, argv, &a, &err);

    opt.quick = a.quick;
    if (status == SB_OK) {
        sb_topology_detect(&topo, "");
        status = sb_probe_run(&topo, &opt, &p, stderr, &err);
    }
    if (status == SB_OK)
        status = machine_text(&p, &topo, &a, &text, &len, &err);
    if (status == SB_OK && !a.output)
        status = put_stdout(text, len, &err);
    if (status == SB_OK && a.output) {
        /* where -o cannot be written (a full disk), the file is kept under $TMPDIR */
        status = sb_outkeep_write(a.output, text, len, "machine file", used, &err);
        if (status == SB_OK)
            fprintf(stderr, strcmp(used, a.output) ? "scanbench: %s appeared meanwhile; the "
                    "machine file is %s\n" : "%.0sscanbench: machine file written to %s\n",
                    a.output, used);
    }
    free(text);
    if (status != SB_OK)
        fprintf(stderr, "scanbench: %s\n", err.msg);
    return status;
}
