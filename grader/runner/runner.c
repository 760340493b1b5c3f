/* clkit-runner: the only grader process that runs submitted code. It builds the kernel, runs the cases and
   timings the judge asks for, and sends back raw buffers and times; it never sees a reference or a score. */
#include "wire/harness.h"
#include "labs/contract.h"
#include "labs/registry.h"
#include "wire/spot.h"
#include "runner/clblast.h"
#include "runner/measure.h"
#include "program.h"
#include "runner/builds.h"
#include "wire/messages.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define REQUEST_LIMIT 4096

/* A timing set up ahead of the judge's exclusive hold on the device (inputs made and uploaded, the baseline built),
   for the request it was set up for. */
struct staged {
    int ready;
    struct wire_perf request;
    struct perf_kernel student, baseline;
    cl_program baseline_program;
};

struct runner {
    const struct grade_lab_spec *lab;
    struct wire_job job;
    struct clk_env env;
    struct built built;
    float *timed;        /* the last timed run's result, for the judge's check */
    size_t timed_length;
    struct staged staged;
};

static int reply(uint32_t type, const void *head, size_t length, const char *text)
{
    return wire_send(WIRE_REPLY_FD, type, head, length, text, text ? strlen(text) : 0);
}

/* Maps the judge's buffers file for floats floats: the case is staged in it and read back into it. */
static float *map_area(size_t floats)
{
    struct stat st;
    void *area;
    if (fstat(WIRE_BUFFERS_FD, &st) != 0 || (size_t)st.st_size < floats * sizeof(float) || floats == 0)
        return NULL;
    area = mmap(NULL, floats * sizeof(float), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, WIRE_BUFFERS_FD, 0);
    return area == MAP_FAILED ? NULL : area;
}

static void run_case(struct runner *r, const struct wire_case *request)
{
    struct grade_case c = request->c;
    struct grade_launch launch;
    struct harness_raw raw;
    struct wire_case_done done = {.status = CL_OUT_OF_HOST_MEMORY};
    float *area = NULL;
    size_t floats = 0;
    char budget[64];
    memset(&launch, 0, sizeof launch);
    /* Read by the kit's Oclgrind plugin as each launch begins (runner and plugin share this process there). */
    snprintf(budget, sizeof budget, "%llu %llu %u", (unsigned long long)request->instruction_budget,
             (unsigned long long)request->item_budget, (unsigned)request->counted);
    setenv("CLKIT_JUDGE_BUDGET", budget, 1);
    c.no_reference = 1; /* the runner makes the inputs only: the expected values never enter this process */
    c.inputs_later = 1;
    if (r->lab->family->prepare(&c, request->seed, &launch) == 0 &&
        (area = map_area(floats = harness_area_floats(&launch, request->guard))) != NULL)
        done.status = harness_launch(&r->env, builds_kernels(&r->built, c.tile), &launch, request->guard,
                                     request->guard_bits, area, &raw);
    if (done.status == CL_SUCCESS) {
        done.buffer_count = launch.buffer_count;
        for (int i = 0; i < launch.buffer_count; i++)
            done.totals[i] = raw.totals[i];
    }
    if (area)
        munmap(area, floats * sizeof(float));
    reply(WIRE_CASE_DONE, &done, sizeof done, NULL);
    labs_launch_free(&launch);
}

/* Builds the lab's baseline from the kernels folder and prepares it on case c; returns 0 or -1 with why. */
static int setup_baseline(struct runner *r, const struct grade_case *c, cl_program *program,
                          struct perf_kernel *baseline, char *why, size_t size)
{
    char path[1024], *log = NULL;
    cl_int status = CL_SUCCESS;
    const struct grade_perf *perf = &r->lab->perf;
    struct grade_case own = *c; /* the same problem under the baseline's own work-group, built without options */
    own.tile = own.wpt = 0;
    own.local[0] = own.local[1] = perf->local;
    snprintf(path, sizeof path, "%s/%s", r->job.kernels_dir, perf->baseline_file);
    *program = clk_build_program(r->env.context, r->env.info.device, path, "", &log);
    if (*program)
        baseline->kernel = clCreateKernel(*program, perf->baseline_kernel, &status);
    if (!*program || status != CL_SUCCESS || perf->baseline_family->prepare(&own, 7, &baseline->launch) != 0 ||
        (status = perf_setup(&r->env, baseline)) != CL_SUCCESS) {
        snprintf(why, size, "the baseline %s could not be set up (%s)", perf->baseline_file, clk_error_name(status));
        free(log);
        return -1;
    }
    free(log);
    return 0;
}

/* Times the lab's going-further kernel alone on the same problem (its own buffers and work-group); 0 when it
   cannot. */
static double time_further(struct runner *r, const struct grade_case *c)
{
    const struct grade_further *further = &r->lab->perf.further;
    struct perf_kernel k;
    struct grade_case own = *c;
    cl_program program;
    cl_int status = CL_SUCCESS;
    char path[1024], *log = NULL;
    double ms = 0.0;
    memset(&k, 0, sizeof k);
    own.tile = own.wpt = 0;
    snprintf(path, sizeof path, "%s/%s", r->job.kernels_dir, further->file);
    program = clk_build_program(r->env.context, r->env.info.device, path, "", &log);
    free(log);
    if (program)
        k.kernel = clCreateKernel(program, further->kernel, &status);
    if (program && status == CL_SUCCESS && further->family->prepare(&own, 7, &k.launch) == 0 &&
        perf_setup(&r->env, &k) == CL_SUCCESS && perf_time(&r->env, &k, 20, &ms) != CL_SUCCESS)
        ms = 0.0;
    perf_release(&k);
    if (k.kernel)
        clReleaseKernel(k.kernel);
    if (program)
        clReleaseProgram(program);
    return ms;
}

/* Interleaved comparisons with the baseline: one, which times again by itself while the threshold lies within
   its noise, or runs of them for calibration. */
static cl_int compare_runs(struct runner *r, const struct wire_perf *request, struct perf_kernel *student,
                           struct perf_kernel *baseline, struct wire_perf_done *done)
{
    struct perf_comparison cmp;
    cl_int status = CL_SUCCESS;
    for (int i = 0; i < done->runs; i++) {
        CL_PASS(status, perf_compare(&r->env, student, baseline, request->budget_s, request->min_speedup, &cmp));
        done->values[i] = cmp.speedup;
    }
    done->student_ms = cmp.student_ms;
    done->baseline_ms = cmp.baseline_ms;
    done->speedup = cmp.speedup;
    done->low = cmp.low;
    done->high = cmp.high;
    done->spread = cmp.spread;
    done->pairs = cmp.pairs;
    done->settled = cmp.settled;
    done->close = cmp.close;
cleanup:
    return status;
}

static cl_int time_alone(struct runner *r, struct perf_kernel *student, struct wire_perf_done *done)
{
    cl_int status = CL_SUCCESS;
    for (int i = 0; i < done->runs; i++)
        CL_PASS(status, perf_time(&r->env, student, 9, &done->values[i]));
cleanup:
    done->student_ms = done->values[0];
    return status;
}

/* Reads the timed run's output back and keeps its result (after the family's finish) for the judge's check;
   the output's host copy becomes the result where there is no finish, so a large case is not held twice. */
static cl_int keep_timed(struct runner *r, struct perf_kernel *k)
{
    struct grade_launch *launch = &k->launch;
    const struct grade_family *family = r->lab->family;
    int out = 0;
    while (out < launch->buffer_count - 1 && launch->is_output[out] != GRADE_OUTPUT)
        out++;
    cl_int status;
    free(r->timed);
    r->timed = NULL;
    CL_CHECK_STATUS(status, clEnqueueReadBuffer(r->env.queue, k->buffers[out], CL_TRUE, 0,
                                                launch->counts[out] * sizeof(float), launch->host[out], 0, NULL, NULL));
    r->timed_length = family->finish ? launch->shape.count : launch->counts[out];
    if (family->finish && (r->timed = malloc((r->timed_length ? r->timed_length : 1) * sizeof(float))) != NULL)
        family->finish(launch, launch->host[out], r->timed);
    else if (!family->finish) {
        r->timed = launch->host[out];
        launch->host[out] = NULL;
    }
    return r->timed ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
cleanup:
    return status;
}

/* Times the staged kernels as request asks, into done. */
static void time_kernel(struct runner *r, const struct wire_perf *request, struct wire_perf_done *done)
{
    struct perf_kernel *student = &r->staged.student;
    const struct grade_case *c = &request->c;
    done->status = request->compare ? compare_runs(r, request, student, &r->staged.baseline, done)
                                    : time_alone(r, student, done);
    /* Before CLBlast, which writes its own product into the same C. */
    if (done->status == CL_SUCCESS && (done->status = keep_timed(r, student)) != CL_SUCCESS)
        snprintf(done->why, sizeof done->why, "the timed run's result could not be read back (%s)",
                 clk_error_name(done->status));
    if (done->status == CL_SUCCESS && request->peak == WIRE_PEAK_COPY)
        done->peak = perf_copy_gbps(&r->env, r->job.kernels_dir, request->copy_n);
    else if (done->status == CL_SUCCESS && request->peak == WIRE_PEAK_FMA)
        done->peak = perf_fma_gflops(&r->env, r->job.kernels_dir);
    if (done->status == CL_SUCCESS && request->clblast)
        done->clblast_ms = clblast_sgemm_ms(&r->env, student->buffers[0], student->buffers[1], student->buffers[2],
                                            c->dims[0], c->dims[1], c->dims[2]);
    if (done->status == CL_SUCCESS && request->further)
        done->further_ms = time_further(r, c);
}

/* Releases what stage set up. */
static void unstage(struct runner *r)
{
    struct staged *s = &r->staged;
    perf_release(&s->student);
    perf_release(&s->baseline);
    if (s->baseline.kernel)
        clReleaseKernel(s->baseline.kernel);
    if (s->baseline_program)
        clReleaseProgram(s->baseline_program);
    memset(s, 0, sizeof *s);
}

/* Sets up request's timing: the student's kernel on the timing case's inputs, and the baseline where it compares;
   returns the status, with why where it failed. */
static cl_int stage(struct runner *r, const struct wire_perf *request, char *why, size_t size)
{
    struct staged *s = &r->staged;
    struct grade_case c = request->c;
    cl_int status = CL_SUCCESS;
    unstage(r);
    s->request = *request;
    c.no_reference = 1;
    s->student.sequence = builds_kernels(&r->built, c.tile);
    s->student.kernel = s->student.sequence[0];
    if (r->lab->family->prepare(&c, request->seed, &s->student.launch) != 0 ||
        (status = perf_setup(&r->env, &s->student)) != CL_SUCCESS) {
        status = status ? status : CL_OUT_OF_HOST_MEMORY;
        snprintf(why, size, "the timing case could not be set up on this device (%s)", clk_error_name(status));
    } else if (request->compare &&
               setup_baseline(r, &request->c, &s->baseline_program, &s->baseline, why, size) != 0)
        status = CL_INVALID_PROGRAM;
    s->ready = status == CL_SUCCESS;
    return status;
}

static void run_spot(struct runner *r, const struct wire_spot *request)
{
    size_t at[SPOT_SAMPLES];
    float values[SPOT_SAMPLES];
    struct wire_spot_done done = {.status = r->timed ? CL_SUCCESS : CL_INVALID_OPERATION};
    if (r->timed) {
        done.count = (uint32_t)spot_draw(request->sample_seed, r->timed_length, at);
        for (uint32_t i = 0; i < done.count; i++)
            values[i] = r->timed[at[i]];
    }
    wire_send(WIRE_REPLY_FD, WIRE_SPOT_DONE, &done, sizeof done, values, done.count * sizeof(float));
}

/* Sets up a timing while other work may run on the device, so that the judge's exclusive hold is the timing's. */
static void run_stage(struct runner *r, const struct wire_perf *request)
{
    struct wire_perf_done done;
    memset(&done, 0, sizeof done);
    done.status = stage(r, request, done.why, sizeof done.why);
    reply(WIRE_PERF_STAGED, &done, sizeof done, NULL);
}

/* Times the kernel: on what run_stage set up for the same request, else set up now. */
static void run_perf(struct runner *r, const struct wire_perf *request)
{
    struct wire_perf_done done;
    memset(&done, 0, sizeof done);
    done.runs = request->runs < 1 ? 1 : request->runs > WIRE_MAX_RUNS ? WIRE_MAX_RUNS : request->runs;
    if (!r->staged.ready || memcmp(&r->staged.request, request, sizeof *request) != 0)
        done.status = stage(r, request, done.why, sizeof done.why);
    if (done.status == CL_SUCCESS)
        time_kernel(r, request, &done);
    unstage(r);
    reply(WIRE_PERF_DONE, &done, sizeof done, NULL);
}

/* Opens the device and tells the judge which it is, before any submitted code is built. */
static int hello(struct runner *r)
{
    struct wire_hello h = {0};
    cl_uint align_bits = 1024;
    if (clk_env_create(r->job.device[0] ? r->job.device : NULL, &r->env) != 0) {
        cl_int status = r->env.status;
        /* NVIDIA's driver answers CL_OUT_OF_HOST_MEMORY when the GPU's memory is taken */
        h.memory_held = status == CL_OUT_OF_HOST_MEMORY || status == CL_OUT_OF_RESOURCES ||
                        status == CL_MEM_OBJECT_ALLOCATION_FAILURE;
        snprintf(h.error, sizeof h.error, "no usable OpenCL device (see the message above)%s",
                 h.memory_held ? ": it had no memory for a context (does another process hold it?)" : "");
        reply(WIRE_HELLO, &h, sizeof h, NULL);
        return -1;
    }
    clGetDeviceInfo(r->env.info.device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align_bits, &align_bits, NULL);
    h.ok = 1;
    h.is_gpu = r->env.info.is_gpu;
    h.align_bytes = align_bits / 8 ? align_bits / 8 : 4;
    snprintf(h.device_name, sizeof h.device_name, "%.127s", r->env.info.device_name);
    return reply(WIRE_HELLO, &h, sizeof h, NULL);
}

static int build(struct runner *r)
{
    static char reason[65536];
    struct wire_built b = {0};
    if (!r->job.kernel_path[0])
        return reply(WIRE_BUILT, &b, sizeof b, "not built");
    b.ok = builds_all(&r->env, r->lab, r->job.kernel_path, r->job.include_dir[0] ? r->job.include_dir : NULL,
                      r->job.unoptimised, &r->built, reason, sizeof reason) == 0;
    if (b.ok && r->job.build_as_host && !r->env.info.is_gpu)
        builds_as_host(&r->env, r->job.kernel_path);
    b.max_local = b.ok ? builds_max_local(&r->env, &r->built) : 0;
    return reply(WIRE_BUILT, &b, sizeof b, b.ok ? NULL : reason);
}

static void serve(struct runner *r)
{
    struct wire_message m;
    while (wire_recv_blocking(STDIN_FILENO, REQUEST_LIMIT, &m) == 0) {
        if (m.type == WIRE_CASE && m.length == sizeof(struct wire_case))
            run_case(r, (const struct wire_case *)m.data);
        else if (m.type == WIRE_PERF_STAGE && m.length == sizeof(struct wire_perf))
            run_stage(r, (const struct wire_perf *)m.data);
        else if (m.type == WIRE_PERF && m.length == sizeof(struct wire_perf))
            run_perf(r, (const struct wire_perf *)m.data);
        else if (m.type == WIRE_SPOT && m.length == sizeof(struct wire_spot))
            run_spot(r, (const struct wire_spot *)m.data);
        else {
            wire_message_free(&m);
            return;
        }
        wire_message_free(&m);
    }
}

int main(void)
{
    static struct runner r;
    struct wire_message m;
    if (wire_recv_blocking(STDIN_FILENO, REQUEST_LIMIT, &m) != 0 || m.type != WIRE_JOB ||
        m.length != sizeof r.job) {
        fprintf(stderr, "clkit-runner: started without a job; it is run by the grader\n");
        return 2;
    }
    memcpy(&r.job, m.data, sizeof r.job);
    wire_message_free(&m);
    r.job.lab[sizeof r.job.lab - 1] = r.job.device[sizeof r.job.device - 1] = '\0';
    r.job.kernel_path[sizeof r.job.kernel_path - 1] = r.job.include_dir[sizeof r.job.include_dir - 1] = '\0';
    r.job.kernels_dir[sizeof r.job.kernels_dir - 1] = '\0';
    if (!(r.lab = registry_find(r.job.lab)) || !(r.lab = labs_under_contract(r.lab, r.job.contract)) ||
        hello(&r) != 0)
        return 2;
    if (build(&r) == 0)
        serve(&r);
    unstage(&r);
    builds_release(&r.built);
    free(r.timed);
    clk_env_release(&r.env);
    return 0;
}
