#include "pipeline.h"

#include "judge/device_lock.h"
#include "judge/device_test.h"
#include "judge/host_test.h"
#include "judge/prediction_test.h"
#include "judge/compiler_recheck.h"
#include "labs/registry.h"
#include "judge/lab_run.h"
#include "judge/reference_judge.h"
#include "judge/technique_test.h"
#include "judge/verdict.h"
#include "report/export.h"
#include "report/report.h"
#include "sandbox/layers.h"
#include "sandbox/sandbox.h"
#include "sandbox/scratch.h"
#include "timing.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Adds every test of lab that result lacks, failed with why and its full points (speed: the course's, pending
   where pending_speed says it was left untimed by choice, such as --quick), and puts the tests in report order,
   so that a lab's maximum is the same whatever ran. */
static void complete_lab(const struct grading *g, const struct grade_lab_spec *lab, const char *why,
                         int pending_speed, struct grade_lab_result *result)
{
    struct grade_test ordered[GRADE_MAX_TESTS];
    int count = 0;
    for (int kind = 0; kind < GRADE_TEST_KINDS; kind++) {
        const char *name = labs_test_name(lab, (enum grade_test_kind)kind);
        int found = 0;
        for (int t = 0; name && t < result->test_count; t++)
            found |= strcmp(result->tests[t].name, name) == 0;
        if (name && !found) {
            double points = kind == GRADE_TEST_SPEED ? course_speed_points(&g->course, lab)
                                                     : labs_test_points(lab, (enum grade_test_kind)kind);
            struct grade_test *test = result_add(result, name, 0, points, 0, why);
            if (test && kind == GRADE_TEST_SPEED) {
                test->informational = points <= 0;
                test->pending = points > 0 && pending_speed;
            }
        }
    }
    for (int kind = 0; kind < GRADE_TEST_KINDS; kind++)
        for (int t = 0; t < result->test_count; t++)
            if (labs_test_name(lab, (enum grade_test_kind)kind) &&
                strcmp(result->tests[t].name, labs_test_name(lab, (enum grade_test_kind)kind)) == 0)
                ordered[count++] = result->tests[t];
    for (int t = 0; t < result->test_count; t++) /* anything else keeps its place at the end */
        if (!labs_has_test(lab, result->tests[t].name))
            ordered[count++] = result->tests[t];
    memcpy(result->tests, ordered, (size_t)count * sizeof ordered[0]);
    result->test_count = count;
}

/* From this many cores, the reference judge and the host program run beside the device's cases. */
#ifndef BESIDE_CORES
#define BESIDE_CORES 4
#endif

/* Removes the lab's run folders, keeping the device's kernel caches for the next run where keep is set. */
static void close_runs(struct grading *g, const struct grade_lab_spec *lab, int keep)
{
    const char *suffixes[] = {"", RUNLAB_REFERENCE_RUN, HOSTPROG_RUN};
    for (size_t i = 0; i < sizeof suffixes / sizeof *suffixes; i++) {
        char name[64];
        snprintf(name, sizeof name, "%s%s", lab->name, suffixes[i]);
        scratch_close_run(g->root, g->scratch, name, keep ? lab->kernel_name : NULL);
    }
}

/* What the judges beside the device's hand back, through shared memory: the reference judge's verdicts and the
   host-program test. */
struct beside {
    struct reference ref;
    struct case_log log;
    struct grade_test host[2]; /* the host program, and lab 12's schedule (its technique) */
    char host_reason[2][8192];
    int host_done;             /* how many of host[] were filled */
};

static void reference_beside(struct grading *g, const struct grade_lab_spec *lab, uint64_t seed, struct beside *b)
{
    int simulated = g->config.simulated;
    b->ref.log = &b->log;
    /* The simulator launches work-groups of 1024, so its list holds the device's cases and larger tiles; --case
       names a case of the device's list. */
    reference_judge_run(g, lab, seed,
                        g->config.only_case >= 0 && !simulated ? GRADE_PORTABLE_LOCAL : GRADE_REFERENCE_LOCAL,
                        g->config.only_case, &b->ref);
}

static void host_beside(struct grading *g, const struct grade_lab_spec *lab, uint64_t seed, struct beside *b)
{
    struct hostprog_job job = {.g = g, .lab = lab, .seed = seed};
    struct grade_lab_result r;
    memset(&r, 0, sizeof r);
    host_test_run(&job, &r);
    for (int t = 0; t < r.test_count && t < 2; t++) {
        b->host[t] = r.tests[t];
        snprintf(b->host_reason[t], sizeof b->host_reason[t], "%s", r.tests[t].reason ? r.tests[t].reason : "");
        b->host[t].reason = NULL;
        b->host_done = t + 1;
    }
    result_free(&r);
}

/* Runs work in a judge of its own beside this one (a fork: trusted code, no submitted code in it); returns its
   pid, or -1 when it could not start (the caller then does the work itself). */
static pid_t start_beside(struct grading *g, const struct grade_lab_spec *lab, uint64_t seed, struct beside *b,
                          void (*work)(struct grading *, const struct grade_lab_spec *, uint64_t, struct beside *))
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        sandbox_init(); /* what its confined runs leave behind comes back to it */
        g->style.colour = 0;
        work(g, lab, seed, b);
        sandbox_kill_orphans();
        _exit(0);
    }
    if (pid > 0)
        sandbox_keep(pid, 1);
    return pid;
}

static void wait_beside(pid_t pid)
{
    if (pid <= 0)
        return;
    while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
        ;
    sandbox_keep(pid, 0);
}

/* A speed measured on a kernel that the reference judge then failed is not the speed of a right kernel: it is
   withdrawn, so that no figure stands beside a wrong result. */
static void withdraw_speed(const struct grade_lab_spec *lab, struct grade_lab_result *result)
{
    const char *name = labs_test_name(lab, GRADE_TEST_SPEED);
    for (int t = 0; name && t < result->test_count; t++) {
        struct grade_test *test = &result->tests[t];
        char *reason = strdup("not reported: the kernel fails a correctness test above (its cases looked right on "
                              "the device alone; a kernel must be right under the reference judge too)");
        if (strcmp(test->name, name) != 0 || !test->reason || (!strncmp(test->reason, "not ", 4) && !test->pending) ||
            !reason) {
            free(reason);
            continue;
        }
        free(test->reason);
        test->reason = reason;
        test->metrics[0] = '\0';
        test->passed = 0;
        test->score = 0;
        test->pending = 0;
    }
}

/* Whether the reference judge ran the lab's cases right: no wrong case, no finding, nothing it could not judge. */
static int reference_right(const struct reference *ref)
{
    if (!ref->ran || ref->judge_failed || ref->findings > 0 || !ref->log || ref->log->stopped_at >= 0)
        return 0;
    for (size_t i = 0; i < ref->log->count; i++)
        if (ref->log->ran[i] && (!ref->log->verdicts[i].values_ok || !ref->log->verdicts[i].memory_ok))
            return 0;
    return 1;
}

/* Whether a lab graded beside other workers on a GPU failed in a way that one of them could have caused (a
   student's host program holding the device's memory, say): the device could not be set up, a case failed or did
   not finish there though the reference judge finds the kernel right, or the host program failed on an OpenCL
   resource error or its time limit. */
static int neighbours_could_blame(const struct grading *g, int built, const struct case_log *device,
                                  const struct beside *b, const struct grade_lab_result *result)
{
    static const char *const resource_errors[] = {"CL_OUT_OF_RESOURCES", "CL_MEM_OBJECT_ALLOCATION_FAILURE",
                                                  "CL_OUT_OF_HOST_MEMORY", "timed out"};
    if (!g->config.device_lock || g->config.lock_whole_labs)
        return 0;
    if (result->setup_error)
        return 1;
    if (built == 1 && reference_right(&b->ref) && (recheck_needed(device, &b->ref) || device->stopped_at >= 0 ||
                                                   device->slow_at >= 0))
        return 1;
    for (size_t i = 0; b->host_done > 0 && !b->host[0].passed && i < sizeof resource_errors / sizeof *resource_errors;
         i++)
        if (strstr(b->host_reason[0], resource_errors[i]))
            return 1;
    return 0;
}

/* The device's compiler stopped building the kernel, with and without optimisation: where the reference judge builds
   it and finds it right, the lab cannot be judged on this device and is not graded (a set-up error, no score: no
   judge is believed alone); returns 1 when the refusal stands. */
static int build_refusal_stands(struct grading *g, const struct grade_lab_spec *lab, uint64_t seed,
                                    pid_t reference, struct beside *b, struct grade_lab_result *result)
{
    if (reference <= 0)
        reference_beside(g, lab, seed, b);
    if (!reference_right(&b->ref) || !(result->setup_error = malloc(512)))
        return 1;
    snprintf(result->setup_error, 512, "the device's compiler stopped building the kernel, also without "
             "optimisation, while Oclgrind, the reference judge, builds it and finds it right: a kernel is judged on "
             "both, so this lab was not graded here (no point is lost for it); grade it on another device "
             "(./grade --list-devices)");
    return 0;
}

/* The verdicts on a kernel that built: its cases from the device's and the reference judge's runs, its technique,
   and the host program's tests (run now where they did not run beside). */
static void judge_built(struct grading *g, const struct grade_lab_spec *lab, uint64_t seed,
                        const struct case_log *device, const struct case_log *unoptimised, struct beside *b,
                        pid_t host, struct grade_lab_result *result)
{
    verdict_cases(g, lab, seed, device, &b->ref, unoptimised, result);
    technique_test(lab, &b->ref, verdict_correct(result), g->device_is_gpu, result);
    if (!verdict_correct(result))
        withdraw_speed(lab, result);
    if (host <= 0 && g->config.only_case < 0)
        host_beside(g, lab, seed, b);
    for (int t = 0; t < b->host_done; t++)
        result_add(result, b->host[t].name, b->host[t].score, b->host[t].max, b->host[t].passed, b->host_reason[t]);
}

/* Grades one lab into result: the device's cases, the reference judge's, the technique, the host program; returns
   2 on a set-up error, else 0, with *suspect set when other workers beside it could have caused a failure. With
   cores to spare, the reference judge and the host program run beside the device's cases; on a small machine they
   run after them, so that no case's time limit is shared. */
static int grade_lab_once(struct grading *g, const struct grade_lab_spec *lab, uint64_t seed,
                          struct grade_lab_result *result, int *suspect)
{
    static struct case_log device, unoptimised;
    struct beside *b = mmap(NULL, sizeof *b, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    int built, beside = b != MAP_FAILED && sysconf(_SC_NPROCESSORS_ONLN) >= BESIDE_CORES;
    pid_t reference = -1, host = -1;
    const char *why = "not run: the kernel does not build";
    if (b == MAP_FAILED) {
        result->setup_error = strdup("the grader ran out of memory");
        return 2;
    }
    memset(b, 0, sizeof *b);
    /* On a CPU device every stage competes with a timing: other workers' labs wait while this worker times. */
    const char *whole_lab = g->config.lock_whole_labs ? g->config.device_lock : NULL;
    enum device_lock_mode held = device_lock_take(whole_lab, DEVICE_LOCK_SHARED);
    if (beside) {
        reference = start_beside(g, lab, seed, b, reference_beside);
        host = g->config.only_case < 0 ? start_beside(g, lab, seed, b, host_beside) : -1;
    }
    snprintf(result->lab, sizeof result->lab, "%s", lab->name);
    snprintf(g->replay, sizeof g->replay, "./grade %s%s%s%s%s%s", lab->name, g->config.solutions ? " --solutions" : "",
             g->submission ? " --submission " : "", g->submission ? g->source_dir : "",
             g->config.device ? " --device " : "", g->config.device ? g->config.device : "");
    built = device_test_run(g, lab, seed, &device, result);
    wait_beside(reference);
    wait_beside(host);
    if (built == 0 && device.build_stopped && !build_refusal_stands(g, lab, seed, reference, b, result)) {
        built = 2;
        why = "not graded on this device (see above)";
    }
    if (built == 1) {
        if (reference <= 0)
            reference_beside(g, lab, seed, b);
        compiler_recheck_run(g, lab, seed, &device, &b->ref, &unoptimised);
        if ((result->setup_error = recheck_device_gave_up(lab, &device, &b->ref, &unoptimised)) != NULL) {
            built = 2;
            why = "not graded on this device (see above)";
        }
    }
    if (built == 1) {
        judge_built(g, lab, seed, &device, &unoptimised, b, host, result);
        why = g->config.only_case >= 0 ? "not run: --case runs one case only" : g->config.quick ? "not timed: --quick"
                                                                                           : "not run";
    }
    /* Predictions show whether or not the kernel built: a student writes them before measuring. */
    prediction_test_run(g->source_dir, lab, &b->ref.counts, built == 1 && b->ref.counted, result);
    complete_lab(g, lab, why, built == 1, result);
    *suspect = neighbours_could_blame(g, built, &device, b, result);
    munmap(b, sizeof *b);
    close_runs(g, lab, built == 1 && g->config.solutions);
    device_lock_restore(whole_lab, held);
    return built == 2 ? 2 : 0;
}

/* Grades one lab (grade_lab_once); where other workers beside it could have caused a failure, grades it again with
   the device alone, and that grading stands: a right submission never loses a point to a neighbour. */
static int grade_lab(struct grading *g, const struct grade_lab_spec *lab, uint64_t seed,
                     struct grade_lab_result *result)
{
    const char *lock = g->config.device_lock;
    double marked = result->marked;
    int suspect = 0, rc = grade_lab_once(g, lab, seed, result, &suspect);
    if (!suspect)
        return rc;
    fprintf(g->style.out, "%s: a failure beside other workers' runs: graded again with the device alone\n",
            lab->name);
    result_free(result);
    memset(result, 0, sizeof *result);
    result->marked = marked;
    enum device_lock_mode held = device_lock_take(lock, DEVICE_LOCK_ALONE);
    g->config.device_lock = NULL; /* held alone: no stage takes it again */
    rc = grade_lab_once(g, lab, seed, result, &suspect);
    g->config.device_lock = lock;
    device_lock_restore(lock, held);
    return rc;
}

int pipeline_run(struct grading *g, struct grade_lab_result *results)
{
    int all_passed = 1, setup_failed = 0;
    char layers[512];
    sandbox_layers(layers, sizeof layers);
    fprintf(g->style.out, "grading %s with seed %llu (replay with --seed %llu)\nconfinement: %s\n", g->source_dir,
            (unsigned long long)g->seed, (unsigned long long)g->seed, layers);
    if (g->course.path[0]) /* where speed counts, said once before any test */
        fprintf(g->style.out, "course: %s (%s): speed %s%s\n", g->course.name[0] ? g->course.name : "unnamed",
                g->course.path, g->course.scores_speed ? "graded on " : "reported only, on every device",
                g->course.scores_speed ? g->course.profile.device : "");
    fputc('\n', g->style.out);
    for (int i = 0; i < g->config.lab_count; i++) {
        const struct grade_lab_spec *lab = registry_find(g->config.labs[i]);
        if (g->config.budget_s > 0 && clk_now_s() - g->started - device_lock_waited_s() > g->config.budget_s) {
            char why[160]; /* a wait for the device is not the student's */
            snprintf(why, sizeof why, "not graded: the grader's time budget (--budget %d s) ran out before this lab "
                     "(a busy machine or slow earlier labs); your instructor can grade it again", g->config.budget_s);
            snprintf(results[i].lab, sizeof results[i].lab, "%s", lab->name);
            complete_lab(g, lab, why, 0, &results[i]);
        } else {
            double started = clk_now_s();
            results[i].marked = started;
            setup_failed |= grade_lab(g, lab, g->seed, &results[i]) != 0;
            results[i].seconds = clk_now_s() - started;
        }
        report_lab(&g->style, lab->title, &results[i]);
        for (int t = 0; t < results[i].test_count; t++)
            all_passed &= results[i].tests[t].passed || results[i].tests[t].informational ||
                          results[i].tests[t].pending;
    }
    report_total(&g->style, results, g->config.lab_count);
    return setup_failed ? 2 : all_passed ? 0 : 1;
}

int pipeline_write_results(const struct grading *g, const struct grade_lab_result *results, double seconds,
                           const struct pipeline_outputs *out)
{
    const char *titles[JUDGE_MAX_LABS], *kernels[JUDGE_MAX_LABS], *units[JUDGE_MAX_LABS];
    int has_baseline[JUDGE_MAX_LABS];
    static char kernel_paths[JUDGE_MAX_LABS][PATH_MAX + 64];
    char summary[PATH_MAX + 128];
    struct export_run run = {.results = results, .titles = titles, .kernels = kernels, .units = units,
                             .has_baseline = has_baseline, .version = out->version, .count = g->config.lab_count,
                             .seconds = seconds, .summary = summary};
    for (int i = 0; i < g->config.lab_count; i++) {
        const struct grade_lab_spec *lab = registry_find(g->config.labs[i]);
        titles[i] = lab->title;
        units[i] = lab->family->work_is_flops ? "GFLOP/s" : "GB/s";
        has_baseline[i] = lab->perf.baseline_file != NULL;
        snprintf(kernel_paths[i], sizeof kernel_paths[i], "%s/%s/%s", g->source_dir, lab->name, lab->kernel_file);
        kernels[i] = kernel_paths[i];
    }
    snprintf(summary, sizeof summary, "clkit grader: %s graded with seed %llu", g->source_dir,
             (unsigned long long)g->seed);
    return result_writers_write(out->paths, &run) != 0 ? 2 : 0;
}
