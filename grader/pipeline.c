#define _GNU_SOURCE /* sched_getaffinity: the cores this grading may use */
#include "pipeline.h"

#include "judge/device_list.h"
#include "judge/device_lock.h"
#include "judge/device_test.h"
#include "judge/host_test.h"
#include "judge/prediction_test.h"
#include "judge/compiler_recheck.h"
#include "labs/registry.h"
#include "judge/lab_run.h"
#include "judge/reference_judge.h"
#include "judge/speed_test.h"
#include "judge/technique_test.h"
#include "judge/verdict.h"
#include "report/export.h"
#include "report/record.h"
#include "report/report.h"
#include "sandbox/layers.h"
#include "sandbox/sandbox.h"
#include "sandbox/scratch.h"
#include "timing.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
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
static void close_runs(struct grading *g, const struct grade_lab_spec *lab, int keep, int timed)
{
    const char *suffixes[] = {"", RUNLAB_REFERENCE_RUN, HOSTPROG_RUN};
    for (size_t i = 0; i < sizeof suffixes / sizeof *suffixes; i++) {
        char name[64];
        snprintf(name, sizeof name, "%s%s", lab->name, suffixes[i]);
        /* The device's runner did all its work only where it timed the kernel; the others do the same every time. */
        scratch_close_run(g->root, g->scratch, name, keep ? lab->kernel_name : NULL, i > 0 || timed);
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
    double reference_s, host_s; /* how long each took, wherever it ran */
};

/* Where one lab's wall time went, printed to stderr with CLKIT_STAGE_TIMES=1 (the report stays as it is): the
   device's cases (its timing apart), the reference judge and host program (beside the cases or after them), the
   wait for them once the cases ended, and the rest (verdicts, rechecks, predictions, clean-up). */
struct stage_times {
    double start, device, speed, waited, end;
};

static void print_stage_times(const struct grade_lab_spec *lab, const struct stage_times *t, const struct beside *b,
                              int beside)
{
    if (!clk_stage_times())
        return;
    fprintf(stderr, "stages %s: %.2f s: device cases %.2f, timing %.2f, reference judge %.2f, host program %.2f (%s), "
            "waited for them %.2f, rest %.2f\n", lab->name, t->end - t->start, t->device - t->speed, t->speed,
            b->reference_s, b->host_s, beside ? "beside the cases" : "after them", t->waited,
            t->end - t->start - t->device - t->waited - (beside ? 0.0 : b->reference_s + b->host_s));
}

static void reference_beside(struct grading *g, const struct grade_lab_spec *lab, uint64_t seed, struct beside *b)
{
    int simulated = g->config.simulated;
    double start = clk_now_s();
    b->ref.log = &b->log;
    /* The simulator launches work-groups of 1024, so its list holds the device's cases and larger tiles; --case
       names a case of the device's list. */
    reference_judge_run(g, lab, seed,
                        g->config.only_case >= 0 && !simulated ? GRADE_PORTABLE_LOCAL : GRADE_REFERENCE_LOCAL,
                        g->config.only_case, &b->ref);
    b->reference_s = clk_now_s() - start;
}

static void host_beside(struct grading *g, const struct grade_lab_spec *lab, uint64_t seed, struct beside *b)
{
    struct hostprog_job job = {.g = g, .lab = lab, .seed = seed};
    struct grade_lab_result r;
    double start = clk_now_s();
    memset(&r, 0, sizeof r);
    host_test_run(&job, &r);
    for (int t = 0; t < r.test_count && t < 2; t++) {
        b->host[t] = r.tests[t];
        snprintf(b->host_reason[t], sizeof b->host_reason[t], "%s", r.tests[t].reason ? r.tests[t].reason : "");
        b->host[t].reason = NULL;
        b->host_done = t + 1;
    }
    result_free(&r);
    b->host_s = clk_now_s() - start;
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
    struct stage_times times = {.start = clk_now_s(), .speed = runperf_seconds()};
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
    if (built == 2) /* no usable device, its memory held, Oclgrind missing: the kernel is not to blame */
        why = "not graded on this device (see above)";
    times.device = clk_now_s() - times.start;
    times.speed = runperf_seconds() - times.speed;
    wait_beside(reference);
    wait_beside(host);
    times.waited = clk_now_s() - times.start - times.device;
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
    close_runs(g, lab, built == 1 && g->config.solutions, device.timed_checked);
    times.end = clk_now_s();
    print_stage_times(lab, &times, b, beside);
    munmap(b, sizeof *b);
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
    lab = runlab_contract(g, lab); /* lab 9: a kernel that never uses WPT is graded with WPT 1 only */
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

/* From this many cores, a submission's labs on a GPU are graded side by side, each in a judge of its own (its
   timings alone on the device all the same); on a CPU device every stage would compete with the timings. */
#ifndef SIDE_BY_SIDE_CORES
#define SIDE_BY_SIDE_CORES 8
#endif

/* The cores this process may run on: a Slurm task's or a taskset's share, not the whole machine's. */
static long usable_cores(void)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
        return CPU_COUNT(&set);
    return sysconf(_SC_NPROCESSORS_ONLN);
}

/* Whether g's device is a GPU, asked before any lab runs (a fork enumerates the devices). */
static int device_is_gpu(const struct grading *g)
{
    static struct clk_device_info infos[CLK_MAX_DEVICES];
    double start = clk_now_s();
    int found = device_list(infos, CLK_MAX_DEVICES);
    int index = clk_match_device(infos, found, g->config.device ? g->config.device : getenv("CLKIT_DEVICE"));
    if (clk_stage_times())
        fprintf(stderr, "stages: the devices listed in %.2f s\n", clk_now_s() - start);
    return index >= 0 && infos[index].is_gpu;
}

/* How many labs to grade at once: CLKIT_LABS_AT_ONCE=N where set (on any device: the tests' way to compare the
   two orders on a small machine); else half the cores on a GPU with cores to spare, one everywhere else (a batch's
   worker, whose neighbours fill the cores; Oclgrind as the device; --bench, whose figures stay as measured). */
static int labs_at_once(const struct grading *g)
{
    const char *forced = getenv("CLKIT_LABS_AT_ONCE");
    long cores = usable_cores(), at_once = cores / 2;
    if (g->config.lab_count < 2 || g->config.device_lock)
        return 1;
    if (forced && forced[0])
        at_once = strtol(forced, NULL, 10);
    else if (g->config.simulated || g->config.bench || cores < SIDE_BY_SIDE_CORES || !device_is_gpu(g))
        return 1;
    return at_once < 1 ? 1 : at_once > g->config.lab_count ? g->config.lab_count : (int)at_once;
}

/* Whether the time budget ran out before lab i started; if so, result says so with every test of the lab failed. */
static int out_of_budget(const struct grading *g, const struct grade_lab_spec *lab, struct grade_lab_result *result)
{
    char why[160]; /* a wait for the device is not the student's */
    if (g->config.budget_s <= 0 || clk_now_s() - g->started - device_lock_waited_s() <= g->config.budget_s)
        return 0;
    snprintf(why, sizeof why, "not graded: the grader's time budget (--budget %d s) ran out before this lab "
             "(a busy machine or slow earlier labs); your instructor can grade it again", g->config.budget_s);
    snprintf(result->lab, sizeof result->lab, "%s", lab->name);
    complete_lab(g, lab, why, 0, result);
    return 1;
}

/* Grades lab i into results[i] here (unless the budget ran out); returns 1 on a set-up error. */
static int grade_here(struct grading *g, int i, struct grade_lab_result *results)
{
    const struct grade_lab_spec *lab = registry_find(g->config.labs[i]);
    double started = clk_now_s();
    int failed;
    if (out_of_budget(g, lab, &results[i]))
        return 0;
    results[i].marked = started;
    failed = grade_lab(g, lab, g->seed, &results[i]) != 0;
    results[i].seconds = clk_now_s() - started;
    return failed;
}

/* In a judge of its own: grades lab i into DIR/LAB.record, and what it says on the way (a lab graded again) into
   DIR/LAB.txt, holding the device through lock as a batch's worker does. Does not return. */
static void grade_lab_child(struct grading *g, int i, const char *dir, const char *lock)
{
    static struct grade_lab_result result;
    const struct grade_lab_spec *lab = registry_find(g->config.labs[i]);
    char path[PATH_MAX + 64];
    int rc = 3;
    sandbox_init(); /* what its confined runs leave behind comes back to it */
    g->config.device_lock = lock;
    g->config.lock_whole_labs = 0;
    g->style.colour = 0; /* no progress line: the parent prints the report */
    snprintf(path, sizeof path, "%s/%s.txt", dir, lab->name);
    if ((g->style.out = fopen(path, "w")) != NULL) {
        struct export_run run = {.results = &result, .count = 1, .version = ""};
        result.marked = clk_now_s();
        rc = grade_lab(g, lab, g->seed, &result);
        result.seconds = clk_now_s() - result.marked;
        fclose(g->style.out);
        snprintf(path, sizeof path, "%s/%s.record", dir, lab->name);
        if (result_writer_file(&result_writer_record, path, &run) != 0)
            rc = 3;
    }
    sandbox_kill_orphans();
    _exit(rc);
}

/* Reads back the result of lab i's judge (its exit status) into results[i], after copying to the report what it
   said on the way; a judge that stopped without a record gives a set-up error. */
static void read_child_lab(struct grading *g, int i, const char *dir, int status, struct grade_lab_result *results)
{
    static struct record r;
    const struct grade_lab_spec *lab = registry_find(g->config.labs[i]);
    char path[PATH_MAX + 64], buffer[4096];
    int dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    size_t n;
    FILE *said;
    snprintf(path, sizeof path, "%s/%s.txt", dir, lab->name);
    if ((said = fopen(path, "r")) != NULL) {
        while ((n = fread(buffer, 1, sizeof buffer, said)) > 0)
            fwrite(buffer, 1, n, g->style.out);
        fclose(said);
    }
    if (dirfd >= 0 && WIFEXITED(status) && WEXITSTATUS(status) <= 2 && record_read(dirfd, lab->name, &r) == 0 &&
        r.count == 1) {
        results[i] = r.results[0]; /* its reasons are now results[i]'s to free */
        r.count = 0;
    } else {
        record_free(&r);
        memset(&results[i], 0, sizeof results[i]);
        snprintf(results[i].lab, sizeof results[i].lab, "%s", lab->name);
        results[i].setup_error = strdup("the grader's judge of this lab stopped before it wrote a result");
        complete_lab(g, lab, "not graded: the grader's judge of this lab stopped", 0, &results[i]);
    }
    if (dirfd >= 0)
        close(dirfd);
}

/* Starts labs until at_once run, the last labs first (the larger kernels, whose reference judge takes longest, so
   that no long lab starts late); *started counts those started. A lab whose budget ran out, or that cannot fork, is
   done here at once. pids[i]: -1 not started, 0 done, else its judge. Returns how many run now. */
static int start_labs(struct grading *g, struct grade_lab_result *results, int at_once, int running, int *started,
                      pid_t *pids, int *failed, const char *dir, const char *lock)
{
    for (; *started < g->config.lab_count && running < at_once; (*started)++) {
        int i = g->config.lab_count - 1 - *started;
        pids[i] = 0;
        if (out_of_budget(g, registry_find(g->config.labs[i]), &results[i]))
            continue;
        fflush(NULL);
        if ((pids[i] = fork()) == 0)
            grade_lab_child(g, i, dir, lock);
        if (pids[i] < 0) { /* no judge of its own: graded here */
            pids[i] = 0;
            *failed |= grade_here(g, i, results);
            continue;
        }
        sandbox_keep(pids[i], 1);
        running++;
    }
    return running;
}

/* The labs side by side, at_once at a time, each in a judge of its own (a fork: no submitted code in it), their
   reports printed in lab order as soon as each is ready; returns 1 on a set-up error, or -1 when they cannot start
   (then the caller grades them in order). */
static int grade_side_by_side(struct grading *g, struct grade_lab_result *results, int at_once)
{
    char dir[128], lock[192];
    pid_t pids[JUDGE_MAX_LABS];
    int started = 0, running = 0, printed = 0, failed = 0;
    snprintf(dir, sizeof dir, "%s/labs-XXXXXX", g->scratch);
    if (!mkdtemp(dir)) /* 0700, the grader's: no confined run can reach its files */
        return -1;
    snprintf(lock, sizeof lock, "%s/device.lock", dir);
    for (int i = 0; i < g->config.lab_count; i++)
        pids[i] = -1;
    sandbox_share_user(at_once);
    while (printed < g->config.lab_count) {
        int st = 0;
        pid_t done;
        running = start_labs(g, results, at_once, running, &started, pids, &failed, dir, lock);
        for (; printed < g->config.lab_count && pids[printed] == 0; printed++) /* done: print it in its turn */
            report_lab(&g->style, registry_find(g->config.labs[printed])->title, &results[printed]);
        if (running == 0 || (done = waitpid(-1, &st, 0)) < 0)
            continue;
        for (int i = 0; i < g->config.lab_count; i++)
            if (pids[i] > 0 && pids[i] == done) {
                sandbox_keep(done, 0);
                read_child_lab(g, i, dir, st, results);
                failed |= results[i].setup_error != NULL;
                pids[i] = 0, running--;
            }
        sandbox_kill_orphans(); /* what a judge left behind comes back here */
    }
    sandbox_share_user(1);
    scratch_remove(dir);
    return failed;
}

int pipeline_run(struct grading *g, struct grade_lab_result *results)
{
    int all_passed = 1, setup_failed = -1, at_once, in_order;
    char layers[512];
    sandbox_layers(layers, sizeof layers);
    fprintf(g->style.out, "grading %s with seed %llu (replay with --seed %llu)\nconfinement: %s\n", g->source_dir,
            (unsigned long long)g->seed, (unsigned long long)g->seed, layers);
    if (g->course.path[0]) /* where speed counts, said once before any test */
        fprintf(g->style.out, "course: %s (%s): speed %s%s\n", g->course.name[0] ? g->course.name : "unnamed",
                g->course.path, g->course.scores_speed ? "graded on " : "reported only, on every device",
                g->course.scores_speed ? g->course.profile.device : "");
    fputc('\n', g->style.out);
    if ((at_once = labs_at_once(g)) > 1)
        setup_failed = grade_side_by_side(g, results, at_once);
    in_order = setup_failed < 0;
    for (int i = 0; in_order && i < g->config.lab_count; i++) {
        setup_failed = i == 0 ? 0 : setup_failed;
        setup_failed |= grade_here(g, i, results);
        report_lab(&g->style, registry_find(g->config.labs[i])->title, &results[i]);
    }
    for (int i = 0; i < g->config.lab_count; i++)
        for (int t = 0; t < results[i].test_count; t++)
            all_passed &= results[i].tests[t].passed || results[i].tests[t].informational ||
                          results[i].tests[t].pending;
    report_total(&g->style, results, g->config.lab_count);
    return setup_failed > 0 ? 2 : all_passed ? 0 : 1;
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
