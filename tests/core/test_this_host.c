/* SPDX-License-Identifier: BSD-3-Clause */
/* test_this_host.c: the one rule for a machine that is this host (lib/core/this_host.h): named
 * `auto`, or with a source `scanbench probe` wrote; an emulated machine is not. */
#include "config.h"
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "core/core.h"

static void the_rule(void **state)
{
    (void)state;
    assert_true(sb_machine_names_this_host("auto", ""));
    assert_true(sb_machine_names_this_host("probe2", "geometry: the host's topology (hwloc, "
                                           "else sysfs, else CPUID); costs: scanbench probe "
                                           "(each value's source)"));
    assert_false(sb_machine_names_this_host("x4500", "Sun Fire X4500 data sheet; AMD 25112"));
    assert_false(sb_machine_names_this_host("autox", ""));
    assert_false(sb_machine_names_this_host(NULL, NULL));
    assert_false(sb_machine_names_this_host("", "scanbench"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(the_rule)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
