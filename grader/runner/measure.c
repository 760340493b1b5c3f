#include "runner/measure.h"

#include "wire/compare.h"
#include "wire/harness.h"
#include "wire/speed.h"
#include "program.h"
#include "timing.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define WARMUPS 2
#define MIN_PAIRS 7
#define MAX_PAIRS 127
/* The confidence interval of the median ratio, relative to it, that ends the timing. */
#define SETTLED_WIDTH 0.05
/* The smallest cache flush: five times the 50 MB L2 of an H100 or H200. */
#define FLUSH_MIN_BYTES ((size_t)256 << 20)

/* The buffer that flush_cache fills, made once per context. */
static cl_mem flush_buffer;
static cl_context flush_context;
static size_t flush_bytes;

/* Makes the flush buffer of env's context: four times the cache the device reports, at least FLUSH_MIN_BYTES, at
   most half its largest allocation; none (0 bytes) where it cannot be made. */
static void make_flush_buffer(const struct clk_env *env)
{
    cl_ulong cache = 0, max_alloc = 0;
    cl_int status = CL_SUCCESS;
    if (flush_buffer)
        clReleaseMemObject(flush_buffer);
    flush_buffer = NULL;
    flush_context = env->context;
    clGetDeviceInfo(env->info.device, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, sizeof cache, &cache, NULL);
    clGetDeviceInfo(env->info.device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max_alloc, &max_alloc, NULL);
    flush_bytes = 4 * (size_t)cache > FLUSH_MIN_BYTES ? 4 * (size_t)cache : FLUSH_MIN_BYTES;
    if (max_alloc && flush_bytes > max_alloc / 2)
        flush_bytes = (size_t)(max_alloc / 2);
    flush_buffer = clCreateBuffer(env->context, CL_MEM_READ_WRITE, flush_bytes, NULL, &status);
    if (status != CL_SUCCESS)
        flush_buffer = NULL;
}

/* Evicts a GPU's cache before a timed launch by filling a buffer several times its size, so that no launch reads
   what the one before it left there: a 64 MiB input in an H100's 50 MB L2 made one kernel 12% faster timed after
   another kernel than timed after itself. A CPU is left as it is: filling four times its cache would cost more
   than the kernel on a shared machine, and its two timings of that kernel agree. */
static cl_int flush_cache(const struct clk_env *env)
{
    if (!env->info.is_gpu)
        return CL_SUCCESS;
    if (flush_context != env->context)
        make_flush_buffer(env);
    return flush_buffer ? clEnqueueFillBuffer(env->queue, flush_buffer, &(const uint32_t){0}, sizeof(uint32_t), 0,
                                              flush_bytes, 0, NULL, NULL)
                        : CL_SUCCESS;
}

/* Fills k's outputs with NaN: before the first launch, so that an output left unwritten cannot pass the timed
   run's check by luck, and before every timed launch, so that a kernel that keeps its answer in the output and
   skips the work on later launches is timed doing the work (its last launch's result is then what is checked). */
static cl_int poison_outputs(const struct clk_env *env, struct perf_kernel *k)
{
    cl_int status = CL_SUCCESS;
    for (int i = 0; i < k->launch.buffer_count; i++)
        if (k->launch.is_output[i])
            CL_CHECK_STATUS(status, clEnqueueFillBuffer(env->queue, k->buffers[i],
                                                        &(const uint32_t){COMPARE_POISON_BITS}, sizeof(uint32_t), 0,
                                                        k->launch.counts[i] * sizeof(float), 0, NULL, NULL));
cleanup:
    return status;
}

cl_int perf_setup(const struct clk_env *env, struct perf_kernel *k)
{
    cl_int status = CL_SUCCESS;
    for (int i = 0; i < k->launch.buffer_count; i++) {
        cl_mem_flags flags = k->launch.is_output[i] ? CL_MEM_READ_WRITE : CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR;
        CL_CHECK_STATUS(status, (k->buffers[i] = clCreateBuffer(env->context, flags,
                                                                k->launch.counts[i] * sizeof(float),
                                                                k->launch.is_output[i] ? NULL : k->launch.host[i],
                                                                &status),
                                 status));
    }
    CL_PASS(status, poison_outputs(env, k));
    if (k->launch.step_count == 0) /* steps are bound at each launch */
        CL_PASS(status, harness_bind(k->kernel, &k->launch, k->buffers));
cleanup:
    return status;
}

void perf_release(struct perf_kernel *k)
{
    for (int i = 0; i < GRADE_MAX_BUFFERS; i++)
        if (k->buffers[i])
            clReleaseMemObject(k->buffers[i]);
    memset(k->buffers, 0, sizeof k->buffers);
    labs_launch_free(&k->launch);
}

/* One timed launch of k from poisoned outputs and a flushed cache: its event's time (the filling is not in it). */
static cl_int time_once(const struct clk_env *env, struct perf_kernel *k, double *ms)
{
    cl_int status = flush_cache(env);
    if (status == CL_SUCCESS)
        status = poison_outputs(env, k);
    if (status == CL_SUCCESS && k->launch.step_count) /* the whole sequence, snapshots left out */
        return harness_enqueue(env->queue, k->sequence ? k->sequence : &k->kernel, &k->launch, k->buffers, 0, ms);
    return status != CL_SUCCESS ? status
                                : clk_time_kernel(env->queue, k->kernel, k->launch.work_dims, k->launch.global,
                                                  k->launch.local, 0, 1, ms);
}

cl_int perf_time(const struct clk_env *env, struct perf_kernel *k, int runs, double *ms)
{
    double times[MAX_PAIRS];
    cl_int status = CL_SUCCESS;
    int done = 0;
    runs = runs < 1 ? 1 : runs > MAX_PAIRS ? MAX_PAIRS : runs;
    CL_PASS(status, time_once(env, k, &times[0])); /* the warm-up */
    for (; done < runs; done++)
        CL_PASS(status, time_once(env, k, &times[done]));
cleanup:
    *ms = done ? clk_median(times, (size_t)done) : 0.0;
    return status;
}

double perf_spread(const double *ratios, int count)
{
    double sorted[MAX_PAIRS], median;
    if (count < 2)
        return 0.0;
    if (count > MAX_PAIRS)
        count = MAX_PAIRS;
    memcpy(sorted, ratios, (size_t)count * sizeof *sorted);
    clk_sort_doubles(sorted, (size_t)count);
    median = clk_median(sorted, (size_t)count);
    return median > 0 ? (sorted[(3 * (count - 1)) / 4] - sorted[(count - 1) / 4]) / median : 0.0;
}

cl_int perf_compare(const struct clk_env *env, struct perf_kernel *student, struct perf_kernel *baseline,
                    double budget_s, double threshold, struct perf_comparison *result)
{
    double a[MAX_PAIRS], b[MAX_PAIRS], ratios[MAX_PAIRS], start = clk_now_s();
    struct speed_estimate e = {0};
    cl_int status = CL_SUCCESS;
    int n = 0;
    memset(result, 0, sizeof *result);
    for (int i = 0; i < WARMUPS; i++) {
        CL_PASS(status, time_once(env, student, &a[0]));
        CL_PASS(status, time_once(env, baseline, &b[0]));
    }
    while (n < MAX_PAIRS) {
        CL_PASS(status, time_once(env, student, &a[n]));
        CL_PASS(status, time_once(env, baseline, &b[n]));
        ratios[n] = a[n] > 0 ? b[n] / a[n] : 0.0;
        n++;
        speed_estimate(ratios, n, &e);
        if (speed_may_stop(&e, threshold, SETTLED_WIDTH, MIN_PAIRS, clk_now_s() - start, budget_s))
            break;
    }
cleanup:
    speed_estimate(ratios, n, &e);
    result->pairs = n;
    result->student_ms = clk_median(a, (size_t)n);
    result->baseline_ms = clk_median(b, (size_t)n);
    result->speedup = e.median;
    result->low = e.low;
    result->high = e.high;
    result->spread = perf_spread(ratios, n);
    result->settled = n >= MIN_PAIRS && speed_relative_width(&e) <= SETTLED_WIDTH;
    result->close = speed_decide(&e, threshold) == SPEED_CLOSE;
    return status;
}

/* Builds kernels_dir/file and creates its kernel; returns NULL when it cannot. */
static cl_kernel probe_kernel(const struct clk_env *env, const char *kernels_dir, const char *file,
                              const char *name, cl_program *program)
{
    char path[1024], *log = NULL;
    cl_int status = CL_SUCCESS;
    cl_kernel kernel;
    snprintf(path, sizeof path, "%s/%s", kernels_dir, file);
    *program = clk_build_program(env->context, env->info.device, path, "", &log);
    free(log);
    if (!*program)
        return NULL;
    CL_CHECK_STATUS(status, (kernel = clCreateKernel(*program, name, &status), status));
    return kernel;
cleanup:
    return NULL;
}

/* A probe's median time over five runs after two warm-ups, each from a flushed cache, or 0 when it cannot run. */
static double median_run_ms(const struct clk_env *env, cl_kernel kernel, size_t global)
{
    double times[7];
    for (int i = 0; i < 7; i++)
        if (flush_cache(env) != CL_SUCCESS ||
            clk_time_kernel(env->queue, kernel, 1, &global, NULL, 0, 1, &times[i]) != CL_SUCCESS)
            return 0.0;
    return clk_median(times + 2, 5);
}

double perf_copy_gbps(const struct clk_env *env, const char *kernels_dir, size_t n)
{
    cl_program program = NULL;
    cl_kernel kernel = probe_kernel(env, kernels_dir, "copy.cl", "copy_float4", &program);
    cl_mem in = NULL, out = NULL;
    cl_int status = CL_SUCCESS;
    int n4 = (int)(n / 4);
    size_t global = (n / 4 + 255) / 256 * 256; /* one float4 each: no loop overhead on any device */
    double ms = 0.0;
    if (!kernel)
        goto cleanup;
    CL_CHECK_STATUS(status, (in = clCreateBuffer(env->context, CL_MEM_READ_WRITE, (size_t)n4 * 16, NULL, &status),
                             status));
    CL_CHECK_STATUS(status, (out = clCreateBuffer(env->context, CL_MEM_READ_WRITE, (size_t)n4 * 16, NULL, &status),
                             status));
    CL_CHECK_STATUS(status, clSetKernelArg(kernel, 0, sizeof in, &in));
    CL_CHECK_STATUS(status, clSetKernelArg(kernel, 1, sizeof out, &out));
    CL_CHECK_STATUS(status, clSetKernelArg(kernel, 2, sizeof n4, &n4));
    ms = median_run_ms(env, kernel, global);
cleanup:
    if (in) clReleaseMemObject(in);
    if (out) clReleaseMemObject(out);
    if (kernel) clReleaseKernel(kernel);
    if (program) clReleaseProgram(program);
    return clk_gbps(2.0 * n4 * 16.0, ms);
}

double perf_fma_gflops(const struct clk_env *env, const char *kernels_dir)
{
    cl_program program = NULL;
    cl_kernel kernel = probe_kernel(env, kernels_dir, "fma.cl", "fma_probe", &program);
    cl_mem out = NULL;
    cl_int status = CL_SUCCESS;
    size_t global = env->info.is_gpu ? (size_t)1 << 20 : (size_t)1 << 13;
    int iterations = env->info.is_gpu ? 2048 : 512;
    double ms = 0.0;
    if (!kernel)
        goto cleanup;
    CL_CHECK_STATUS(status, (out = clCreateBuffer(env->context, CL_MEM_WRITE_ONLY, global * sizeof(float), NULL,
                                                  &status),
                             status));
    CL_CHECK_STATUS(status, clSetKernelArg(kernel, 0, sizeof out, &out));
    CL_CHECK_STATUS(status, clSetKernelArg(kernel, 1, sizeof iterations, &iterations));
    ms = median_run_ms(env, kernel, global);
cleanup:
    if (out) clReleaseMemObject(out);
    if (kernel) clReleaseKernel(kernel);
    if (program) clReleaseProgram(program);
    return ms > 0 ? 16.0 * iterations * (double)global / (ms * 1e6) : 0.0;
}
