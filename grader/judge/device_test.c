#include "judge/device_test.h"

#include "judge/reference_judge.h"
#include "judge/speed_test.h"
#include "judge/safetext.h"
#include "text.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Where the lab's kernels may be written under several contracts, the one this kernel is graded under and its
   builds, so that a student sees what the grader took the kernel for. */
static void append_contract(const struct grade_lab_spec *lab, char *reason, size_t size)
{
    if (!lab->contract)
        return;
    clk_append(reason, size, ", graded as %s with", lab->contract->name);
    for (const struct grade_tiling *t = lab->tilings; t->tile; t++)
        clk_append(reason, size, "%s TILE %d WPT %d", t == lab->tilings ? "" : ",", t->tile, t->wpt);
}

/* How the device's compiler stopped building the kernel with optimisation, when it did ("" otherwise). */
static char optimised_build_stop[256];

/* The device's compiler stopped while building the kernel (PoCL's own assertions end in SIGABRT): that is the
   compiler's failure unless the kernel fails without optimisation too, so it is built again with -cl-opt-disable,
   and the cases run on that build. */
static void build_unoptimised(struct lab_run *r)
{
    struct sandbox_outcome outcome;
    runlab_close(r, &outcome);
    sandbox_describe(&outcome, r->g->config.timeout_s, optimised_build_stop, sizeof optimised_build_stop);
    sandbox_outcome_free(&outcome);
    r->unoptimised = 1;
    runlab_open_patiently(r, r->g->config.timeout_s);
}

/* A kernel that was refused or did not build: the build test says why; the other tests are completed later. */
static int report_build(struct lab_run *r, struct grade_lab_result *result)
{
    char reason[PATH_MAX + 512];
    if (r->refusal) {
        result_add(result, "build", 0, r->lab->points.build, 0, r->refusal);
        return 0;
    }
    if (r->unoptimised)
        snprintf(reason, sizeof reason, "the device's compiler %s building %s with optimisation, and built it "
                 "without (-cl-opt-disable): the device's failure, not the kernel's; the cases ran on that build\n",
                 optimised_build_stop, r->kernel_shown);
    else
        reason[0] = '\0';
    clk_append(reason, sizeof reason, "%s builds and defines ", r->kernel_shown);
    for (int k = 0; k < labs_kernel_count(r->lab); k++)
        clk_append(reason, sizeof reason, "%s%s", k == 0 ? "" : k + 1 < labs_kernel_count(r->lab) ? ", " : " and ",
                   labs_kernel_name(r->lab, k));
    append_contract(r->lab, reason, sizeof reason);
    result_add(result, "build", r->lab->points.build, r->lab->points.build, 1, reason);
    return 1;
}

/* A runner that could not start: what it printed (the device's own message) comes first. */
static void report_setup(struct lab_run *r, struct grade_lab_result *result)
{
    struct sandbox_outcome outcome;
    char *why = strdup(r->setup), *said;
    runlab_close(r, &outcome);
    said = safetext_clean(outcome.output ? outcome.output : "", 4096);
    result->setup_error = malloc(strlen(why ? why : "") + strlen(said ? said : "") + 8);
    if (result->setup_error)
        sprintf(result->setup_error, "%s%s%s", said ? said : "", said && said[0] ? "\n" : "", why ? why : "");
    free(said);
    free(why);
    sandbox_outcome_free(&outcome);
}

/* Why the kernel is not timed, or NULL: it must pass every case it ran, and finish every case. */
static const char *why_not_timed(const struct lab_run *r, const struct case_log *log)
{
    static char why[512];
    size_t ran = 0;
    for (size_t i = 0; i < log->count; i++) {
        if (log->ran[i] && (!log->verdicts[i].values_ok || !log->verdicts[i].memory_ok))
            return "not timed: the kernel must pass every correctness case first";
        ran += (size_t)log->ran[i];
    }
    if (ran == 0 || log->stopped_at >= 0)
        return "not timed: the kernel must pass every correctness case first";
    if (r->unoptimised)
        return "not timed: the device's compiler failed on the kernel with optimisation, and a build without it is "
               "not the kernel's speed";
    if (log->slow_at < 0)
        return NULL;
    char description[128];
    r->lab->family->describe(&log->cases[log->slow_at], description, sizeof description);
    snprintf(why, sizeof why, "not timed: far too slow (case %ld, %s, %s)", log->slow_at, description,
             log->slow_how);
    return why;
}

/* Why a lab whose cases found no device memory was not graded: the device's failure, not the kernel's. */
static char *device_memory_held(const struct grading *g, const struct case_log *log)
{
    char *why = malloc(512);
    if (why)
        snprintf(why, 512, "the device had no memory for the buffers of case %ld (CL_MEM_OBJECT_ALLOCATION_FAILURE) "
                 "for %d s: another process holds it (a neighbour's grading, a program left running); the lab was "
                 "not graded, and no point is lost for it: grade it again when the device is free (nvidia-smi lists "
                 "who holds a GPU's memory)", log->stopped_at + 1, 2 * g->config.timeout_s);
    return why;
}

int device_test_run(struct grading *g, const struct grade_lab_spec *lab, uint64_t seed, struct case_log *log,
                    struct grade_lab_result *result)
{
    struct lab_run r = {.g = g, .lab = lab, .seed = seed, .mode = RUNLAB_GRADE};
    static struct oclgrind_command wrapper;
    optimised_build_stop[0] = '\0';
    int built = 0, simulated = g->config.simulated;
    /* --device oclgrind: every case on the reference judge, to tell a device's miscompilation from a bug. */
    if (simulated && sanitize_wrapper(g, lab, &wrapper) != 0) {
        result->setup_error = strdup("--device oclgrind: Oclgrind is not installed (sudo apt-get install oclgrind)");
        return 2;
    }
    if (simulated)
        runlab_open(&r, wrapper.argv, 10 * g->config.timeout_s);
    else
        runlab_open_patiently(&r, g->config.timeout_s);
    if (r.build_stopped && !simulated)
        build_unoptimised(&r);
    char *device = safetext_clean(r.hello.device_name, sizeof result->device);
    if (r.hello.ok) {
        g->device_is_gpu = r.hello.is_gpu;
        g->max_local = r.max_local;
    }
    snprintf(result->device, sizeof result->device, "%s", device ? device : "");
    free(device);
    log->count = 0;
    log->build_stopped = r.build_stopped;
    log->stopped_at = log->slow_at = -1;
    log->timed_checked = 0;
    if (r.setup)
        report_setup(&r, result);
    else if ((built = report_build(&r, result)) != 0) {
        runlab_run_cases(&r, simulated || r.max_local < GRADE_PORTABLE_LOCAL ? r.max_local : GRADE_PORTABLE_LOCAL,
                         g->config.only_case, log);
        if (log->out_of_memory)
            result->setup_error = strdup("the grader ran out of host memory");
        else if (log->device_memory_held)
            result->setup_error = device_memory_held(g, log);
        else if (!g->config.quick && g->config.only_case < 0)
            runperf_test(&r, why_not_timed(&r, log), log, result);
    }
    runlab_close(&r, NULL);
    return result->setup_error ? 2 : built;
}
