#include "judge/speed_test.h"

#include "labs/registry.h"
#include "files.h"
#include "judge/device_busy.h"
#include "judge/device_lock.h"
#include "judge/spot_check.h"
#include "text.h"
#include "timing.h"
#include "wire/speed.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#define TEXT_SIZE 8192

/* The rates of a timed case: GB/s or GFLOP/s, and the fraction of the device's peak. */
struct rates {
    double rate, peak, fraction;
    const char *unit, *peak_name;
};

static void measure_rates(const struct grade_lab_spec *lab, const struct grade_case *c, double ms, double peak,
                          struct rates *r)
{
    r->rate = ms > 0 ? lab->family->work(c) / (ms * 1e6) : 0.0;
    r->unit = lab->family->work_is_flops ? "GFLOP/s" : "GB/s";
    r->peak_name = lab->family->work_is_flops ? "the FMA peak" : "the copy bandwidth";
    r->peak = peak;
    r->fraction = peak > 0 ? r->rate / peak : 0.0;
}

int runperf_profile(struct lab_run *r, char *why, size_t size)
{
    if (r->profile_loaded)
        return 0;
    /* On the course's device its own profile decides, whatever grader/profiles holds. */
    if (course_grades_on(&r->g->course, r->hello.device_name))
        r->profile = r->g->course.profile;
    else if (profile_load(r->g->profiles_dir, r->hello.device_name, r->hello.is_gpu, &r->profile, why, size) != 0)
        return -1;
    r->profile_loaded = 1;
    return 0;
}

static const struct perf_rule *rule_of(const struct lab_run *r)
{
    return &r->profile.labs[registry_index(r->lab)];
}

/* The timing request of the lab's timing case (into c too): runs comparisons (calibration), else one. */
static void timing_request(struct lab_run *r, int runs, struct grade_case *c, struct wire_perf *request)
{
    const struct grade_lab_spec *lab = r->lab;
    memset(request, 0, sizeof *request); /* padding too: the runner compares a staged request byte for byte */
    request->seed = r->seed;
    request->compare = lab->perf.baseline_file != NULL;
    request->runs = runs;
    request->budget_s = r->hello.is_gpu ? (runs > 1 ? 4.0 : 3.0) : (runs > 1 ? 8.0 : 4.0);
    request->min_speedup = rule_of(r)->min_speedup;
    request->peak = lab->family->work_is_flops ? WIRE_PEAK_FMA : WIRE_PEAK_COPY;
    request->copy_n = r->profile.vector_n;
    request->clblast = lab->family->work_is_flops;
    request->further = r->g->config.bench && lab->perf.further.file;
    profile_timing_case(lab, &r->profile, c);
    memcpy(&request->c, c, sizeof *c);
}

/* Sends request (type WIRE_PERF_STAGE or WIRE_PERF) and waits for its reply into done; returns 0, or -1 when the
   runner is gone. */
static int ask(struct lab_run *r, uint32_t type, const struct wire_perf *request, struct wire_perf_done *done)
{
    struct wire_message m;
    uint32_t want = type == WIRE_PERF_STAGE ? WIRE_PERF_STAGED : WIRE_PERF_DONE;
    if (session_ask(&r->session, type, request, sizeof *request, want, sizeof *done, &m) != 0 ||
        m.length != sizeof *done) {
        wire_message_free(&m);
        r->session.broken = 1;
        return -1;
    }
    memcpy(done, m.data, sizeof *done);
    done->why[sizeof done->why - 1] = '\0';
    wire_message_free(&m);
    return 0;
}

/* Asks the runner to time the kernel on the profile's timing case; returns 0, or -1 when the runner is gone. */
static int ask_timing(struct lab_run *r, int runs, struct grade_case *c, struct wire_perf_done *done)
{
    struct wire_perf request;
    timing_request(r, runs, c, &request);
    return ask(r, WIRE_PERF, &request, done);
}

/* ask_timing, waiting while the device has no memory for the timing's buffers (another process holds it), the
   waits adding up to twice the run's limit, as a case's do. */
static int ask_timing_patiently(struct lab_run *r, int runs, struct grade_case *c, struct wire_perf_done *done)
{
    struct busy_patience patience = BUSY_PATIENCE(r->g->config.timeout_s);
    int rc, wait_s;
    while ((rc = ask_timing(r, runs, c, done)) == 0 && done->status == CL_MEM_OBJECT_ALLOCATION_FAILURE &&
           (wait_s = busy_next_wait(&patience)) > 0)
        runlab_idle(r, wait_s);
    return rc;
}

static void describe_speed(const struct lab_run *r, const struct wire_perf_done *d, const struct rates *rt,
                           enum speed_call call, char *text, size_t size)
{
    const struct perf_rule *rule = rule_of(r);
    const char *baseline = r->lab->perf.baseline_name;
    const char *verdict = call == SPEED_MET ? "met" : call == SPEED_NOT_MET ? "not met"
                                                    : d->speedup >= rule->min_speedup ? "met, but close to the threshold"
                                                                                      : "close to the threshold";
    if (rule->min_speedup > 0)
        snprintf(text, size, "%.2f\u00d7 the speed of %s; this device's profile (%s) expects %.2f\u00d7: %s",
                        d->speedup, baseline, r->profile.name, rule->min_speedup, verdict);
    else
        snprintf(text, size, "%.2f\u00d7 the speed of %s (profile: %s)", d->speedup, baseline, r->profile.name);
    clk_append(text, size,
               "\n%.3f ms against %.3f ms for %s, median of %d interleaved pairs (95%% interval of the speedup "
               "%.2f\u2013%.2f\u00d7)%s\n%.1f %s, %.0f%% of %s (%.1f %s)",
               d->student_ms, d->baseline_ms, baseline, d->pairs, d->low, d->high,
               d->settled ? "" : " (the timing did not settle in the time allowed: this machine is busy)", rt->rate,
               rt->unit, 100.0 * rt->fraction, rt->peak_name, rt->peak, rt->unit);
    if (call == SPEED_CLOSE)
        clk_append(text, size, "\nclose to the threshold: timed again, the threshold stayed within the noise of "
                   "the measurement, so it counts as met");
}

/* Judges the times against the profile: the text, the metrics for --bench, and the call against its threshold. */
static enum speed_call judge_timing(const struct lab_run *r, const struct grade_case *c,
                                    const struct wire_perf_done *d, char *text, char *metrics, size_t metrics_size)
{
    const struct perf_rule *rule = rule_of(r);
    struct speed_estimate e = {.median = d->speedup, .low = d->low, .high = d->high, .count = d->pairs};
    struct rates rt;
    enum speed_call call;
    measure_rates(r->lab, c, d->student_ms, d->peak, &rt);
    if (!r->lab->perf.baseline_file) {
        call = rule->min_peak_fraction <= 0 ? SPEED_NO_THRESHOLD
               : rt.fraction >= rule->min_peak_fraction ? SPEED_MET : SPEED_NOT_MET;
        snprintf(metrics, metrics_size, "size=%zu;ms=%.4f;rate=%.2f;unit=%s;peak=%.2f;fraction=%.4f", c->dims[0],
                 d->student_ms, rt.rate, rt.unit, rt.peak, rt.fraction);
        snprintf(text, TEXT_SIZE, "%.3f ms: %.1f %s, %.0f%% of %s (%.1f %s), profile: %s", d->student_ms, rt.rate,
                 rt.unit, 100.0 * rt.fraction, rt.peak_name, rt.peak, rt.unit, r->profile.name);
        if (rule->min_peak_fraction > 0)
            clk_append(text, TEXT_SIZE, "\nneeds %.0f%% of the peak", 100.0 * rule->min_peak_fraction);
        return call;
    }
    call = speed_decide(&e, rule->min_speedup);
    snprintf(metrics, metrics_size,
             "size=%zu;ms=%.4f;rate=%.2f;unit=%s;peak=%.2f;fraction=%.4f;baseline_ms=%.4f;speedup=%.3f;"
             "threshold=%.2f;clblast_ms=%.4f;further_ms=%.4f;low=%.3f;high=%.3f;pairs=%d",
             c->dims[0], d->student_ms, rt.rate, rt.unit, rt.peak, rt.fraction, d->baseline_ms, d->speedup,
             rule->min_speedup, d->clblast_ms, d->further_ms, d->low, d->high, d->pairs);
    describe_speed(r, d, &rt, call, text, TEXT_SIZE);
    return call;
}

/* Reads a sample of the timed run's result, drawn now that the run is over, and judges it into log. */
static void check_timed(struct lab_run *r, const struct grade_case *c, struct case_log *log)
{
    struct wire_spot request = {0};
    struct wire_message m;
    const struct wire_spot_done *done;
    if (getrandom(&request.sample_seed, sizeof request.sample_seed, 0) != sizeof request.sample_seed)
        request.sample_seed = (uint64_t)(clk_now_s() * 1e9);
    if (session_ask(&r->session, WIRE_SPOT, &request, sizeof request, WIRE_SPOT_DONE,
                    sizeof *done + SPOT_SAMPLES * sizeof(float), &m) != 0 || m.length < sizeof *done) {
        wire_message_free(&m);
        r->session.broken = 1;
        return;
    }
    done = (const struct wire_spot_done *)m.data;
    log->timed_checked = 1;
    if (done->status != CL_SUCCESS || m.length != sizeof *done + done->count * sizeof(float)) {
        log->timed_wrong = 1;
        snprintf(log->timed_detail, sizeof log->timed_detail, "the timed run's result could not be read back");
    } else {
        const float *values = (const float *)(m.data + sizeof *done);
        log->timed_wrong = spot_check(r->lab, c, r->seed, request.sample_seed, values, done->count,
                                      log->timed_detail, sizeof log->timed_detail);
    }
    wire_message_free(&m);
}

/* What the speed test gives: reported only, met, not met, or pending (decided on the course's device alone). */
enum outcome { OUTCOME_NOT_MET, OUTCOME_MET, OUTCOME_PENDING };

/* Adds the speed test: worth the course's points for the lab (none: reported, informational); off the course's
   device, or where a busy device left it undecided, pending, so that the maximum is the same on every machine. */
static void add_perf(struct grade_lab_result *result, const struct lab_run *r, enum outcome outcome,
                     const char *text, const char *metrics)
{
    double points = course_speed_points(&r->g->course, r->lab);
    int met = outcome == OUTCOME_MET, pending = points > 0 && outcome == OUTCOME_PENDING;
    struct grade_test *test = result_add(result, labs_test_name(r->lab, GRADE_TEST_SPEED), met ? points : 0,
                                         points, met, text);
    if (test) {
        test->informational = points <= 0;
        test->pending = pending;
        snprintf(test->metrics, sizeof test->metrics, "%s", metrics);
    }
}

/* Where the course's points are decided, as the first words of the test: "2 points, graded on NVIDIA H100 80GB
   HBM3; here reported only: " off that device, else "". */
static void where_it_counts(const struct lab_run *r, char *text, size_t size)
{
    double points = course_speed_points(&r->g->course, r->lab);
    text[0] = '\0';
    if (points > 0 && !course_grades_on(&r->g->course, r->hello.device_name))
        snprintf(text, size, "%g point%s, graded on %s; here reported only: ", points, points == 1 ? "" : "s",
                 r->g->course.profile.device);
}

/* Whether the call on a busy device stands (see speed_stands_when_busy): a bandwidth lab's, without an interval,
   only when met. */
static int stands_when_busy(const struct lab_run *r, const struct wire_perf_done *d, int met)
{
    struct speed_estimate e = {.median = d->speedup, .low = d->low, .high = d->high, .count = d->pairs};
    return met || (r->lab->perf.baseline_file && speed_stands_when_busy(&e, rule_of(r)->min_speedup));
}

/* The speed test's outcome for a timed run whose results are right, with its text and metrics: scored on the
   course's device, where a busy device may leave a result short of the threshold undecided. */
static enum outcome report_timing(const struct lab_run *r, const struct grade_case *c,
                                  const struct wire_perf_done *done, const char *busy, char *text, char *metrics,
                                  size_t metrics_size)
{
    static char measured[TEXT_SIZE];
    enum speed_call call = judge_timing(r, c, done, measured, metrics, metrics_size);
    int counts = course_speed_points(&r->g->course, r->lab) > 0, here = course_grades_on(&r->g->course,
                                                                                          r->hello.device_name);
    int is_busy = busy[0] != '\0';
    /* Nothing to meet passes, as it always has: only a reported lab has no threshold (a scored one must). */
    enum outcome outcome = speed_awarded(call) || call == SPEED_NO_THRESHOLD ? OUTCOME_MET : OUTCOME_NOT_MET;
    where_it_counts(r, text, TEXT_SIZE);
    if (counts && here && is_busy && !stands_when_busy(r, done, outcome == OUTCOME_MET)) {
        snprintf(text, TEXT_SIZE, "not decided: %s while it was timed; grade again when it is free\n", busy);
        outcome = OUTCOME_PENDING;
    } else if (counts && !here)
        outcome = OUTCOME_PENDING;
    clk_append(text, TEXT_SIZE, "%s", measured);
    if (is_busy && !(counts && here && outcome == OUTCOME_PENDING))
        clk_append(text, TEXT_SIZE, "\n%s while it was timed: the figures may be off", busy);
    snprintf(metrics + strlen(metrics), metrics_size - strlen(metrics), ";busy=%d", is_busy);
    if (rule_of(r)->informational && rule_of(r)->note[0])
        clk_append(text, TEXT_SIZE, "\n%s", rule_of(r)->note);
    if (call == SPEED_NOT_MET)
        clk_append(text, TEXT_SIZE, "\nsee %s for the optimisation this test looks for", r->lab->perf.handout);
    return outcome;
}

/* Returns 1 when the lab's baseline is in kernels/, else 0 with why in text: a student release leaves out a
   baseline that is another lab's solution (lab 8's is lab 6's). */
static int baseline_present(const struct lab_run *r, char *text, size_t size)
{
    char path[PATH_MAX + 300];
    if (!r->lab->perf.baseline_file)
        return 1;
    snprintf(path, sizeof path, "%s/%s", r->g->kernels_dir, r->lab->perf.baseline_file);
    if (clk_file_exists(path))
        return 1;
    snprintf(text, size, "not timed: its baseline, kernels/%s, is not in this copy of the kit (a student release "
             "leaves out a baseline that is another lab's solution); the course's grader times it",
             r->lab->perf.baseline_file);
    return 0;
}

/* Whether the device is busy before it is timed, looking twice a second apart: what keeps it busy, or "". */
static void busy_before(const struct lab_run *r, char *busy, size_t size)
{
    if (busy_device(r->hello.is_gpu, r->hello.device_name, busy, size)) {
        sleep(1);
        busy_device(r->hello.is_gpu, r->hello.device_name, busy, size);
    }
}

/* Times the kernel into c and done; returns 1 when it ran right and is to be reported, else 0 with the outcome in
   *outcome and why in text. */
static int time_kernel(struct lab_run *r, struct case_log *log, struct grade_case *c, struct wire_perf_done *done,
                       char *text, enum outcome *outcome)
{
    int here = course_grades_on(&r->g->course, r->hello.device_name);
    if (ask_timing_patiently(r, 1, c, done) != 0) {
        struct sandbox_outcome ended;
        char how[256];
        runlab_close(r, &ended);
        sandbox_describe(&ended, r->g->config.timeout_s, how, sizeof how);
        sandbox_outcome_free(&ended);
        snprintf(text, TEXT_SIZE, "the kernel %s during this test, while it was timed", how);
        *outcome = OUTCOME_NOT_MET;
        return 0;
    }
    if (done->status != CL_SUCCESS) {
        where_it_counts(r, text, TEXT_SIZE);
        clk_append(text, TEXT_SIZE, "not timed: %s", done->why[0] ? done->why : clk_error_name(done->status));
        /* No device memory for the timing's buffers is the device's state (a neighbour holds it), like a busy one. */
        *outcome = here && done->status != CL_MEM_OBJECT_ALLOCATION_FAILURE ? OUTCOME_NOT_MET : OUTCOME_PENDING;
        return 0;
    }
    check_timed(r, c, log);
    if (log->timed_wrong) {
        snprintf(text, TEXT_SIZE, "not reported: the timed run computed wrong results (see real cases)");
        *outcome = OUTCOME_NOT_MET;
        return 0;
    }
    return 1;
}

/* Seconds this process has spent in runperf_test: where a grading's time goes (CLKIT_STAGE_TIMES). */
static double perf_seconds;

double runperf_seconds(void)
{
    return perf_seconds;
}

/* What goes before the exclusive hold, beside other workers' device work: the timing set up in the runner (its
   inputs made and uploaded, the baseline built), and the busy check (another program's processes, not ours),
   into busy. The hold is then the timing's alone. */
static void stage_timing(struct lab_run *r, char *busy, size_t size)
{
    struct wire_perf request;
    struct wire_perf_done staged;
    struct grade_case c;
    timing_request(r, 1, &c, &request);
    (void)ask(r, WIRE_PERF_STAGE, &request, &staged); /* a runner gone meanwhile fails the timing after it */
    busy_before(r, busy, size);
}

static void perf_test(struct lab_run *r, const char *not_timed, struct case_log *log, struct grade_lab_result *result)
{
    static char text[TEXT_SIZE], metrics[320];
    enum outcome outcome;
    metrics[0] = '\0';
    if (runperf_profile(r, text, sizeof text) != 0) {
        result->setup_error = strdup(text);
        return;
    }
    if (not_timed) {
        add_perf(result, r, OUTCOME_NOT_MET, not_timed, "");
        return;
    }
    if (!baseline_present(r, text, sizeof text)) {
        add_perf(result, r, OUTCOME_PENDING, text, "");
        return;
    }
    static char busy[256];
    stage_timing(r, busy, sizeof busy);
    /* Alone on the device: no other worker's kernel beside it, and so none that the busy check could see. */
    double waited = device_lock_waited_s();
    enum device_lock_mode held = device_lock_take(r->g->config.device_lock, DEVICE_LOCK_ALONE);
    waited = device_lock_waited_s() - waited; /* the runner sat idle meanwhile: its deadline moves on as much */
    r->session.child.deadline += waited;
    r->session.started_at += waited;
    struct wire_perf_done done;
    struct grade_case c;
    int timed = time_kernel(r, log, &c, &done, text, &outcome);
    device_lock_restore(r->g->config.device_lock, held);
    /* The busy check ran before the wait for the hold: one more look, after it, for a program that came meanwhile
       (one that came after the timing only leaves a scored result undecided, never costs it a point). */
    if (timed && !busy[0])
        busy_device(r->hello.is_gpu, r->hello.device_name, busy, sizeof busy);
    if (timed)
        outcome = report_timing(r, &c, &done, busy, text, metrics, sizeof metrics);
    add_perf(result, r, outcome, text, metrics);
}

void runperf_test(struct lab_run *r, const char *not_timed, struct case_log *log, struct grade_lab_result *result)
{
    double start = clk_now_s();
    perf_test(r, not_timed, log, result);
    perf_seconds += clk_now_s() - start;
}

int runperf_calibrate(struct lab_run *r, int runs, double *values, char *why, size_t size)
{
    struct wire_perf_done done;
    struct grade_case c;
    struct rates rt;
    memset(&done, 0, sizeof done);
    if (runperf_profile(r, why, size) != 0)
        return -1;
    if (ask_timing(r, runs, &c, &done) != 0 || done.status != CL_SUCCESS) {
        snprintf(why, size, "the solution could not be timed: %s", done.why[0] ? done.why : "the runner stopped");
        return -1;
    }
    for (int i = 0; i < runs && i < WIRE_MAX_RUNS; i++) {
        measure_rates(r->lab, &c, done.values[i], done.peak, &rt);
        values[i] = r->lab->perf.baseline_file ? done.values[i] : rt.fraction;
    }
    return 0;
}
