/* SPDX-License-Identifier: BSD-3-Clause */
#include "config.h"
/* check_events_pfm.c: every event name in the given configs/events maps checked against
 * libpfm4's tables, on any host, as a TAP stream (tests/counters/events_libpfm.tap runs it). For each
 * map: one test that it reads (which walks libpfm4's tables for every name, events_pfm.c),
 * then one test per PMU it lists, run in a child process started afresh with
 * LIBPFM_FORCE_PMU=<that PMU> (and LIBPFM_ENCODE_INACTIVE=1 for PMU-qualified names), where
 * every event of that PMU must encode with pfm_get_os_event_encoding, which also checks that
 * the unit masks go together. A PMU this libpfm4 does not know is a SKIP, never a pass.
 *     check_events_pfm MAP.ini...            the TAP stream
 *     check_events_pfm --encode PMU MAP.ini  the child: exit 0 all encode, 1 one does not */

#include <perfmon/pfmlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "counters/events_map.h"
#include "counters/events_pfm.h"

/* The child: LIBPFM_FORCE_PMU is set; encode every event that belongs to pmu. */
static int encode_all(const char *pmu, const char *path)
{
    struct sb_events_map *map = malloc(sizeof *map);
    struct sb_error err = {0};
    int failures = 0, encoded = 0;

    if (!map || pfm_initialize() != PFM_SUCCESS) {
        printf("# pfm_initialize failed\n");
        return 1;
    }
    /* parse only: under LIBPFM_FORCE_PMU libpfm4 lists no other PMU to walk */
    if (sb_events_map_parse(path, map, &err) != SB_OK) {
        printf("# %s\n", err.msg);
        return 1;
    }
    for (int role = 0; role < SB_NROLES; role++) {
        const struct sb_events_role *r = &map->roles[role];
        for (int e = 0; e < r->nevents; e++) {
            const char *name = r->events[e];
            bool qualified = strstr(name, "::") != NULL;
            pfm_pmu_encode_arg_t arg;
            char *fstr = NULL;
            size_t len = strlen(pmu);
            int status;
            if (!qualified && !sb_pfm_pmu_has_event(pmu, name))
                continue; /* an event of another PMU of the map (core vs uncore) */
            memset(&arg, 0, sizeof arg);
            arg.size = sizeof arg;
            arg.fstr = &fstr;
            status = pfm_get_os_event_encoding(name, PFM_PLM3, PFM_OS_NONE, &arg);
            if (status != PFM_SUCCESS) {
                printf("#   %s: %s: %s does not encode: %s\n", map->name, sb_role_names[role],
                       name, pfm_strerror(status));
                failures++;
            } else if (!qualified && (strncmp(fstr, pmu, len) != 0 || fstr[len] != ':')) {
                printf("#   %s: %s: %s resolved to %s, not in %s\n", map->name,
                       sb_role_names[role], name, fstr, pmu);
                failures++;
            } else {
                encoded++;
            }
            free(fstr);
            free(arg.codes);
        }
    }
    printf("#   %s under LIBPFM_FORCE_PMU=%s: %d events encode, %d do not\n", map->name, pmu,
           encoded, failures);
    free(map);
    return failures ? 1 : 0;
}

/* Runs this program again as the child for one PMU; its exit status. */
static int run_child(const char *self, const char *pmu, const char *path)
{
    pid_t pid;
    int status;

    fflush(stdout);
    pid = fork();
    if (pid < 0)
        return 1;
    if (pid == 0) {
        setenv("LIBPFM_FORCE_PMU", pmu, 1);
        setenv("LIBPFM_ENCODE_INACTIVE", "1", 1);
        execl(self, self, "--encode", pmu, path, (char *)NULL);
        _exit(127);
    }
    if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
        return 1;
    return WEXITSTATUS(status);
}

int main(int argc, char **argv)
{
    struct sb_events_map *map;
    int planned = 0, test = 0, failed = 0;

    if (argc == 4 && strcmp(argv[1], "--encode") == 0)
        return encode_all(argv[2], argv[3]);
    map = malloc(sizeof *map);
    if (!map)
        return 99;
    /* the plan: one test per map, one per PMU it lists */
    for (int i = 1; i < argc; i++) {
        struct sb_error err = {0};
        planned++;
        if (sb_events_map_read(argv[i], map, &err) == SB_OK)
            planned += map->npmus;
    }
    printf("1..%d\n", planned);
    printf("# %s; each map's PMUs forced in turn (LIBPFM_FORCE_PMU)\n", sb_pfm_version());
    for (int i = 1; i < argc; i++) {
        struct sb_error err = {0};
        if (sb_events_map_read(argv[i], map, &err) != SB_OK) {
            printf("not ok %d - %s\n", ++test, err.msg);
            failed++;
            continue;
        }
        if (strncmp(map->checked, "every event", 11) == 0)
            printf("ok %d - %s: %s (pmus: %d)\n", ++test, map->name, map->checked, map->npmus);
        else
            printf("ok %d - %s # SKIP %s\n", ++test, map->name, map->checked);
        for (int p = 0; p < map->npmus; p++) {
            const char *pmu = map->pmus[p];
            int status;
            if (!sb_pfm_pmu_known(pmu, NULL)) {
                printf("ok %d - %s on PMU %s # SKIP %s does not know PMU %s\n", ++test,
                       map->name, pmu, sb_pfm_version(), pmu);
                continue;
            }
            status = run_child(argv[0], pmu, argv[i]);
            printf("%s %d - %s on PMU %s: every event of that PMU encodes\n",
                   status == 0 ? "ok" : "not ok", ++test, map->name, pmu);
            failed += status != 0;
        }
    }
    free(map);
    return failed ? 1 : 0;
}
