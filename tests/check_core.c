/* grader/sandbox/core.c: the core layer, in the table, and reaching confined code alone. */
#include "suites.h"

#include "sandbox/layers.h"
#include "sandbox/sandbox.h"

#include <stdlib.h>
#include <string.h>

static long core_limit_of(int untrusted)
{
    struct sandbox_policy policy = {.untrusted = untrusted, .timeout_s = 10, .output_limit = 4096, .writable = "/tmp"};
    struct sandbox_outcome outcome;
    char *argv[] = {"/bin/sh", "-c", "ulimit -c", NULL};
    long limit;
    sandbox_exec(argv, &policy, &outcome);
    ck_assert_msg(outcome.output, "no output");
    limit = strncmp(outcome.output, "unlimited", 9) == 0 ? -1 : atol(outcome.output);
    sandbox_outcome_free(&outcome);
    return limit;
}

/* With the grader's own core limit raised as far as it may go, untrusted code may leave no core file, and the
   grader's own tools keep the grader's limit (when the machine allows any core file at all). */
START_TEST(confined_code_leaves_no_core_file)
{
    struct rlimit own;
    int found = 0;
    for (int i = 0; sandbox_layer_table[i]; i++)
        found += strcmp(sandbox_layer_table[i]->name, "core") == 0;
    ck_assert_int_eq(found, 1);
    getrlimit(RLIMIT_CORE, &own);
    own.rlim_cur = own.rlim_max;
    setrlimit(RLIMIT_CORE, &own);
    ck_assert_int_eq(core_limit_of(1), 0);
    if (own.rlim_max != 0)
        ck_assert_int_ne(core_limit_of(0), 0);
}
END_TEST

Suite *core_suite(void)
{
    Suite *s = suite_create("core");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, confined_code_leaves_no_core_file);
    suite_add_tcase(s, tc);
    return s;
}
