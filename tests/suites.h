/* The Check suites, one per source module; tests/run_tests.c runs them all. */
#ifndef CLKIT_TESTS_SUITES_H
#define CLKIT_TESTS_SUITES_H

#include <check.h>

Suite *clerr_suite(void);
Suite *device_suite(void);
Suite *timing_suite(void);
Suite *data_suite(void);
Suite *files_suite(void);
Suite *options_suite(void);
Suite *reference_suite(void);
Suite *verify_suite(void);
Suite *program_suite(void);
Suite *labhost_suite(void);
Suite *compare_suite(void);
Suite *result_suite(void);
Suite *report_suite(void);
Suite *cli_suite(void);
Suite *sandbox_suite(void);
Suite *labs_suite(void);
Suite *profile_suite(void);
Suite *calibrate_suite(void);
Suite *perf_suite(void);
Suite *export_suite(void);
Suite *bench_suite(void);
Suite *sanitize_suite(void);
Suite *technique_suite(void);
Suite *counts_suite(void);
Suite *batch_suite(void);
Suite *runner_suite(void);
Suite *gradescope_suite(void);
Suite *safetext_suite(void);
Suite *rules_suite(void);
Suite *scratch_suite(void);
Suite *release_suite(void);
Suite *workflows_suite(void);
Suite *docs_suite(void);
Suite *solutions_suite(void);
Suite *grade_suite(void);

/* Runs a shell command from the kit's root with a time limit; returns its exit status (or 128+signal) and its output. */
int run_in_kit(const char *command, int timeout_s, char **output);

#endif
