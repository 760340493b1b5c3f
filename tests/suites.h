/* The Check suites, one per source module; tests/run_tests.c runs them all. */
#ifndef CLKIT_TESTS_SUITES_H
#define CLKIT_TESTS_SUITES_H

#include "labs/registry.h"

#include <check.h>

/* Lab n's place in the tables indexed by lab (a profile's rules), which the registry orders. */
#define LAB(n) registry_index(registry_find("lab" #n))

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
Suite *layout_suite(void);
Suite *harness_suite(void);
Suite *mismatch_suite(void);
Suite *problem_suite(void);
Suite *text_suite(void);
Suite *registry_suite(void);
Suite *batch_suite(void);
Suite *slurm_suite(void);
Suite *html_suite(void);
Suite *runner_suite(void);
Suite *gradescope_suite(void);
Suite *safetext_suite(void);
Suite *rules_suite(void);
Suite *scratch_suite(void);
Suite *session_suite(void);
Suite *release_suite(void);
Suite *workflows_suite(void);
Suite *docs_suite(void);
Suite *solutions_suite(void);
Suite *grade_suite(void);
Suite *predict_suite(void);

/* The maximum of every lab together, and the number of tests that count (not the informational speed tests):
   what "all" is graded out of. */
double kit_points(void);
int kit_tests(void);

/* Writes "total: SCORE / MAX points" for a run of every lab that scored score, as the report prints it. */
void kit_total(double score, char *text, size_t size);

/* Runs a shell command from the kit's root with a time limit; returns its exit status (or 128+signal) and its output. */
int run_in_kit(const char *command, int timeout_s, char **output);

#endif
