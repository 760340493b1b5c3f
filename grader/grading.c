#include "grading.h"

#include "device.h"
#include "export.h"
#include "files.h"
#include "hostprog.h"
#include "runlab.h"
#include "sandbox.h"
#include "sanitize.h"
#include "technique.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Progress while a lab's child works: the newest progress record, on one terminal line. */
static void show_progress(void *context, const char *data, size_t length)
{
    struct grading *g = context;
    const char *p = NULL;
    for (size_t i = 0; i + 1 < length; i++)
        if (data[i] == 'P' && data[i + 1] == '\x1f' && (i == 0 || data[i - 1] == '\x1e'))
            p = data + i + 2;
    if (p && g->style.colour) {
        int n = 0;
        while (p + n < data + length && p[n] != '\x1e')
            n++;
        fprintf(g->style.out, "\r  \u2026 %.*s\033[K", n, p);
        fflush(g->style.out);
    }
}

/* Blames the test that was running for a crash or time-out, and marks the rest as not run. */
static void account_for_end(const struct sandbox_outcome *outcome, const struct grade_lab_spec *lab, int timeout_s,
                            int with_perf, struct grade_lab_result *result)
{
    const char *names[RUNLAB_TEST_COUNT + 1];
    const double points[RUNLAB_TEST_COUNT + 1] = {lab->points.build, lab->points.exact, lab->points.real,
                                                  lab->points.memory, 0.0};
    int expected = RUNLAB_TEST_COUNT + (with_perf ? 1 : 0), reported = result->test_count;
    char how[256], reason[512];
    if (result->setup_error || reported >= expected)
        return;
    memcpy(names, runlab_test_names, RUNLAB_TEST_COUNT * sizeof *names);
    names[RUNLAB_TEST_COUNT] = runlab_perf_name(lab);
    sandbox_describe(outcome, timeout_s, how, sizeof how);
    for (int t = reported; t < expected; t++) {
        if (strcmp(names[t], result->running) == 0 || (t == reported && !result->running[0]))
            snprintf(reason, sizeof reason, "the kernel %s during this test%s%s", how,
                     result->progress[0] ? ", at " : "", result->progress);
        else
            snprintf(reason, sizeof reason, "not run: the kernel %s in an earlier test", how);
        result_add(result, names[t], 0, points[t], 0, reason);
    }
}

static void kernel_tests(struct grading *g, const struct grade_lab_spec *lab, uint64_t seed,
                         struct grade_lab_result *result)
{
    char kernel_path[PATH_MAX + 64], replay[PATH_MAX + 128];
    struct sandbox_outcome outcome;
    struct lab_job job = {.lab = lab, .kernel_path = kernel_path, .device = g->cli->device, .seed = seed,
                          .only_case = g->cli->only_case, .verbose = g->cli->verbose, .replay = replay,
                          .quick = g->cli->quick, .kernels_dir = g->kernels_dir,
                          .profiles_dir = g->profiles_dir, .sanitizer_run = g->cli->sanitizer_run, .technique_run = g->cli->technique_run};
    snprintf(kernel_path, sizeof kernel_path, "%s/%s/%s", g->source_dir, lab->name, lab->kernel_file);
    snprintf(replay, sizeof replay, "./grade %s%s%s%s%s%s", lab->name, g->cli->solutions ? " --solutions" : "",
             g->submission ? " --submission " : "", g->submission ? g->source_dir : "",
             g->cli->device ? " --device " : "", g->cli->device ? g->cli->device : "");
    sandbox_run(runlab_child, &job, g->cli->timeout_s, show_progress, g, &outcome);
    if (g->style.colour)
        fprintf(g->style.out, "\r\033[K");
    record_parse(outcome.output ? outcome.output : "", outcome.output_length, result);
    account_for_end(&outcome, lab, g->cli->timeout_s, !g->cli->quick && g->cli->only_case < 0, result);
    sandbox_outcome_free(&outcome);
}

/* Builds a submission's host program through the kit's Makefile into binary; on failure says why in reason. */
static int build_submission_host(struct grading *g, const struct grade_lab_spec *lab, char *binary, size_t size,
                                 char *reason, size_t reason_size)
{
    char source[PATH_MAX + 32], out_arg[PATH_MAX + 128], src_arg[PATH_MAX + 64], *absolute;
    struct sandbox_outcome outcome;
    char *argv[] = {"make", "-s", "--no-print-directory", "-C", g->root, src_arg, out_arg, "submission-host", NULL};
    int rc = 0;
    snprintf(source, sizeof source, "%s/%s/host.c", g->source_dir, lab->name);
    snprintf(binary, size, "%s/submission/%s/host", g->scratch, lab->name);
    if (!(absolute = realpath(source, NULL))) {
        snprintf(reason, reason_size, "%s is missing: the submission has no host program", source);
        return -1;
    }
    snprintf(src_arg, sizeof src_arg, "SUB_SRC=%s", absolute);
    snprintf(out_arg, sizeof out_arg, "SUB_OUT=%s", binary);
    free(absolute);
    sandbox_exec(argv, 300, 1 << 16, &outcome);
    if (outcome.end != SANDBOX_EXITED || outcome.code != 0) {
        snprintf(reason, reason_size, "%s does not compile:\n%s", source, outcome.output ? outcome.output : "");
        rc = -1;
    }
    sandbox_outcome_free(&outcome);
    return rc;
}

static void host_test(struct grading *g, const struct grade_lab_spec *lab, uint64_t seed,
                      struct grade_lab_result *result)
{
    char binary[PATH_MAX + 64], reason[8192];
    struct hostprog_job job = {lab, binary, g->cli->device, seed, g->cli->timeout_s, g->scratch};
    if (g->submission) {
        if (build_submission_host(g, lab, binary, sizeof binary, reason, sizeof reason) != 0) {
            result_add(result, "host program", 0, lab->points.host, 0, reason);
            return;
        }
    } else {
        snprintf(binary, sizeof binary, "%s/build/%s/%s/host", g->root, g->cli->solutions ? "solutions" : "labs",
                 lab->name);
    }
    hostprog_test(&job, result);
}

/* --sanitize: the lab's small cases under Oclgrind, as a test of its own that fails on any finding. */
static void sanitizer_test(struct grading *g, const struct grade_lab_spec *lab, struct grade_lab_result *result)
{
    static char text[16384], reason[16500];
    int found;
    struct grade_test *test;
    if (!sanitize_available()) {
        test = result_add(result, "sanitizer", 0, 0, 1,
                          "not run: Oclgrind is not installed (sudo apt-get install oclgrind)");
        if (test)
            test->informational = 1;
        return;
    }
    found = sanitize_lab(g, lab, g->cli->only_case, 4 * g->cli->timeout_s + 30, text, sizeof text);
    if (found < 0)
        snprintf(reason, sizeof reason, "Oclgrind could not check the kernel: %s", text);
    else if (found == 0)
        snprintf(reason, sizeof reason, "Oclgrind found no data race, out-of-bounds access or uninitialised value");
    else
        snprintf(reason, sizeof reason, "Oclgrind found %d problem%s:\n%s", found, found == 1 ? "" : "s", text);
    result_add(result, "sanitizer", 0, 0, found == 0, reason);
}

/* When a correctness or memory test failed, runs its first failing case under Oclgrind (if installed) and adds
   what it found to the explanation: "data race on local memory at reduce.cl:14" says more than a wrong sum. */
static void explain_failure(struct grading *g, const struct grade_lab_spec *lab, struct grade_lab_result *result)
{
    static char text[8192];
    for (int t = 1; t < result->test_count && t < RUNLAB_TEST_COUNT; t++) {
        struct grade_test *test = &result->tests[t];
        const char *at = test->reason ? strstr(test->reason, "\ncase ") : NULL;
        long the_case;
        char *longer;
        if (test->passed || !at || sscanf(at, "\ncase %ld", &the_case) != 1 || !sanitize_available())
            continue;
        /* A simulated work-item is slow: an explanation that takes longer than this is not worth the wait. */
        if (sanitize_lab(g, lab, the_case, 20, text, sizeof text) <= 0)
            return;
        longer = malloc(strlen(test->reason) + strlen(text) + 64);
        if (!longer)
            return;
        sprintf(longer, "%s\nOclgrind on case %ld:\n%s", test->reason, the_case, text);
        free(test->reason);
        test->reason = longer;
        return;
    }
}

/* Grades one lab into result; returns 2 on a set-up error, else 0. */
static int grade_lab(struct grading *g, const struct grade_lab_spec *lab, uint64_t seed,
                     struct grade_lab_result *result)
{
    char kernel_path[PATH_MAX + 64];
    snprintf(result->lab, sizeof result->lab, "%s", lab->name);
    snprintf(kernel_path, sizeof kernel_path, "%s/%s/%s", g->source_dir, lab->name, lab->kernel_file);
    if (!clk_file_exists(kernel_path)) {
        char message[PATH_MAX + 128];
        snprintf(message, sizeof message, "cannot grade %s: %s is missing (each lab folder holds %s and host.c)",
                 lab->name, kernel_path, lab->kernel_file);
        result->setup_error = strdup(message);
        return 2;
    }
    kernel_tests(g, lab, seed, result);
    if (result->setup_error)
        return 2;
    if (g->cli->sanitizer_run)
        return 0;
    if (g->cli->sanitize)
        sanitizer_test(g, lab, result);
    else
        explain_failure(g, lab, result);
    if (!g->cli->quick && g->cli->only_case < 0 && lab->technique.kind != TECHNIQUE_NONE)
        technique_test(g, lab, result);
    if (g->cli->only_case < 0)
        host_test(g, lab, seed, result);
    return 0;
}

int grading_open(struct grading *g)
{
    const char *root = getenv("CLKIT_ROOT");
    char *resolved = realpath(root && root[0] ? root : CLK_ROOT, NULL);
    if (!resolved) {
        fprintf(stderr, "grade: cannot find the kit at %s (set CLKIT_ROOT)\n", root && root[0] ? root : CLK_ROOT);
        return 2;
    }
    snprintf(g->root, sizeof g->root, "%s", resolved);
    snprintf(g->kernels_dir, sizeof g->kernels_dir, "%s/kernels", resolved);
    snprintf(g->profiles_dir, sizeof g->profiles_dir, "%s/grader/profiles", resolved);
    free(resolved);
    snprintf(g->scratch, sizeof g->scratch, "/tmp/clkit-grade-XXXXXX");
    if (!mkdtemp(g->scratch)) {
        fprintf(stderr, "grade: cannot create a temporary directory in /tmp\n");
        return 2;
    }
    return 0;
}

void grading_close(struct grading *g)
{
    char command[128];
    snprintf(command, sizeof command, "rm -rf '%s'", g->scratch);
    if (g->scratch[0] && system(command) != 0)
        fprintf(stderr, "grade: could not remove %s\n", g->scratch);
}

int grading_set_source(struct grading *g, const char *submission)
{
    char *resolved;
    size_t length;
    g->submission = submission;
    if (!submission) {
        snprintf(g->source_dir, sizeof g->source_dir, "%s", g->cli->solutions ? "solutions" : "labs");
        if (chdir(g->root) != 0) {
            fprintf(stderr, "grade: cannot enter the kit at %s (set CLKIT_ROOT)\n", g->root);
            return 2;
        }
        return 0;
    }
    length = strlen(submission);
    while (length > 1 && submission[length - 1] == '/')
        length--;
    snprintf(g->source_dir, sizeof g->source_dir, "%.*s", (int)length, submission);
    if (!(resolved = realpath(g->source_dir, NULL))) {
        fprintf(stderr, "grade: cannot open the submission directory '%s'\n", submission);
        return 2;
    }
    free(resolved);
    return 0;
}

int grading_run(struct grading *g, struct grade_lab_result *results)
{
    int all_passed = 1, setup_failed = 0;
    fprintf(g->style.out, "grading %s with seed %llu (replay with --seed %llu)\n\n", g->source_dir,
            (unsigned long long)g->seed, (unsigned long long)g->seed);
    for (int i = 0; i < g->cli->lab_count; i++) {
        const struct grade_lab_spec *lab = grade_find_lab(g->cli->labs[i]);
        setup_failed |= grade_lab(g, lab, g->seed, &results[i]) != 0;
        report_lab(&g->style, lab->title, &results[i]);
        for (int t = 0; t < results[i].test_count; t++)
            all_passed &= results[i].tests[t].passed || results[i].tests[t].informational;
    }
    report_total(&g->style, results, g->cli->lab_count);
    return setup_failed ? 2 : all_passed ? 0 : 1;
}

double grading_seconds_since(const struct timespec *start)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - start->tv_sec) + (now.tv_nsec - start->tv_nsec) * 1e-9;
}

int grading_write_results(const struct grading *g, const struct grade_lab_result *results, double seconds,
                          const char *json, const char *junit)
{
    const char *titles[CLI_MAX_LABS];
    char summary[PATH_MAX + 128];
    struct export_run run = {results, titles, g->cli->lab_count, seconds, summary};
    int rc = 0;
    for (int i = 0; i < g->cli->lab_count; i++)
        titles[i] = grade_find_lab(g->cli->labs[i])->title;
    snprintf(summary, sizeof summary, "clkit grader: %s graded with seed %llu", g->source_dir,
             (unsigned long long)g->seed);
    if (json)
        rc |= export_json_file(json, &run);
    if (junit)
        rc |= export_junit_file(junit, &run);
    return rc ? 2 : 0;
}
