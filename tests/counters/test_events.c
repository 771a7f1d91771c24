/* SPDX-License-Identifier: BSD-3-Clause */
#include "config.h"
/* test_events.c: unit tests for the counter events maps (lib/counters/events_map.h), the CPU identity
 * (lib/host/cpu_id.h), the configs lookup (lib/core/configs_path.h) and the host's perf facts
 * (lib/host/perf_host.h). Checks the map chosen for every vendor/family/model the project supports
 * (and that an unknown CPU gets none, with the reason); that every map named there exists in
 * configs/events and reads cleanly; that a good map file is read field by field; that every
 * kind of bad map file is refused with SB_ERR_INPUT naming the file, the line and what is
 * wrong (an unknown event only when built with libpfm4, else that case is skipped); the
 * SCANBENCH_CONFIGS lookup order; and the obstacles read from a fake /proc and /sys tree. */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/configs_path.h"
#include "counters/events_map.h"
#include "host/cpu_id.h"
#include "host/perf_host.h"

#include "helper.h"

/* Writes text to scratch/name (directories made as needed); returns the path (static). */
static const char *write_file(const char *name, const char *text)
{
    return sbtest_write_file(sbtest_scratch, name, text);
}

/* --- the map for each CPU -------------------------------------------------------------------- */

static void expect_map(const char *vendor, unsigned family, unsigned model, const char *map,
                       const char *what_part)
{
    char what[256];
    const char *got = sb_events_map_for_cpu(vendor, family, model, what, sizeof what);

    if (map) {
        assert_non_null(got);
        assert_string_equal(got, map);
    } else {
        assert_null(got);
    }
    if (!strstr(what, what_part))
        fail_msg("%s family 0x%x model 0x%x: \"%s\" lacks \"%s\"", vendor, family, model, what,
                 what_part);
}

static void test_map_for_cpu(void **state)
{
    (void)state;
    expect_map("AuthenticAMD", 0x0f, 0x41, "amd-k8", "rev F"); /* Opteron 2xxx rev F */
    expect_map("AuthenticAMD", 0x0f, 0x6b, "amd-k8", "rev F"); /* rev G */
    expect_map("AuthenticAMD", 0x0f, 0x21, NULL, "before rev F"); /* Opteron 285: rev E */
    expect_map("AuthenticAMD", 0x10, 0x02, "amd-fam10h", "10h");  /* Barcelona */
    expect_map("AuthenticAMD", 0x10, 0x08, "amd-fam10h", "10h");  /* Istanbul */
    expect_map("GenuineIntel", 6, 0x0f, "intel-core2", "Core 2"); /* Merom, Clovertown */
    expect_map("GenuineIntel", 6, 0x17, "intel-core2", "Penryn"); /* Harpertown */
    expect_map("GenuineIntel", 6, 0x1a, "intel-nehalem", "Nehalem"); /* Nehalem-EP */
    expect_map("GenuineIntel", 6, 0x2c, "intel-nehalem", "Westmere"); /* Westmere-EP */
    expect_map("GenuineIntel", 6, 0x55, "intel-skx", "Skylake-SP"); /* and Cascade Lake */
    expect_map("GenuineIntel", 6, 0x55, "intel-skx", "Cascade Lake");
    expect_map("GenuineIntel", 6, 0x6a, "intel-icx", "Ice Lake-SP");
    expect_map("GenuineIntel", 6, 0x8f, "intel-spr", "Sapphire Rapids");
    expect_map("AuthenticAMD", 0x17, 0x31, "amd-zen2", "Zen 2"); /* Rome */
    expect_map("AuthenticAMD", 0x17, 0x71, "amd-zen2", "Zen 2"); /* Matisse */
    expect_map("AuthenticAMD", 0x19, 0x01, "amd-zen3", "Zen 3"); /* Milan (this VM) */
    expect_map("AuthenticAMD", 0x19, 0x21, "amd-zen3", "Zen 3"); /* Vermeer */
    expect_map("AuthenticAMD", 0x19, 0x11, "amd-zen4", "Zen 4"); /* Genoa */
    expect_map("AuthenticAMD", 0x19, 0x61, "amd-zen4", "Zen 4"); /* Raphael */
    expect_map("AuthenticAMD", 0x1a, 0x02, "amd-zen5", "Zen 5"); /* Turin */
    expect_map("AuthenticAMD", 0x1a, 0x44, "amd-zen5", "Zen 5"); /* Granite Ridge */
    expect_map("AuthenticAMD", 0x17, 0x01, NULL, "Zen/Zen+");     /* Naples: no map */
    expect_map("GenuineIntel", 6, 0x97, NULL, "no events map for GenuineIntel family 0x6 "
               "model 0x97");                                     /* Alder Lake */
    expect_map("HygonGenuine", 0x18, 0x00, NULL, "no events map for HygonGenuine");
    expect_map("", 0, 0, NULL, "an unknown vendor");
}

static void test_cpuid_decode(void **state)
{
    unsigned family, model, stepping;
    (void)state;

    sb_cpu_id_decode(0x00a00f11, &family, &model, &stepping); /* EPYC 7xx3 (Milan) */
    assert_int_equal(family, 0x19);
    assert_int_equal(model, 0x01);
    assert_int_equal(stepping, 1);
    sb_cpu_id_decode(0x00050657, &family, &model, &stepping); /* Cascade Lake */
    assert_int_equal(family, 6);
    assert_int_equal(model, 0x55);
    assert_int_equal(stepping, 7);
    sb_cpu_id_decode(0x00040f12, &family, &model, &stepping); /* Opteron rev F */
    assert_int_equal(family, 0x0f);
    assert_int_equal(model, 0x41);
    sb_cpu_id_decode(0x00100f42, &family, &model, &stepping); /* Opteron 23xx (Shanghai) */
    assert_int_equal(family, 0x10);
    assert_int_equal(model, 0x04);
}

/* Every map the CPU table can name exists in configs/events and reads without error. */
static void test_shipped_maps(void **state)
{
    static const char *const maps[] = {"amd-k8", "amd-fam10h", "amd-zen2", "amd-zen3",
                                       "amd-zen4", "amd-zen5", "intel-core2", "intel-nehalem",
                                       "intel-skx", "intel-icx", "intel-spr"};
    (void)state;

    for (size_t i = 0; i < sizeof maps / sizeof maps[0]; i++) {
        struct sb_events_choice choice;
        struct sb_error err = {0};
        int status = sb_events_choose(maps[i], "test", &choice, &err);
        if (status != SB_OK)
            fail_msg("%s: %s", maps[i], err.msg);
        assert_non_null(choice.map);
        assert_string_equal(choice.map->name, maps[i]);
        assert_true(choice.map->description[0]);
        assert_true(choice.map->npmus > 0);
        /* cycles and instructions have events everywhere; every role is in every map */
        assert_true(choice.map->roles[SB_ROLE_CYCLES].nevents > 0);
        assert_true(choice.map->roles[SB_ROLE_INSTRUCTIONS].nevents > 0);
        for (int role = SB_ROLE_CYCLES; role <= SB_ROLE_MEM_WRITE_BYTES; role++)
            if (!choice.map->roles[role].line)
                fail_msg("%s: no [%s] section", maps[i], sb_role_names[role]);
        sb_events_choice_free(&choice);
    }
}

/* --- reading a map file --------------------------------------------------------------------- */

static const char good_map[] =
    "# a comment\n"
    "; another\n"
    "[map]\n"
    "description = a test map\n"
    "pmus = amd64_fam19h_zen3, perf\n"
    "\n"
    "[cycles]\n"
    "events = CYCLES_NOT_IN_HALT\n"
    "counts = cycles; with a semicolon = and an equals sign\n"
    "[mem_read_bytes]\n"
    "events = perf::TASK-CLOCK , perf::PAGE-FAULTS\n"
    "scale = 64\n"
    "counts = two events summed\n"
    "caveats = none really\n"
    "[l2_writeback]\n"
    "events = none\n"
    "reason = Zen has no such event\n";

static void test_read_good(void **state)
{
    struct sb_events_map map;
    struct sb_error err = {0};
    const char *path = write_file("good.ini", good_map);
    (void)state;

    if (sb_events_map_read(path, &map, &err) != SB_OK)
        fail_msg("%s", err.msg);
    assert_string_equal(map.name, "good");
    assert_string_equal(map.description, "a test map");
    assert_int_equal(map.npmus, 2);
    assert_string_equal(map.pmus[1], "perf");
    assert_int_equal(map.roles[SB_ROLE_CYCLES].line, 7);
    assert_int_equal(map.roles[SB_ROLE_CYCLES].nevents, 1);
    assert_true(map.roles[SB_ROLE_CYCLES].scale == 1.0);
    assert_string_equal(map.roles[SB_ROLE_CYCLES].counts,
                        "cycles; with a semicolon = and an equals sign");
    assert_int_equal(map.roles[SB_ROLE_MEM_READ_BYTES].nevents, 2);
    assert_string_equal(map.roles[SB_ROLE_MEM_READ_BYTES].events[0], "perf::TASK-CLOCK");
    assert_string_equal(map.roles[SB_ROLE_MEM_READ_BYTES].events[1], "perf::PAGE-FAULTS");
    assert_true(map.roles[SB_ROLE_MEM_READ_BYTES].scale == 64.0);
    assert_int_equal(map.roles[SB_ROLE_MEM_READ_BYTES].events_line, 11);
    assert_true(map.roles[SB_ROLE_L2_WRITEBACK].none);
    assert_string_equal(map.roles[SB_ROLE_L2_WRITEBACK].reason, "Zen has no such event");
    assert_int_equal(map.roles[SB_ROLE_L2_MISS].line, 0); /* not in the map */
#ifdef HAVE_LIBPFM
    assert_non_null(strstr(map.checked, "every event found in libpfm4"));
#else
    assert_string_equal(map.checked, "not checked: built without libpfm4");
#endif
}

/* A map read before in this process is not read again while its file is the same (device,
 * inode, size, modification time): text of the same size put in its place with the time set
 * back is not seen; a change of size is, and so is a new modification time. */
static void test_read_kept(void **state)
{
    struct sb_events_map map;
    struct sb_error err = {0};
    char text[4096], *at;
    const char *path = write_file("kept.ini", good_map);
    struct stat st;
    struct timespec times[2];
    (void)state;

    assert_true(strlen(good_map) + 4 < sizeof text);
    strcpy(text, good_map);
    at = strstr(text, "a test map");

    assert_int_equal(sb_events_map_read(path, &map, &err), SB_OK);
    assert_int_equal(stat(path, &st), 0);
    memcpy(at, "A TEST MAP", 10); /* the same size */
    write_file("kept.ini", text);
    times[0] = st.st_atim;
    times[1] = st.st_mtim;
    assert_int_equal(utimensat(AT_FDCWD, path, times, 0), 0);
    assert_int_equal(sb_events_map_read(path, &map, &err), SB_OK);
    assert_string_equal(map.description, "a test map"); /* kept: not read again */
    times[1].tv_sec += 1;
    assert_int_equal(utimensat(AT_FDCWD, path, times, 0), 0);
    assert_int_equal(sb_events_map_read(path, &map, &err), SB_OK);
    assert_string_equal(map.description, "A TEST MAP"); /* changed: read again */
    memcpy(at, "a  map    ", 10);
    strcat(text, "; \n");
    write_file("kept.ini", text);
    assert_int_equal(sb_events_map_read(path, &map, &err), SB_OK);
    assert_string_equal(map.description, "a  map"); /* another size: read again */
}

/* Values that go on over indented lines (a line holds at most 198 characters, inih's buffer):
 * text joined with a blank, lists one or more names a line, a comma allowed at a line's end;
 * each event remembers its own line. An inline comment (';' after a blank) is cut off a key
 * line. */
static void test_read_continued(void **state)
{
    struct sb_events_map map;
    struct sb_error err = {0};
    const char *path = write_file("continued.ini",
                                  "[map]\n"                                  /* 1 */
                                  "description = a map ; with a comment\n"   /* 2 */
                                  "    over two lines\n"                     /* 3 */
                                  "pmus = amd64_fam19h_zen3,\n"              /* 4 */
                                  "    perf\n"                               /* 5 */
                                  "[mem_read_bytes]\n"                       /* 6 */
                                  "events = perf::TASK-CLOCK,\n"             /* 7 */
                                  "    perf::PAGE-FAULTS\n"                  /* 8 */
                                  "\tperf::CPU-CLOCK\n"                      /* 9 */
                                  "counts = three events\n"                  /* 10 */
                                  "  summed\n"                               /* 11 */
                                  "[l2_writeback]\n"                         /* 12 */
                                  "events = none\n"                          /* 13 */
                                  "reason = Zen has\n"                       /* 14 */
                                  "  no such event\n");                      /* 15 */
    (void)state;

    if (sb_events_map_read(path, &map, &err) != SB_OK)
        fail_msg("%s", err.msg);
    assert_string_equal(map.description, "a map over two lines");
    assert_int_equal(map.npmus, 2);
    assert_string_equal(map.pmus[1], "perf");
    assert_int_equal(map.roles[SB_ROLE_MEM_READ_BYTES].nevents, 3);
    assert_string_equal(map.roles[SB_ROLE_MEM_READ_BYTES].events[2], "perf::CPU-CLOCK");
    assert_int_equal(map.roles[SB_ROLE_MEM_READ_BYTES].events_line, 7);
    assert_int_equal(map.roles[SB_ROLE_MEM_READ_BYTES].event_lines[0], 7);
    assert_int_equal(map.roles[SB_ROLE_MEM_READ_BYTES].event_lines[1], 8);
    assert_int_equal(map.roles[SB_ROLE_MEM_READ_BYTES].event_lines[2], 9);
    assert_string_equal(map.roles[SB_ROLE_MEM_READ_BYTES].counts, "three events summed");
    assert_string_equal(map.roles[SB_ROLE_L2_WRITEBACK].reason, "Zen has no such event");
    assert_int_equal(map.roles[SB_ROLE_L2_WRITEBACK].line, 12);
}

/* A map whose text is head + body: refused, naming the file, the line and part. */
static void expect_bad(const char *body, int line, const char *part)
{
    char text[2048], want[600];
    struct sb_events_map map;
    struct sb_error err = {0};
    const char *path;

    snprintf(text, sizeof text, "[map]\ndescription = d\npmus = amd64_fam19h_zen3\n%s", body);
    path = write_file("bad.ini", text);
    assert_int_equal(sb_events_map_read(path, &map, &err), SB_ERR_INPUT);
    if (line)
        snprintf(want, sizeof want, "%s:%d: ", path, line);
    else
        snprintf(want, sizeof want, "%s: ", path);
    if (strncmp(err.msg, want, strlen(want)) != 0 || !strstr(err.msg, part))
        fail_msg("got \"%s\", want \"%s...%s\"", err.msg, want, part);
}

static void test_read_bad(void **state)
{
    (void)state;
    expect_bad("[l2_misses]\nevents = X\ncounts = c\n", 4,
               "[l2_misses]: unknown section (known: [map], [cycles], [instructions], "
               "[l2_miss");
    expect_bad("[cycles]\nthis line is wrong\n", 5,
               "not a valid INI line (want key = value or [section])");
    expect_bad("[cycles\n", 4, "a section header without its ']'");
    expect_bad("[cycles]\nevent = CYCLES_NOT_IN_HALT\n", 5,
               "event: unknown key in [cycles] (known: events, scale, counts, caveats, reason)");
    expect_bad("[cycles]\nevents = CYCLES_NOT_IN_HALT\nevents = CYCLES_NOT_IN_HALT\n", 6,
               "cycles: events: set twice in [cycles] (first at line 5)");
    expect_bad("[cycles]\nevents = CYCLES_NOT_IN_HALT\ncounts = c\n[cycles]\n", 7,
               "[cycles]: section given twice");
    expect_bad("[cycles]\nevents = CYCLES_NOT_IN_HALT\nscale = -64\ncounts = c\n", 6,
               "cycles: scale: \"-64\" is not a positive number");
    expect_bad("[cycles]\nevents = CYCLES_NOT_IN_HALT\nscale = 64x\ncounts = c\n", 6,
               "cycles: scale: \"64x\" is not a positive number");
    expect_bad("[cycles]\nevents = CYCLES_NOT_IN_HALT\nscale = 1e308\ncounts = c\n", 6,
               "cycles: scale: \"1e308\" is out of range (above 1073741824)");
    expect_bad("[cycles]\nevents = CYCLES_NOT_IN_HALT\n", 4,
               "[cycles]: needs counts (what the events count");
    expect_bad("[cycles]\ncounts = c\n", 4, "[cycles]: no events (list them, or events = none");
    expect_bad("[l2_writeback]\nevents = none\n", 4,
               "[l2_writeback]: events = none needs a reason");
    expect_bad("[l2_writeback]\nevents = none\nscale = 64\nreason = r\n", 4,
               "[l2_writeback]: events = none takes a reason, not scale or counts");
    expect_bad("[l2_writeback]\nevents = X, none\ncounts = c\n", 5,
               "l2_writeback: events: \"none\" stands alone");
    expect_bad("[cycles]\nevents = CYCLES NOT IN HALT\ncounts = c\n", 5,
               "cycles: events: \"CYCLES NOT IN HALT\" is not an event name");
    expect_bad("[cycles]\nevents = A,,B\ncounts = c\n", 5, "cycles: events: \"\" is not an event");
    expect_bad("[cycles]\ncounts =\n", 5, "cycles: counts: empty value");
    expect_bad("[map]\n", 4, "[map]: section given twice");
    expect_bad("[cycles]\nevents = X\ncounts = c\n[nosuch]\n", 7,
               "[nosuch]: unknown section (known: [map], [cycles]");
    expect_bad("[cycles]\nevents = none\n  CYCLES_NOT_IN_HALT\nreason = r\n", 6,
               "cycles: events: \"none\" stands alone");
    expect_bad("[cycles]\nevents = CYCLES_NOT_IN_HALT\nscale = 6\n  4\ncounts = c\n", 7,
               "cycles: scale: \"4\": an indented line goes on with text or a list; a key of its "
               "own starts its line");
    expect_bad("[cycles]\nevents = CYCLES_NOT_IN_HALT\ncounts = c\ncaveats = "
               "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
               "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
               "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n", 7,
               "line longer than 198 characters (a long value goes on over indented lines)");
    /* issue 15: an indented key is refused (it was added to the value above); text is UTF-8
     * and fits its field (a continuation was cut silently); the whole file is read */
    expect_bad("[cycles]\nevents = CYCLES_NOT_IN_HALT\ncounts = c\n  caveats = x\n", 7,
               "counts: \"caveats = x\": an indented line goes on with the value above");
    expect_bad("[cycles]\nevents = CYCLES_NOT_IN_HALT\ncounts = c\xff\n", 6,
               "cycles: counts: not UTF-8 (a report holds UTF-8 text only)");
    expect_bad("[cycles]\nevents = CYCLES_NOT_IN_HALT\ncounts = c\n"
               "  xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n"
               "  xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n"
               "  xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n"
               "  xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n"
               "  xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n"
               "  xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n"
               "  xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n",
               13, "cycles: counts: longer than 511 bytes");
    expect_bad("[cycles] events = X\n", 4, "[cycles]: text after the section header");
    expect_bad("[cycles]\revents = X\r", 4, "a carriage return that does not end the line");
    expect_bad("  xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n", 4,
               "is not a PMU name (no spaces, under 48 characters)"); /* was cut to 47 */
    /* the first error in the file wins, whether inih or the map's checks find it */
    expect_bad("[cycles]\nthis line is wrong\nevents = A\nevents = B\n", 5, "not a valid INI line");
    {
        struct sb_events_map map;
        struct sb_error err = {0};
        const char *path = write_file("nomap.ini", "[cycles]\nevents = X\ncounts = c\n");
        assert_int_equal(sb_events_map_read(path, &map, &err), SB_ERR_INPUT);
        assert_non_null(strstr(err.msg, "no [map] section"));
        path = write_file("nosection.ini", "# c\nevents = X\n");
        assert_int_equal(sb_events_map_read(path, &map, &err), SB_ERR_INPUT);
        assert_non_null(strstr(err.msg, "nosection.ini:2: events: keys belong in a section "
                               "(known: [map], [cycles], "));
        path = write_file("nopmus.ini", "[map]\ndescription = d\n");
        assert_int_equal(sb_events_map_read(path, &map, &err), SB_ERR_INPUT);
        assert_non_null(strstr(err.msg, "[map] needs description and pmus"));
        assert_int_equal(sb_events_map_read("/nonexistent/x.ini", &map, &err), SB_ERR_INPUT);
        assert_non_null(strstr(err.msg, "/nonexistent/x.ini: cannot read"));
    }
}

/* Event names libpfm4's tables do not have: refused at read time (built with libpfm4). */
static void test_read_unknown_event(void **state)
{
    (void)state;
#ifdef HAVE_LIBPFM
    expect_bad("[cycles]\nevents = CYCLES_NOT_IN_HALTED\ncounts = c\n", 5,
               "cycles: \"CYCLES_NOT_IN_HALTED\": CYCLES_NOT_IN_HALTED is not an event of PMU "
               "amd64_fam19h_zen3 (libpfm4");
    expect_bad("[l2_miss]\nevents = CORE_TO_L2_CACHEABLE_REQUEST_ACCESS_STATUS:LS_RD_BLK_Q\n"
               "counts = c\n", 5, "has no unit mask or modifier \"LS_RD_BLK_Q\" in PMU "
               "amd64_fam19h_zen3");
    expect_bad("[cycles]\nevents = nosuchpmu::CYCLES\ncounts = c\n", 5,
               "nosuchpmu is not a PMU libpfm4");
    expect_bad("[cycles]\nevents = amd64_k8_revf::CYCLES_NOT_IN_HALT\ncounts = c\n", 5,
               "CYCLES_NOT_IN_HALT is not an event of PMU amd64_k8_revf");
#else
    skip();
#endif
}

/* --- the configs lookup --------------------------------------------------------------------- */

static void test_configs_find(void **state)
{
    char path[1024], dir[512];
    struct sb_error err = {0};
    const char *dirs[SB_CONFIGS_MAX_DIRS];
    (void)state;

    write_file("configs/events/mine.ini", good_map);
    snprintf(dir, sizeof dir, "%s/configs", sbtest_scratch);
    setenv("SCANBENCH_CONFIGS", dir, 1);
    assert_true(sb_configs_dirs(dirs) >= 1);
    assert_string_equal(dirs[0], dir);
    assert_int_equal(sb_configs_find("events", "mine", path, sizeof path, &err), SB_OK);
    assert_non_null(strstr(path, "/configs/events/mine.ini"));
    assert_int_equal(sb_configs_find("events", "mine.ini", path, sizeof path, &err), SB_OK);
    /* the environment comes first, the source tree after it */
    assert_int_equal(sb_configs_find("events", "amd-zen3", path, sizeof path, &err), SB_OK);
    assert_non_null(strstr(path, "configs/events/amd-zen3.ini"));
    assert_int_equal(sb_configs_find("events", "nosuch", path, sizeof path, &err), SB_ERR_INPUT);
    assert_non_null(strstr(err.msg, "nosuch: no such file in configs/events (tried "));
    assert_non_null(strstr(err.msg, dir));
    /* a name with a slash is a path */
    assert_int_equal(sb_configs_find("events", "./nosuch.ini", path, sizeof path, &err),
                     SB_ERR_INPUT);
    assert_non_null(strstr(err.msg, "./nosuch.ini: cannot read"));
    unsetenv("SCANBENCH_CONFIGS");
}

static void test_choose(void **state)
{
    struct sb_events_choice choice;
    struct sb_error err = {0};
    (void)state;

    assert_int_equal(sb_events_choose("nosuch", "--set events=nosuch", &choice, &err),
                     SB_ERR_INPUT);
    assert_non_null(strstr(err.msg, "--set events=nosuch: events: nosuch: no such file"));
    assert_null(choice.map);
    /* auto: this host's map, or none with the reason; never an error */
    assert_int_equal(sb_events_choose("auto", "default", &choice, &err), SB_OK);
    assert_non_null(strstr(choice.why, "auto: "));
    if (choice.map)
        assert_non_null(strstr(choice.why, " -> "));
    sb_events_choice_free(&choice);
}

/* --- the host's perf facts, from a fake tree ------------------------------------------------ */

static void test_perf_host(void **state)
{
    struct sb_perf_host h;
    char root[512], why[512];
    (void)state;

    snprintf(root, sizeof root, "%s/host1", sbtest_scratch);
    write_file("host1/proc/sys/kernel/perf_event_paranoid", "3\n");
    write_file("host1/proc/self/status", "Name: x\nCapEff:\t0000000000000000\n");
    write_file("host1/sys/bus/event_source/devices/software/type", "1\n");
    write_file("host1/sys/bus/event_source/devices/tracepoint/type", "2\n");
    sb_perf_host_detect(&h, root);
    assert_true(h.paranoid_known);
    assert_int_equal(h.paranoid, 3);
    assert_false(h.cap_perfmon);
    assert_false(h.kernel_core_pmu);
    sb_perf_host_obstacles(&h, false, why, sizeof why);
    assert_non_null(strstr(why, "the kernel registered no hardware PMU"));
    assert_non_null(strstr(why, "perf_event_paranoid is 3: counting needs <= 2 or CAP_PERFMON"));

    snprintf(root, sizeof root, "%s/host2", sbtest_scratch);
    write_file("host2/proc/sys/kernel/perf_event_paranoid", "1\n");
    write_file("host2/proc/self/status", "CapEff:\t0000000000000000\n");
    write_file("host2/sys/bus/event_source/devices/cpu/type", "4\n");
    sb_perf_host_detect(&h, root);
    assert_true(h.kernel_core_pmu);
    sb_perf_host_obstacles(&h, false, why, sizeof why);
    assert_string_equal(why, "");
    sb_perf_host_obstacles(&h, true, why, sizeof why);
    assert_non_null(strstr(why, "perf_event_paranoid is 1: CPU-wide (uncore) events need <= 0"));

    write_file("host2/proc/self/status", "CapEff:\t0000004000000000\n"); /* CAP_PERFMON */
    sb_perf_host_detect(&h, root);
    assert_true(h.cap_perfmon);
    sb_perf_host_obstacles(&h, true, why, sizeof why);
    assert_string_equal(why, "");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_map_for_cpu),
        cmocka_unit_test(test_cpuid_decode),
        cmocka_unit_test(test_shipped_maps),
        cmocka_unit_test(test_read_good),
        cmocka_unit_test(test_read_kept),
        cmocka_unit_test(test_read_continued),
        cmocka_unit_test(test_read_bad),
        cmocka_unit_test(test_read_unknown_event),
        cmocka_unit_test(test_configs_find),
        cmocka_unit_test(test_choose),
        cmocka_unit_test(test_perf_host),
    };
    return cmocka_run_group_tests_name("events", tests, sbtest_scratch_setup,
                                       sbtest_scratch_teardown);
}
