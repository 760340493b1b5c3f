#include "runlab.h"

#include "builds.h"
#include "context.h"
#include "harness.h"
#include "result.h"
#include "runperf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CASES 256
#define DETAIL_SIZE 8192

const char *const runlab_test_names[] = {"build", "exact cases", "real cases", "memory safety"};

/* One test's tally over the cases, with the details of the first failures. */
struct tally {
    int cases, failed;
    int unearned; /* passed, but earns nothing because the values are wrong */
    char details[DETAIL_SIZE];
};

static void report(int fd, const char *name, double score, double max, int passed, const char *reason)
{
    struct grade_test test = {.score = score, .max = max, .passed = passed, .reason = (char *)reason};
    snprintf(test.name, sizeof test.name, "%s", name);
    record_test(fd, &test);
}

/* Adds a failed case to a tally: the first in full, with its replay command, the next two in a line. */
static void tally_failure(struct tally *t, const struct lab_job *job, size_t index, const char *description,
                          const char *why)
{
    char head[256];
    t->failed++;
    if (t->failed > 3 && !job->verbose)
        return;
    snprintf(head, sizeof head, "\ncase %zu (%s): ", index, description);
    if (t->failed == 1 || job->verbose) {
        char replay[512];
        result_append(t->details, sizeof t->details, "%s%s", head, why);
        snprintf(replay, sizeof replay, "\n  replay: %s --case %zu --seed %llu", job->replay, index,
                 (unsigned long long)job->seed);
        result_append(t->details, sizeof t->details, "%s%s", replay, "");
    } else {
        const char *newline = strchr(why, '\n');
        char first_line[256];
        snprintf(first_line, sizeof first_line, "%.*s", newline ? (int)(newline - why) : (int)strlen(why), why);
        result_append(t->details, sizeof t->details, "%s%s", head, first_line);
    }
}

static void tally_pass(struct tally *t, const struct lab_job *job, size_t index, const char *description)
{
    char line[256];
    if (!job->verbose)
        return;
    snprintf(line, sizeof line, "\ncase %zu (%s): ok", index, description);
    result_append(t->details, sizeof t->details, "%s%s", line, "");
}

/* Reports a tally as a test; ok and failed are formats taking the case counts. */
static void report_tally(int fd, const char *name, double points, const struct tally *t, const char *ok,
                         const char *failed)
{
    size_t size = DETAIL_SIZE + 256;
    char *reason = malloc(size);
    int used;
    if (!reason)
        return;
    if (t->cases == 0) {
        report(fd, name, 0.0, 0.0, 1, "not run: --case selects a case of another test");
        free(reason);
        return;
    }
    if (t->failed == 0 && t->unearned)
        used = snprintf(reason, size, "no write outside the buffers, but %d of %d cases compute wrong values, "
                        "and memory safety counts only where the values are right", t->unearned, t->cases);
    else if (t->failed == 0)
        used = snprintf(reason, size, ok, t->cases);
    else
        used = snprintf(reason, size, failed, t->failed, t->cases);
    if (used > 0 && (size_t)used < size)
        snprintf(reason + used, size - (size_t)used, "%s%s", t->details,
                 t->failed > 3 && !strstr(t->details, "-v lists") ? "\n(and more: -v lists every case)" : "");
    report(fd, name, t->cases ? points * (t->cases - t->failed - t->unearned) / t->cases : 0.0, points,
           t->cases > 0 && t->failed == 0 && t->unearned == 0, reason);
    free(reason);
}

/* Runs one case and adds it to the value tally of its kind and to the memory tally. */
static int run_case(const struct clk_env *env, const struct lab_job *job, const struct built *b, size_t index,
                    const struct grade_case *c, struct tally *values, struct tally *memory)
{
    struct grade_launch launch;
    struct case_verdict verdict;
    char description[128];
    memset(&launch, 0, sizeof launch);
    job->lab->family->describe(c, description, sizeof description);
    if (job->lab->family->prepare(c, job->seed + index, &launch) != 0 ||
        harness_run_case(env, kernel_for(b, c->tile), job->lab->family, &launch, !job->sanitizer_run, &verdict) != 0) {
        grade_launch_free(&launch);
        return -1;
    }
    values->cases++;
    memory->cases++;
    if (verdict.values_ok)
        tally_pass(values, job, index, description);
    else
        tally_failure(values, job, index, description, verdict.values);
    /* Memory safety earns points only where the kernel computes the right values: an empty kernel is safe but worthless. */
    if (!verdict.memory_ok)
        tally_failure(memory, job, index, description, verdict.memory);
    else if (!verdict.values_ok)
        memory->unearned++;
    grade_launch_free(&launch);
    return 0;
}

/* Under a simulator only small exact cases run: a simulated work-item is thousands of times slower. */
static int small_exact(const struct grade_case *c)
{
    size_t d1 = c->dims[1] ? c->dims[1] : 1, d2 = c->dims[2] ? c->dims[2] : 1;
    return c->data == GRADE_EXACT && c->dims[0] * d1 <= 5000 && c->dims[0] * d1 * d2 <= 200000;
}

/* Runs the correctness cases and reports their three tests; returns 1 when every case was right. */
static int run_cases(int fd, const struct clk_env *env, const struct lab_job *job, const struct built *b)
{
    static struct grade_case cases[MAX_CASES];
    static struct tally exact, real, memory;
    size_t count = grade_expand_cases(job->lab, max_local_size(env, b), cases, MAX_CASES);
    if (job->technique_run) {
        cases[0] = job->lab->technique.shape;
        cases[0].data = GRADE_EXACT;
        count = 1;
    }
    char progress[64];
    record_begin(fd, runlab_test_names[1]);
    for (size_t i = 0; i < count; i++) {
        if (job->only_case >= 0 && (size_t)job->only_case != i)
            continue;
        if (job->sanitizer_run && !job->technique_run && job->only_case < 0 && !small_exact(&cases[i]))
            continue;
        if (i == count / 2)
            record_begin(fd, runlab_test_names[2]);
        snprintf(progress, sizeof progress, "case %zu of %zu", i + 1, count);
        record_progress(fd, progress);
        if (run_case(env, job, b, i, &cases[i], cases[i].data == GRADE_EXACT ? &exact : &real, &memory) != 0) {
            record_setup_error(fd, "the grader ran out of host memory");
            return 0;
        }
    }
    report_tally(fd, runlab_test_names[1], job->lab->points.exact, &exact, "all %d exact cases right",
                 "%d of %d exact cases wrong");
    report_tally(fd, runlab_test_names[2], job->lab->points.real, &real, "all %d real cases within tolerance",
                 "%d of %d real cases wrong");
    report_tally(fd, runlab_test_names[3], job->lab->points.memory, &memory,
                 "no write outside the buffers and no input changed in %d cases",
                 "%d of %d cases wrote outside a buffer or changed an input");
    return exact.failed == 0 && real.failed == 0 && memory.failed == 0 && exact.cases > 0;
}


const char *runlab_perf_name(const struct grade_lab_spec *lab)
{
    return lab->perf.baseline_file ? "speed" : "bandwidth";
}

int runlab_child(void *context, int fd)
{
    const struct lab_job *job = context;
    struct clk_env env;
    struct built b;
    static char reason[65536];
    memset(&b, 0, sizeof b);
    if (clk_env_create(job->device, &env) != 0) {
        record_setup_error(fd, "no usable OpenCL device (see the message above)");
        return 2;
    }
    record_device(fd, env.info.device_name);
    record_begin(fd, runlab_test_names[0]);
    if (build_all(&env, job, &b, reason, sizeof reason) != 0) {
        const double points[] = {job->lab->points.exact, job->lab->points.real, job->lab->points.memory};
        report(fd, runlab_test_names[0], 0, job->lab->points.build, 0, reason);
        for (int t = 1; t < RUNLAB_TEST_COUNT; t++)
            report(fd, runlab_test_names[t], 0, points[t - 1], 0, "not run: the kernel does not build");
    } else {
        snprintf(reason, sizeof reason, "%s builds and defines %s", job->kernel_path, job->lab->kernel_name);
        report(fd, runlab_test_names[0], job->lab->points.build, job->lab->points.build, 1, reason);
        int correct = run_cases(fd, &env, job, &b);
        if (!job->quick && job->only_case < 0)
            run_perf(fd, &env, job, &b, correct);
    }
    release_built(&b);
    clk_env_release(&env);
    return 0;
}
