#include "suites.h"

#include "judge/lab_run.h"
#include "labs/registry.h"

/* Under the reference judge a case's limit comes from its simulated work, never from --timeout: lab 9's largest
   small cases take Oclgrind several seconds of CPU time (more on a busy machine), and a right kernel cut short there
   would be judged to hang. On a device, --timeout bounds every case. */
START_TEST(the_reference_judge_is_not_held_to_timeout)
{
    static struct grading g;
    struct lab_run r = {.g = &g, .lab = registry_find("lab9"), .mode = RUNLAB_REFERENCE};
    struct grade_case big = {.data = GRADE_EXACT, .dims = {65, 68}, .local = {16, 16}, .tile = 64, .wpt = 4};
    g.config.timeout_s = 5;
    ck_assert_double_ge(runlab_case_limit(&r, &big), REFERENCE_FLOOR_S);
    r.mode = RUNLAB_GRADE;
    ck_assert_double_le(runlab_case_limit(&r, &big), 5.0);
}
END_TEST

Suite *lab_run_suite(void)
{
    Suite *s = suite_create("lab_run");
    TCase *tc = tcase_create("limits");
    tcase_add_test(tc, the_reference_judge_is_not_held_to_timeout);
    suite_add_tcase(s, tc);
    return s;
}
