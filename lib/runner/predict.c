/* predict.c: a run's predicted seconds per timed scan on the machine it emulates (predict.h). */
#include "config.h"
#include "runner/predict.h"

#include <stdio.h>
#include <string.h>

double sb_op_host_ns_per_page(const struct sb_op *op, const struct sb_heap_layout *layout)
{
    (void)op;
    (void)layout;
    return 0;
}

int sb_predict_run(const struct sb_run_result *res, const struct sb_counters *c,
                   const struct sb_machine *m, double core_factor, struct sb_prediction *out)
{
    (void)res;
    (void)c;
    (void)core_factor;
    memset(out, 0, sizeof *out);
    snprintf(out->machine, sizeof out->machine, "%s", m ? m->name : "");
    snprintf(out->reason, sizeof out->reason, "not implemented yet");
    return SB_OK;
}

bool sb_predict_calibrate(const struct sb_prediction *p, double thread_seconds, double *factor,
                          char *reason, size_t reason_len)
{
    (void)p;
    (void)thread_seconds;
    *factor = 0;
    snprintf(reason, reason_len, "not implemented yet");
    return false;
}
