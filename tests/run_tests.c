/* Runs every Check suite of the kit; the exit status is non-zero when any test fails. */
#include "suites.h"

#include "sandbox/sandbox.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int run_in_kit(const char *command, int timeout_s, char **output)
{
    struct sandbox_outcome outcome;
    char *argv[] = {"/bin/sh", "-c", (char *)command, NULL};
    struct sandbox_policy policy = {.timeout_s = timeout_s, .output_limit = 1 << 20};
    sandbox_exec(argv, &policy, &outcome);
    *output = outcome.output ? outcome.output : strdup("");
    if (outcome.end == SANDBOX_SIGNALED)
        return 128 + outcome.code;
    if (outcome.end == SANDBOX_TIMED_OUT)
        return 124;
    return outcome.code;
}

double kit_points(void)
{
    double total = 0.0;
    for (size_t i = 0; i < registry_count(); i++)
        for (int kind = 0; kind < GRADE_TEST_KINDS; kind++)
            total += labs_test_points(registry_lab(i), (enum grade_test_kind)kind);
    return total;
}

int kit_tests(void)
{
    int count = 0;
    for (size_t i = 0; i < registry_count(); i++)
        for (int kind = 0; kind < GRADE_TEST_KINDS; kind++)
            count += kind != GRADE_TEST_SPEED && labs_test_name(registry_lab(i), (enum grade_test_kind)kind) != NULL;
    return count;
}

void kit_total(double score, char *text, size_t size)
{
    snprintf(text, size, "total: %.1f / %g points", score, kit_points());
}

int main(void)
{
    sandbox_init();
    Suite *(*const suites[])(void) = {
        clerr_suite,     device_suite,    timing_suite,  data_suite,      files_suite,     options_suite,
        reference_suite, problem_suite, verify_suite,    program_suite, labhost_suite,   compare_suite,   result_suite,
        safetext_suite,  report_suite,    cli_suite,     sandbox_suite,   labs_suite,      profile_suite,
        calibrate_suite, perf_suite,      export_suite,  bench_suite,     workflows_suite, docs_suite, solutions_suite,
        grade_suite,     batch_suite, slurm_suite, html_suite, runner_suite,  gradescope_suite, release_suite,  sanitize_suite,
        technique_suite, counts_suite, layout_suite, harness_suite, mismatch_suite, text_suite, registry_suite, rules_suite,     scratch_suite, session_suite, predict_suite,
    };
    SRunner *runner = srunner_create(suites[0]());
    int failed;
    for (size_t i = 1; i < sizeof suites / sizeof suites[0]; i++)
        srunner_add_suite(runner, suites[i]());
    srunner_run_all(runner, CK_NORMAL);
    failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
