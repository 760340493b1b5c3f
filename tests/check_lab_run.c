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

/* The implementation's own words of giving up, as PoCL prints them (3.1's assertion, 5.0's kernel binary it cannot
   load), are found, the most telling line first; a kernel's own printf of other text is not. */
static const struct {
    const char *output, *found;
} give_ups[] = {
    {"x\npocl/lib/llvmopencl/Workgroup.cc:530: f: Assertion `x' failed.\n",
     "pocl/lib/llvmopencl/Workgroup.cc:530: f: Assertion `x' failed."},
    {"[2026] pocl error: dlopen(\"/tmp/k/transpose.so\") failed: /tmp/k/transpose.so: undefined symbol: "
     "_Z21async_work_group_copy\nnote: missing symbols in the kernel binary might be reported as 'file not found'\n",
     "[2026] pocl error: dlopen(\"/tmp/k/transpose.so\") failed: /tmp/k/transpose.so: undefined symbol: "
     "_Z21async_work_group_copy"},
    {"note: missing symbols in the kernel binary might be reported as 'file not found'",
     "note: missing symbols in the kernel binary might be reported as 'file not found'"},
    {"Assertion `x' is what my kernel prints\nall done\n", ""},
    {"", ""},
};

START_TEST(an_implementation_giving_up_is_found_in_its_words)
{
    char text[256];
    runlab_find_give_up(give_ups[_i].output, text, sizeof text);
    ck_assert_str_eq(text, give_ups[_i].found);
}
END_TEST

Suite *lab_run_suite(void)
{
    Suite *s = suite_create("lab_run");
    TCase *tc = tcase_create("limits");
    tcase_add_test(tc, the_reference_judge_is_not_held_to_timeout);
    tcase_add_loop_test(tc, an_implementation_giving_up_is_found_in_its_words, 0,
                        (int)(sizeof give_ups / sizeof give_ups[0]));
    suite_add_tcase(s, tc);
    return s;
}
