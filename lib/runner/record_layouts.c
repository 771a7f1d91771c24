/* SPDX-License-Identifier: BSD-3-Clause */
/* record_layouts.c: the report's layouts: each one's draw and physical frames, and the
 * schedule's layout block. */
#include "config.h"
#include "runner/record_layouts.h"

#include <math.h>

#include "host/host.h"

static json_t *frames_json(const struct sb_frames *f)
{
    if (!f->available)
        return json_pack("{s:b, s:s}", "available", 0, "why", f->why);
    return json_pack("{s:b, s:I, s:I, s:f, s:i, s:i, s:i, s:f, s:o, s:I, s:I}", "available", 1,
                     "pages", (json_int_t)f->pages, "resolved", (json_int_t)f->resolved,
                     "contiguous", f->contiguous, "colours", (int)f->colours, "colour_min",
                     (int)f->colour_min, "colour_max", (int)f->colour_max, "colour_cv",
                     f->colour_cv, "huge_pages",
                     f->huge_pages == UINT64_MAX ? json_null()
                                                 : json_integer((json_int_t)f->huge_pages),
                     "pfn_min", (json_int_t)f->pfn_min, "pfn_max", (json_int_t)f->pfn_max);
}

json_t *sb_report_layouts_json(const struct sb_run_result *res, double t0)
{
    json_t *list = json_array();

    for (uint32_t k = 0; list && k < res->nlayouts; k++) {
        const struct sb_layout_record *l = &res->layouts[k];
        json_t *one = json_pack("{s:i, s:i, s:f, s:f, s:s, s:o}", "index", (int)l->index,
                                "first_round", (int)l->first_round, "at", l->at - t0,
                                "seconds", l->seconds, "pages", l->pages, "frames",
                                frames_json(&l->frames));
        if (!one || json_array_append_new(list, one) != 0) {
            json_decref(list);
            return NULL;
        }
    }
    return list;
}

json_t *sb_report_layout_json(const struct sb_schedule_params *s, uint32_t layouts,
                              uint32_t layout_rounds, double draws_seconds)
{
    bool drawn = sb_schedule_draws_layouts(s);

    return json_pack("{s:s, s:i, s:o, s:s, s:f, s:s}", "kind", sb_layout_names[s->layout],
                     "layouts", (int)layouts, "rounds_per_layout",
                     drawn ? json_integer(layout_rounds) : json_null(), "rounds_from",
                     !drawn ? "none: one layout per run"
                     : s->layout_rounds ? "layout_rounds"
                                        : "auto: 2, then as many as keep the draws within a "
                                          "tenth of the rounds' time",
                     "draws_seconds", draws_seconds, "how",
                     !drawn ? "each run's pools allocated once, the reference's apart"
                            : "before a layout's first round, every run's pools and the "
                              "reference's are copied, in an order shuffled by the schedule's "
                              "seed, into fresh mappings and the old ones unmapped, so that "
                              "the kernel hands out other frames; the first layout is the "
                              "pools as prepared, in the same shuffled order");
}
