#include "runlab.h"

#include "context.h"
#include "harness.h"
#include "program.h"
#include "result.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CASES 256
#define MAX_TILES 4
#define DETAIL_SIZE 8192

const char *const runlab_test_names[] = {"build", "exact cases", "real cases", "memory safety"};

struct built {
    int tiles[MAX_TILES];
    cl_program programs[MAX_TILES];
    cl_kernel kernels[MAX_TILES];
    int count;
};

/* One test's tally over the cases, with the details of the first failures. */
struct tally {
    int cases, failed;
    int unearned; /* passed, but earns nothing because the values are wrong */
    char details[DETAIL_SIZE];
};

static void append(char *text, size_t size, const char *format, const char *a, const char *b)
{
    size_t used = strlen(text);
    if (used + 1 < size)
        snprintf(text + used, size - used, format, a, b);
}

static void report(int fd, const char *name, double score, double max, int passed, const char *reason)
{
    struct grade_test test = {.score = score, .max = max, .passed = passed, .reason = (char *)reason};
    snprintf(test.name, sizeof test.name, "%s", name);
    record_test(fd, &test);
}

/* Builds the kernel with -DTILE=tile (none when 0); on failure fills reason with the log or the kernels found. */
static int build_one(const struct clk_env *env, const struct lab_job *job, int tile, struct built *b, char *reason,
                     size_t size)
{
    char options[64] = "", *log = NULL, *names;
    cl_int status = CL_SUCCESS;
    int i = b->count++;
    if (tile)
        snprintf(options, sizeof options, "-DTILE=%d", tile);
    b->tiles[i] = tile;
    b->programs[i] = clk_build_program(env->context, env->info.device, job->kernel_path, options, &log);
    if (!b->programs[i]) {
        snprintf(reason, size, "%s%s%s", log ? log : "the build failed", tile ? "\n(built with " : "",
                 tile ? options : "");
        if (tile)
            append(reason, size, "%s%s", ")", "");
        free(log);
        return -1;
    }
    b->kernels[i] = clCreateKernel(b->programs[i], job->lab->kernel_name, &status);
    if (status != CL_SUCCESS) {
        names = clk_kernel_names(b->programs[i]);
        snprintf(reason, size, "%s has no kernel named '%s' (the name the lab's contract fixes); kernels found: %s",
                 job->kernel_path, job->lab->kernel_name, names && names[0] ? names : "none");
        free(names);
        return -1;
    }
    return 0;
}

static int build_all(const struct clk_env *env, const struct lab_job *job, struct built *b, char *reason, size_t size)
{
    if (!job->lab->tiles)
        return build_one(env, job, 0, b, reason, size);
    for (const int *tile = job->lab->tiles; *tile && b->count < MAX_TILES; tile++)
        if (build_one(env, job, *tile, b, reason, size) != 0)
            return -1;
    return 0;
}

static void release_built(struct built *b)
{
    for (int i = 0; i < b->count; i++) {
        if (b->kernels[i])
            clReleaseKernel(b->kernels[i]);
        if (b->programs[i])
            clReleaseProgram(b->programs[i]);
    }
}

static size_t max_local_size(const struct clk_env *env, const struct built *b)
{
    size_t limit = 256;
    for (int i = 0; i < b->count; i++) {
        size_t size = limit;
        clGetKernelWorkGroupInfo(b->kernels[i], env->info.device, CL_KERNEL_WORK_GROUP_SIZE, sizeof size, &size, NULL);
        if (size < limit)
            limit = size;
    }
    return limit;
}

static cl_kernel kernel_for(const struct built *b, int tile)
{
    for (int i = 0; i < b->count; i++)
        if (b->tiles[i] == tile)
            return b->kernels[i];
    return b->kernels[0];
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
        append(t->details, sizeof t->details, "%s%s", head, why);
        snprintf(replay, sizeof replay, "\n  replay: %s --case %zu --seed %llu", job->replay, index,
                 (unsigned long long)job->seed);
        append(t->details, sizeof t->details, "%s%s", replay, "");
    } else {
        const char *newline = strchr(why, '\n');
        char first_line[256];
        snprintf(first_line, sizeof first_line, "%.*s", newline ? (int)(newline - why) : (int)strlen(why), why);
        append(t->details, sizeof t->details, "%s%s", head, first_line);
    }
}

static void tally_pass(struct tally *t, const struct lab_job *job, size_t index, const char *description)
{
    char line[256];
    if (!job->verbose)
        return;
    snprintf(line, sizeof line, "\ncase %zu (%s): ok", index, description);
    append(t->details, sizeof t->details, "%s%s", line, "");
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
        harness_run_case(env, kernel_for(b, c->tile), job->lab->family, &launch, &verdict) != 0) {
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

static void run_cases(int fd, const struct clk_env *env, const struct lab_job *job, const struct built *b)
{
    static struct grade_case cases[MAX_CASES];
    static struct tally exact, real, memory;
    size_t count = grade_expand_cases(job->lab, max_local_size(env, b), cases, MAX_CASES);
    char progress[64];
    record_begin(fd, runlab_test_names[1]);
    for (size_t i = 0; i < count; i++) {
        if (job->only_case >= 0 && (size_t)job->only_case != i)
            continue;
        if (i == count / 2)
            record_begin(fd, runlab_test_names[2]);
        snprintf(progress, sizeof progress, "case %zu of %zu", i + 1, count);
        record_progress(fd, progress);
        if (run_case(env, job, b, i, &cases[i], cases[i].data == GRADE_EXACT ? &exact : &real, &memory) != 0) {
            record_setup_error(fd, "the grader ran out of host memory");
            return;
        }
    }
    report_tally(fd, runlab_test_names[1], job->lab->points.exact, &exact, "all %d exact cases right",
                 "%d of %d exact cases wrong");
    report_tally(fd, runlab_test_names[2], job->lab->points.real, &real, "all %d real cases within tolerance",
                 "%d of %d real cases wrong");
    report_tally(fd, runlab_test_names[3], job->lab->points.memory, &memory,
                 "no write outside the buffers and no input changed in %d cases",
                 "%d of %d cases wrote outside a buffer or changed an input");
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
        run_cases(fd, &env, job, &b);
    }
    release_built(&b);
    clk_env_release(&env);
    return 0;
}
