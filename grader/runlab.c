#include "runlab.h"

#include "calibrate.h"
#include "clblast.h"
#include "context.h"
#include "harness.h"
#include "perf.h"
#include "program.h"
#include "result.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* The largest work-group every build of the kernel can launch here (at most 1024, a 32 x 32 tile). */
static size_t max_local_size(const struct clk_env *env, const struct built *b)
{
    size_t limit = 1024;
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


/* The rates of a timed case: GB/s or GFLOP/s, and the fraction of the device's peak. */
struct rates {
    double rate, peak, fraction;
    const char *unit, *peak_name;
};

static void measure_rates(const struct clk_env *env, const struct lab_job *job, const struct profile *profile,
                          const struct grade_case *c, double ms, struct rates *r)
{
    const struct grade_family *family = job->lab->family;
    r->rate = ms > 0 ? family->work(c) / (ms * 1e6) : 0.0;
    r->unit = family->work_is_flops ? "GFLOP/s" : "GB/s";
    r->peak_name = family->work_is_flops ? "the FMA peak" : "the copy bandwidth";
    r->peak = family->work_is_flops ? perf_fma_gflops(env, job->kernels_dir)
                                    : perf_copy_gbps(env, job->kernels_dir, profile->vector_n);
    r->fraction = r->peak > 0 ? r->rate / r->peak : 0.0;
}

/* Builds the lab's baseline from kernels/ and prepares it on case c; returns 0 or -1 with why. */
static int setup_baseline(const struct clk_env *env, const struct lab_job *job, const struct grade_case *c,
                          cl_program *program, struct perf_kernel *baseline, char *why, size_t size)
{
    char path[1024], *log = NULL;
    cl_int status = CL_SUCCESS;
    const struct grade_perf *perf = &job->lab->perf;
    snprintf(path, sizeof path, "%s/%s", job->kernels_dir, perf->baseline_file);
    *program = clk_build_program(env->context, env->info.device, path, "", &log);
    if (*program)
        baseline->kernel = clCreateKernel(*program, perf->baseline_kernel, &status);
    if (!*program || status != CL_SUCCESS || perf->baseline_family->prepare(c, 7, &baseline->launch) != 0 ||
        (status = perf_setup(env, baseline)) != CL_SUCCESS) {
        snprintf(why, size, "the baseline %s could not be set up (%s)%s%s", path, clk_error_name(status),
                 log ? "\n" : "", log ? log : "");
        free(log);
        return -1;
    }
    free(log);
    return 0;
}

static void describe_speed(const struct lab_job *job, const struct profile *profile, const struct perf_rule *rule,
                           const struct perf_comparison *cmp, const struct rates *r, char *text, size_t size)
{
    int used;
    if (rule->min_speedup > 0 && cmp->speedup < rule->min_speedup)
        used = snprintf(text, size, "%.2fx faster than %s: %.0f%% short of the %.2fx this device needs (profile: %s)",
                        cmp->speedup, job->lab->perf.baseline_name, 100.0 * (1.0 - cmp->speedup / rule->min_speedup),
                        rule->min_speedup, profile->name);
    else if (rule->min_speedup > 0)
        used = snprintf(text, size, "%.2fx faster than %s (needs %.2fx, profile: %s)", cmp->speedup,
                        job->lab->perf.baseline_name, rule->min_speedup, profile->name);
    else
        used = snprintf(text, size, "%.2fx faster than %s (profile: %s)", cmp->speedup, job->lab->perf.baseline_name,
                        profile->name);
    if (used < 0 || (size_t)used >= size)
        return;
    snprintf(text + used, size - (size_t)used,
             "\n%.3f ms against %.3f ms for %s, median of %d interleaved pairs%s\n%.1f %s, %.0f%% of %s (%.1f %s)",
             cmp->student_ms, cmp->baseline_ms, job->lab->perf.baseline_name, cmp->pairs,
             cmp->settled ? "" : " (the timing did not settle in the budget: this machine is busy)", r->rate, r->unit,
             100.0 * r->fraction, r->peak_name, r->peak, r->unit);
}

static void append_advice(const struct lab_job *job, const struct perf_rule *rule, int passed, char *text, size_t size)
{
    if (rule->informational && rule->note[0])
        append(text, size, "\n%s%s", rule->note, "");
    else if (!passed)
        append(text, size, "\nsee %s for the optimisation this test looks for%s", job->lab->perf.handout, "");
}

static void report_perf(int fd, const char *name, const struct perf_rule *rule, int passed, const char *reason,
                        const char *metrics)
{
    struct grade_test test = {.score = passed && !rule->informational ? rule->points : 0.0, .max = rule->points,
                              .passed = passed, .informational = rule->informational, .reason = (char *)reason};
    snprintf(test.name, sizeof test.name, "%s", name);
    snprintf(test.metrics, sizeof test.metrics, "%s", metrics);
    record_test(fd, &test);
}

/* Times the student's kernel (against the baseline when the lab has one) and judges it by the profile. */
static void time_student(const struct clk_env *env, const struct lab_job *job, const struct profile *profile,
                         struct perf_kernel *student, char *text, size_t size, int *passed, char *metrics,
                         size_t metrics_size)
{
    const struct perf_rule *rule = &profile->labs[grade_lab_number(job->lab)];
    struct perf_kernel baseline;
    struct perf_comparison cmp;
    struct grade_case c;
    struct rates r;
    cl_program program = NULL;
    memset(&baseline, 0, sizeof baseline);
    grade_perf_case(job->lab, profile, &c);
    if (!job->lab->perf.baseline_file) {
        double ms = 0.0;
        cl_int status = perf_time(env, student, 9, &ms);
        measure_rates(env, job, profile, &c, ms, &r);
        *passed = status == CL_SUCCESS && r.fraction >= rule->min_peak_fraction;
        snprintf(metrics, metrics_size, "size=%zu;ms=%.4f;rate=%.2f;unit=%s;peak=%.2f;fraction=%.4f", c.dims[0], ms,
                 r.rate, r.unit, r.peak, r.fraction);
        snprintf(text, size, "%.3f ms: %.1f %s, %.0f%% of %s (%.1f %s), profile: %s", ms, r.rate, r.unit,
                 100.0 * r.fraction, r.peak_name, r.peak, r.unit, profile->name);
        if (rule->min_peak_fraction > 0) {
            char needs[64];
            snprintf(needs, sizeof needs, "\nneeds %.0f%% of the peak", 100.0 * rule->min_peak_fraction);
            append(text, size, "%s%s", needs, "");
        }
    } else if (setup_baseline(env, job, &c, &program, &baseline, text, size) == 0) {
        double budget = env->info.is_gpu ? 3.0 : 4.0;
        cl_int status = perf_compare(env, student, &baseline, budget, &cmp);
        struct perf_comparison again;
        /* A busy machine can drag one round down: when it did not settle short of the threshold, time
           another round and keep the better. A naive kernel sits near 1x, far below any threshold,
           so a second chance does not let it through. */
        if (status == CL_SUCCESS && !cmp.settled && cmp.speedup < rule->min_speedup &&
            perf_compare(env, student, &baseline, budget, &again) == CL_SUCCESS && again.speedup > cmp.speedup)
            cmp = again;
        measure_rates(env, job, profile, &c, cmp.student_ms, &r);
        *passed = status == CL_SUCCESS && cmp.speedup >= rule->min_speedup;
        snprintf(metrics, metrics_size,
                 "size=%zu;ms=%.4f;rate=%.2f;unit=%s;peak=%.2f;fraction=%.4f;baseline_ms=%.4f;speedup=%.3f;"
                 "threshold=%.2f;clblast_ms=%.4f",
                 c.dims[0], cmp.student_ms, r.rate, r.unit, r.peak, r.fraction, cmp.baseline_ms, cmp.speedup,
                 rule->min_speedup,
                 job->lab->family->work_is_flops
                     ? clblast_sgemm_ms(env, student->buffers[0], student->buffers[1], student->buffers[2], c.dims[0],
                                        c.dims[1], c.dims[2])
                     : 0.0);
        describe_speed(job, profile, rule, &cmp, &r, text, size);
    }
    append_advice(job, rule, *passed, text, size);
    perf_release(&baseline);
    if (baseline.kernel)
        clReleaseKernel(baseline.kernel);
    if (program)
        clReleaseProgram(program);
}

static void run_perf(int fd, const struct clk_env *env, const struct lab_job *job, const struct built *b, int correct)
{
    static char text[8192], metrics[320];
    const char *name = runlab_perf_name(job->lab);
    struct profile profile;
    struct perf_kernel student;
    struct grade_case c;
    int passed = 0;
    metrics[0] = '\0';
    record_begin(fd, name);
    if (profile_load(job->profiles_dir, env->info.device_name, env->info.is_gpu, &profile, text, sizeof text) != 0) {
        record_setup_error(fd, text);
        return;
    }
    const struct perf_rule *rule = &profile.labs[grade_lab_number(job->lab)];
    if (!correct) {
        report_perf(fd, name, rule, 0, "not timed: the kernel must pass every correctness case first", "");
        return;
    }
    memset(&student, 0, sizeof student);
    grade_perf_case(job->lab, &profile, &c);
    student.kernel = kernel_for(b, c.tile);
    if (job->lab->family->prepare(&c, job->seed, &student.launch) != 0 || perf_setup(env, &student) != CL_SUCCESS)
        snprintf(text, sizeof text, "not timed: the timing case could not be set up on this device");
    else
        time_student(env, job, &profile, &student, text, sizeof text, &passed, metrics, sizeof metrics);
    report_perf(fd, name, rule, passed, text, metrics);
    perf_release(&student);
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

static void write_text(int fd, const char *text)
{
    size_t length = strlen(text);
    while (length > 0) {
        ssize_t done = write(fd, text, length);
        if (done <= 0)
            return;
        text += done;
        length -= (size_t)done;
    }
}

/* Measures the solution calibrate_runs times: speedups over the baseline, or fractions of the peak. */
static int calibration_values(const struct clk_env *env, const struct lab_job *job, const struct profile *profile,
                              struct perf_kernel *solution, double *values, char *why, size_t size)
{
    struct perf_kernel baseline;
    struct perf_comparison cmp;
    struct grade_case c;
    struct rates r;
    cl_program program = NULL;
    int rc = 0;
    memset(&baseline, 0, sizeof baseline);
    grade_perf_case(job->lab, profile, &c);
    if (job->lab->perf.baseline_file && setup_baseline(env, job, &c, &program, &baseline, why, size) != 0)
        return -1;
    for (int i = 0; i < job->calibrate_runs && rc == 0; i++) {
        double ms = 0.0;
        if (job->lab->perf.baseline_file) {
            rc = perf_compare(env, solution, &baseline, env->info.is_gpu ? 4.0 : 8.0, &cmp) == CL_SUCCESS ? 0 : -1;
            values[i] = cmp.speedup;
        } else {
            rc = perf_time(env, solution, 9, &ms) == CL_SUCCESS ? 0 : -1;
            measure_rates(env, job, profile, &c, ms, &r);
            values[i] = r.fraction;
        }
    }
    perf_release(&baseline);
    if (baseline.kernel)
        clReleaseKernel(baseline.kernel);
    if (program)
        clReleaseProgram(program);
    return rc;
}

static void calibrate_lab(int fd, const struct clk_env *env, const struct lab_job *job, const struct built *b,
                          const struct profile *profile)
{
    static char text[4096], why[4096];
    double values[64];
    struct perf_kernel solution;
    struct perf_rule rule;
    struct grade_case c;
    char what[256];
    int lab = grade_lab_number(job->lab);
    memset(&solution, 0, sizeof solution);
    grade_perf_case(job->lab, profile, &c);
    solution.kernel = kernel_for(b, c.tile);
    if (job->lab->family->prepare(&c, job->seed, &solution.launch) != 0 || perf_setup(env, &solution) != CL_SUCCESS ||
        calibration_values(env, job, profile, &solution, values, why, sizeof why) != 0) {
        snprintf(text, sizeof text, "\n# lab%d: could not be timed on this device\n", lab);
        write_text(fd, text);
        perf_release(&solution);
        return;
    }
    if (job->lab->perf.baseline_file) {
        snprintf(what, sizeof what, "the solution's speedup over %s", job->lab->perf.baseline_name);
        calibrate_rule(values, job->calibrate_runs,
                       lab == 5 && !env->info.is_gpu ? "on CPUs, coalescing makes little difference; try a GPU" : NULL,
                       &rule);
    } else {
        snprintf(what, sizeof what, "the solution's fraction of %s",
                 job->lab->family->work_is_flops ? "the FMA peak" : "the copy bandwidth");
        memset(&rule, 0, sizeof rule);
        rule.informational = 1;
        snprintf(rule.note, sizeof rule.note, "bandwidth is reported, not graded");
    }
    calibrate_format(lab, what, values, job->calibrate_runs, &rule, text, sizeof text);
    write_text(fd, text);
    perf_release(&solution);
}

int runlab_calibrate_child(void *context, int fd)
{
    const struct lab_job *job = context;
    static char header[2048], reason[65536];
    struct clk_env env;
    struct built b;
    struct profile profile;
    memset(&b, 0, sizeof b);
    if (clk_env_create(job->device, &env) != 0)
        return 2;
    if (profile_load(job->profiles_dir, env.info.device_name, env.info.is_gpu, &profile, reason, sizeof reason) != 0 ||
        build_all(&env, job, &b, reason, sizeof reason) != 0) {
        fprintf(stderr, "grade: cannot calibrate %s: %s\n", job->lab->name, reason);
        release_built(&b);
        clk_env_release(&env);
        return 2;
    }
    snprintf(header, sizeof header,
             "device = %s\nname = %s\ntype = %s\nsize.vector = %zu\nsize.matmul = %zu\nsize.transpose = %zu\n",
             env.info.device_name, env.info.device_name, env.info.is_gpu ? "gpu" : "cpu", profile.vector_n,
             profile.matmul_n, profile.transpose_n);
    write_text(fd, header);
    calibrate_lab(fd, &env, job, &b, &profile);
    release_built(&b);
    clk_env_release(&env);
    return 0;
}
