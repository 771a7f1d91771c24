/* SPDX-License-Identifier: BSD-3-Clause */
/* fuzz_events.c: fuzz target: the input as an events map file (lib/counters/events_map.c, with the
 * event names checked against libpfm4's tables when built with libpfm4). */
#include "config.h"
#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "counters/events_map.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct sb_events_map *map = malloc(sizeof *map);
    struct sb_error err = {0};
    char *bytes = malloc(size + 1);
    FILE *f = NULL;
    int status;

    if (!map || !bytes)
        goto out;
    if (size)
        memcpy(bytes, data, size);
    /* fmemopen refuses zero bytes: the empty file is /dev/null */
    f = size ? fmemopen(bytes, size, "r") : fopen("/dev/null", "r");
    if (!f)
        goto out;
    status = sb_events_map_read_stream(f, "fuzz.ini", map, &err);
    sb_fuzz_check_status(status, &err);
    if (status == SB_OK) { /* what the report and `scanbench events` show */
        sb_fuzz_check_utf8(map->description);
        for (int r = 0; r < SB_NROLES; r++) {
            sb_fuzz_check_utf8(map->roles[r].counts);
            sb_fuzz_check_utf8(map->roles[r].caveats);
            sb_fuzz_check_utf8(map->roles[r].reason);
        }
    }
out:
    if (f)
        fclose(f);
    free(bytes);
    free(map);
    return 0;
}
