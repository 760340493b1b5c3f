#include "runlab.h"

#include "files.h"
#include "harness.h"
#include "rules.h"
#include "runperf.h"
#include "safetext.h"
#include "scratch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_CASES 256
#define DETAIL_SIZE 8192
#define OUTPUT_KEPT (64u << 10)
#define GUARD_NAN 0x7fa00000u

const char *const runlab_test_names[] = {"build", "exact cases", "real cases", "memory safety"};

/* One test's tally over the cases, with the details of the first failures. */
struct tally {
    int cases, failed;
    int unearned; /* passed, but earns nothing because the values are wrong */
    char details[DETAIL_SIZE];
};

/* Where a runner that died or stalled was: the test and the case. */
struct stop {
    const char *test;
    char at[64];
};

const char *runlab_perf_name(const struct grade_lab_spec *lab)
{
    return lab->perf.baseline_file ? "speed" : "bandwidth";
}

/* Copies the lab folder into the lab's run folder (a fresh copy each run) and checks the kernel's source rules. */
static int stage(struct lab_run *r, char *why, size_t size)
{
    char work[PATH_MAX + 16], src[PATH_MAX + 32], dst[PATH_MAX + 48], kernel[PATH_MAX + 128];
    if (scratch_open_run(r->g->root, r->g->scratch, r->lab->name, r->run_dir, sizeof r->run_dir, why, size) != 0)
        return -1;
    snprintf(work, sizeof work, "%s/work", r->run_dir);
    snprintf(src, sizeof src, "%s/%s", r->g->source_dir, r->lab->name);
    snprintf(dst, sizeof dst, "%s/%s", work, r->lab->name);
    scratch_remove(work); /* each run starts from the submission as it was handed in */
    if (mkdir(work, 0755) != 0 || sandbox_give(work) != 0)
        return snprintf(why, size, "cannot create %s", work), -1;
    struct stat st;
    if (stat(src, &st) != 0) {
        snprintf(why, size, "%s is missing: the submission has no %s folder (it holds %s and host.c)", src,
                 r->lab->name, r->lab->kernel_file);
        return 1;
    }
    if (scratch_copy_submission(src, dst, why, size) != 0)
        return 1;
    snprintf(kernel, sizeof kernel, "%s/%s", dst, r->lab->kernel_file);
    if (!clk_file_exists(kernel)) {
        snprintf(why, size, "%s is missing (each lab folder holds %s and host.c)", r->kernel_shown,
                 r->lab->kernel_file);
        return 1;
    }
    return rules_check_file(RULES_KERNEL, kernel, r->kernel_shown, why, size) != 0 ? 1 : 0;
}

static void start_runner(struct lab_run *r, char *const wrapper[], int timeout_s, int refused)
{
    char runner[PATH_MAX + 32], work[PATH_MAX + 16], kit[PATH_MAX + 16], *argv[24];
    struct sandbox_policy policy = {.untrusted = 1, .workdir = work, .readable = kit, .writable = r->run_dir,
                                    .timeout_s = timeout_s, .output_limit = OUTPUT_KEPT, .wire = 1};
    struct wire_job job;
    int argc = 0;
    snprintf(runner, sizeof runner, "%s/kit/bin/clkit-runner", r->g->scratch);
    snprintf(work, sizeof work, "%s/work", r->run_dir);
    snprintf(kit, sizeof kit, "%s/kit", r->g->scratch);
    memcpy(policy.hidden, r->g->hidden, sizeof policy.hidden);
    for (int i = 0; wrapper && wrapper[i] && argc < 20; i++)
        argv[argc++] = wrapper[i];
    argv[argc++] = runner;
    argv[argc] = NULL;
    memset(&job, 0, sizeof job);
    snprintf(job.lab, sizeof job.lab, "%s", r->lab->name);
    snprintf(job.device, sizeof job.device, "%s", wrapper ? "oclgrind" : r->g->cli->device ? r->g->cli->device : "");
    /* A refused kernel is not even compiled: the runner only says which device it has. */
    if (!refused)
        snprintf(job.kernel_path, sizeof job.kernel_path, "%s/%s", r->lab->name, r->lab->kernel_file);
    snprintf(job.include_dir, sizeof job.include_dir, "%s", r->lab->name);
    snprintf(job.kernels_dir, sizeof job.kernels_dir, "%.*s/kernels", (int)sizeof job.kernels_dir - 16, kit);
    session_start(&r->session, argv, &policy, &job);
}

/* The runner's first two words: the device (before any submitted code is built), then the build. */
static void hello_and_build(struct lab_run *r)
{
    struct wire_message m;
    if (session_ask(&r->session, 0, NULL, 0, WIRE_HELLO, sizeof r->hello, &m) != 0 || m.length != sizeof r->hello) {
        r->setup = strdup("the runner did not start (see the output above)");
        wire_message_free(&m);
        return;
    }
    memcpy(&r->hello, m.data, sizeof r->hello);
    r->hello.device_name[sizeof r->hello.device_name - 1] = r->hello.error[sizeof r->hello.error - 1] = '\0';
    wire_message_free(&m);
    if (!r->hello.ok) {
        r->setup = strdup(r->hello.error);
        return;
    }
    if (session_ask(&r->session, 0, NULL, 0, WIRE_BUILT, 1 << 20, &m) != 0 || m.length < sizeof(struct wire_built)) {
        r->refusal = strdup("the kernel's build did not finish (the compiler crashed or ran out of time or memory)");
        wire_message_free(&m);
        return;
    }
    const struct wire_built *b = (const struct wire_built *)m.data;
    if (!b->ok)
        r->refusal = strdup((const char *)m.data + sizeof *b);
    r->max_local = b->max_local >= 1 && b->max_local <= 1024 ? (size_t)b->max_local : 1;
    wire_message_free(&m);
}

int runlab_open(struct lab_run *r, char *const wrapper[], int timeout_s)
{
    char why[8192];
    int staged;
    snprintf(r->kernel_shown, sizeof r->kernel_shown, "%s/%s/%s", r->g->source_dir, r->lab->name,
             r->lab->kernel_file);
    r->refusal = r->setup = NULL;
    r->max_local = 1;
    memset(&r->hello, 0, sizeof r->hello);
    memset(&r->session, 0, sizeof r->session);
    r->session.child.pid = -1;
    staged = stage(r, why, sizeof why);
    if (staged < 0) {
        r->setup = strdup(why);
        r->session.broken = 1;
        return -1;
    }
    /* A refused submission still meets the device: its tests keep the device's points. */
    start_runner(r, wrapper, timeout_s, staged > 0);
    hello_and_build(r);
    if (staged > 0) {
        free(r->refusal);
        r->refusal = strdup(why);
    }
    return 0;
}

void runlab_close(struct lab_run *r, struct sandbox_outcome *outcome)
{
    struct sandbox_outcome ignored;
    if (r->session.child.pid > 0)
        session_end(&r->session, outcome ? outcome : &ignored);
    else if (outcome)
        memset(outcome, 0, sizeof *outcome), outcome->end = SANDBOX_FAILED;
    if (!outcome && r->session.child.pid > 0)
        sandbox_outcome_free(&ignored);
    r->session.child.pid = -1;
    free(r->refusal);
    free(r->setup);
    r->refusal = r->setup = NULL;
}

/* Adds a failed case to a tally: the first in full, with its replay command, the next two in a line. */
static void tally_failure(struct tally *t, const struct lab_run *r, size_t index, const char *description,
                          const char *why)
{
    char head[256];
    int verbose = r->g->cli->verbose;
    t->failed++;
    if (t->failed > 3 && !verbose)
        return;
    snprintf(head, sizeof head, "\ncase %zu (%s): ", index, description);
    if (t->failed == 1 || verbose) {
        char replay[PATH_MAX + 256];
        result_append(t->details, sizeof t->details, "%s%s", head, why);
        snprintf(replay, sizeof replay, "\n  replay: %s --case %zu --seed %llu", r->g->replay, index,
                 (unsigned long long)r->seed);
        result_append(t->details, sizeof t->details, "%s%s", replay, "");
    } else {
        const char *newline = strchr(why, '\n');
        char first_line[256];
        snprintf(first_line, sizeof first_line, "%.*s", newline ? (int)(newline - why) : (int)strlen(why), why);
        result_append(t->details, sizeof t->details, "%s%s", head, first_line);
    }
}

static void tally_pass(struct tally *t, const struct lab_run *r, size_t index, const char *description)
{
    char line[256];
    if (!r->g->cli->verbose)
        return;
    snprintf(line, sizeof line, "\ncase %zu (%s): ok", index, description);
    result_append(t->details, sizeof t->details, "%s%s", line, "");
}

/* Adds a tally as a test; ok and failed are formats taking the case counts. */
static void report_tally(struct grade_lab_result *result, const char *name, double points, const struct tally *t,
                         const char *ok, const char *failed)
{
    size_t size = DETAIL_SIZE + 256;
    char *reason = malloc(size);
    int used;
    if (!reason)
        return;
    if (t->cases == 0) {
        result_add(result, name, 0.0, 0.0, 1, "not run: --case selects a case of another test");
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
    result_add(result, name, points * (t->cases - t->failed - t->unearned) / t->cases, points,
               t->failed == 0 && t->unearned == 0, reason);
    free(reason);
}

/* A guard pattern drawn afresh for each run: a quiet NaN a kernel cannot predict. */
static void draw_guards(uint32_t *bits)
{
    static uint32_t state;
    if (!state)
        state = (uint32_t)(sandbox_now() * 1e6) ^ (uint32_t)getpid() * 2654435761u;
    for (int i = 0; i < GRADE_MAX_BUFFERS; i++) {
        state = state * 1664525u + 1013904223u;
        bits[i] = GUARD_NAN | 0x1000u | (state >> 12);
    }
}

/* Checks that the runner's reply has the layout the judge expects, and points raw into the buffers it wrote. */
static int unpack_case(struct lab_run *r, const struct wire_message *m, const struct grade_launch *launch,
                       size_t guard, size_t bytes, struct harness_raw *raw, int32_t *status, const char **data)
{
    const struct wire_case_done *done = (const struct wire_case_done *)m->data;
    size_t at = 0;
    memset(raw, 0, sizeof *raw);
    if (m->length != sizeof *done)
        return -1;
    *status = done->status;
    if (done->status != CL_SUCCESS)
        return 0;
    if (done->buffer_count != launch->buffer_count || !(*data = session_map_buffers(&r->session, bytes)))
        return -1;
    for (int i = 0; i < launch->buffer_count; i++) {
        if (done->totals[i] != 2 * guard + launch->counts[i])
            return -1;
        raw->data[i] = (float *)(uintptr_t)(*data + at);
        raw->totals[i] = (size_t)done->totals[i];
        at += raw->totals[i] * sizeof(float);
    }
    return 0;
}

/* Runs case c in the runner and judges it; returns 0, -1 when the runner is gone, -2 when the judge is out of
   memory. */
static int judge_case(struct lab_run *r, const struct grade_case *c, uint64_t seed, struct case_verdict *verdict)
{
    struct grade_launch launch;
    struct grade_case judged = *c;
    struct wire_case request = {.c = *c, .seed = seed};
    struct wire_message m;
    struct harness_raw raw;
    size_t bytes = 0;
    const char *data = NULL;
    int32_t status = CL_SUCCESS;
    int rc = 0;
    memset(&launch, 0, sizeof launch);
    memset(verdict, 0, sizeof *verdict);
    judged.no_reference = r->mode != RUNLAB_GRADE; /* under Oclgrind only its findings count */
    if (r->lab->family->prepare(&judged, seed, &launch) != 0)
        return grade_launch_free(&launch), -2;
    for (int i = 0; r->mode == RUNLAB_GRADE && i < launch.buffer_count; i++) {
        size_t guard = harness_guard_elements(&launch, launch.counts[i], r->hello.align_bytes);
        request.guard = guard > request.guard ? guard : request.guard;
    }
    draw_guards(request.guard_bits);
    for (int i = 0; i < launch.buffer_count; i++)
        bytes += (2 * request.guard + launch.counts[i]) * sizeof(float);
    if (session_size_buffers(&r->session, bytes) != 0) { /* the runner sealed the file against growing */
        r->session.broken = 1;
        return grade_launch_free(&launch), -1;
    }
    if (session_ask(&r->session, WIRE_CASE, &request, sizeof request, WIRE_CASE_DONE,
                    sizeof(struct wire_case_done), &m) != 0 ||
        unpack_case(r, &m, &launch, request.guard, bytes, &raw, &status, &data) != 0) {
        r->session.broken = 1;
        rc = -1;
    } else if (status != CL_SUCCESS) {
        verdict->memory_ok = 1;
        snprintf(verdict->values, sizeof verdict->values, "the launch failed with %s", clk_error_name(status));
    } else if (r->mode == RUNLAB_GRADE && harness_judge(r->lab->family, &launch, request.guard, request.guard_bits, &raw, verdict) != 0) {
        rc = -1;
    }
    session_unmap_buffers(data, bytes);
    wire_message_free(&m);
    grade_launch_free(&launch);
    return rc;
}

/* Under a simulator only small exact cases run: a simulated work-item is thousands of times slower. */
static int small_exact(const struct grade_case *c)
{
    size_t d1 = c->dims[1] ? c->dims[1] : 1, d2 = c->dims[2] ? c->dims[2] : 1;
    return c->data == GRADE_EXACT && c->dims[0] * d1 <= 5000 && c->dims[0] * d1 * d2 <= 200000;
}

static size_t cases_of(const struct lab_run *r, struct grade_case *cases)
{
    if (r->mode == RUNLAB_TECHNIQUE) {
        cases[0] = r->lab->technique.shape;
        cases[0].data = GRADE_EXACT;
        return 1;
    }
    return grade_expand_cases(r->lab, r->max_local, cases, MAX_CASES);
}

static void show_progress(const struct lab_run *r, size_t i, size_t count)
{
    if (!r->g->style.colour)
        return;
    if (i < count)
        fprintf(r->g->style.out, "\r  \u2026 %s: case %zu of %zu\033[K", r->lab->name, i + 1, count);
    else
        fprintf(r->g->style.out, "\r\033[K");
    fflush(r->g->style.out);
}

/* Judges one case into its value tally and the memory tally; returns 0, or -1 when the run must stop. */
static int tally_case(struct lab_run *r, size_t index, const struct grade_case *c, struct tally *values,
                      struct tally *memory)
{
    struct case_verdict verdict;
    char description[128];
    int rc = judge_case(r, c, r->seed + index, &verdict);
    if (rc != 0 || r->mode != RUNLAB_GRADE)
        return rc;
    r->lab->family->describe(c, description, sizeof description);
    values->cases++;
    memory->cases++;
    if (verdict.values_ok)
        tally_pass(values, r, index, description);
    else
        tally_failure(values, r, index, description, verdict.values);
    /* Memory safety earns points only where the kernel computes the right values: an empty kernel is safe but worthless. */
    if (!verdict.memory_ok)
        tally_failure(memory, r, index, description, verdict.memory);
    else if (!verdict.values_ok)
        memory->unearned++;
    return 0;
}

/* Adds the tests a stopped runner never finished: the one it stopped in says how, the rest were not run. */
static void report_stop(struct lab_run *r, const struct stop *stop, int first_test, struct grade_lab_result *result)
{
    struct sandbox_outcome outcome;
    char how[256], reason[512];
    const double points[] = {r->lab->points.build, r->lab->points.exact, r->lab->points.real, r->lab->points.memory};
    runlab_close(r, &outcome);
    sandbox_describe(&outcome, r->g->cli->timeout_s, how, sizeof how);
    sandbox_outcome_free(&outcome);
    for (int t = first_test; t < RUNLAB_TEST_COUNT; t++) {
        if (t == first_test)
            snprintf(reason, sizeof reason, "the kernel %s during this test, at %s", how, stop->at);
        else
            snprintf(reason, sizeof reason, "not run: the kernel %s in an earlier test", how);
        result_add(result, runlab_test_names[t], 0, points[t], 0, reason);
    }
    if (!r->g->cli->quick && r->g->cli->only_case < 0) {
        snprintf(reason, sizeof reason, "not run: the kernel %s in an earlier test", how);
        result_add(result, runlab_perf_name(r->lab), 0, runperf_points(r), 0, reason);
    }
}

void runlab_cases(struct lab_run *r, long only_case, struct grade_lab_result *result)
{
    static struct grade_case cases[MAX_CASES];
    static struct tally exact, real, memory;
    size_t count = cases_of(r, cases);
    struct stop stop = {NULL, ""};
    memset(&exact, 0, sizeof exact), memset(&real, 0, sizeof real), memset(&memory, 0, sizeof memory);
    for (size_t i = 0; i < count && !stop.test; i++) {
        struct tally *values = cases[i].data == GRADE_EXACT ? &exact : &real;
        if ((only_case >= 0 && (size_t)only_case != i) ||
            (r->mode == RUNLAB_SANITIZER && only_case < 0 && !small_exact(&cases[i])))
            continue;
        show_progress(r, i, count);
        int rc = tally_case(r, i, &cases[i], values, &memory);
        if (rc == -2 && r->mode == RUNLAB_GRADE)
            result->setup_error = strdup("the grader ran out of host memory");
        if (rc != 0) {
            stop.test = runlab_test_names[values == &exact ? 1 : 2];
            snprintf(stop.at, sizeof stop.at, "case %zu of %zu", i + 1, count);
        }
    }
    show_progress(r, count, count);
    if (r->mode != RUNLAB_GRADE || result->setup_error)
        return;
    if (stop.test && stop.test == runlab_test_names[1]) {
        report_stop(r, &stop, 1, result);
        return;
    }
    report_tally(result, runlab_test_names[1], r->lab->points.exact, &exact, "all %d exact cases right",
                 "%d of %d exact cases wrong");
    if (stop.test) {
        report_stop(r, &stop, 2, result);
        return;
    }
    report_tally(result, runlab_test_names[2], r->lab->points.real, &real, "all %d real cases within tolerance",
                 "%d of %d real cases wrong");
    report_tally(result, runlab_test_names[3], r->lab->points.memory, &memory,
                 "no write outside the buffers and no input changed in %d cases",
                 "%d of %d cases wrote outside a buffer or changed an input");
    if (!r->g->cli->quick && only_case < 0)
        runperf_test(r, exact.failed == 0 && real.failed == 0 && memory.failed == 0 && exact.cases > 0, result);
}

/* A kernel that was refused or did not build: the build test says why, and nothing else is run or blamed. */
static void report_refusal(struct lab_run *r, struct grade_lab_result *result)
{
    const double points[] = {r->lab->points.build, r->lab->points.exact, r->lab->points.real, r->lab->points.memory};
    result_add(result, runlab_test_names[0], 0, points[0], 0, r->refusal);
    for (int t = 1; t < RUNLAB_TEST_COUNT; t++)
        result_add(result, runlab_test_names[t], 0, points[t], 0, "not run: the kernel does not build");
    if (!r->g->cli->quick && r->g->cli->only_case < 0)
        result_add(result, runlab_perf_name(r->lab), 0, runperf_points(r), 0, "not run: the kernel does not build");
}

void runlab_kernel_tests(struct grading *g, const struct grade_lab_spec *lab, uint64_t seed,
                         struct grade_lab_result *result)
{
    struct lab_run r = {.g = g, .lab = lab, .seed = seed, .mode = RUNLAB_GRADE};
    char reason[PATH_MAX + 128];
    runlab_open(&r, NULL, g->cli->timeout_s);
    char *device = safetext_clean(r.hello.device_name, sizeof result->device);
    if (r.hello.ok) {
        snprintf(g->device_name, sizeof g->device_name, "%s", r.hello.device_name);
        g->device_is_gpu = r.hello.is_gpu;
    }
    snprintf(result->device, sizeof result->device, "%s", device ? device : "");
    free(device);
    if (r.setup) {
        /* What the runner printed (the device's own message) comes first. */
        struct sandbox_outcome outcome;
        char *why = strdup(r.setup), *said;
        runlab_close(&r, &outcome);
        said = safetext_clean(outcome.output ? outcome.output : "", 4096);
        result->setup_error = malloc(strlen(why ? why : "") + strlen(said ? said : "") + 8);
        if (result->setup_error)
            sprintf(result->setup_error, "%s%s%s", said ? said : "", said && said[0] ? "\n" : "", why ? why : "");
        free(said);
        free(why);
        sandbox_outcome_free(&outcome);
    } else if (r.refusal) {
        report_refusal(&r, result);
    } else {
        snprintf(reason, sizeof reason, "%s builds and defines %s", r.kernel_shown, lab->kernel_name);
        result_add(result, runlab_test_names[0], lab->points.build, lab->points.build, 1, reason);
        runlab_cases(&r, g->cli->only_case, result);
    }
    runlab_close(&r, NULL);
}
