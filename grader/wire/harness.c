#include "wire/harness.h"

#include "wire/compare.h"
#include "text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GUARD_CAP ((size_t)1 << 22)

/* The device's buffers are copied into floats and their guard zones written from uint32_t bits. */
_Static_assert(sizeof(cl_float) == sizeof(float) && sizeof(cl_uint) == sizeof(uint32_t),
               "OpenCL's float and uint are the host's float and uint32_t");

size_t harness_guard_elements(const struct grade_launch *launch, size_t count, uint32_t align_bytes)
{
    size_t items = launch->global[0] * (launch->work_dims > 1 ? launch->global[1] : 1);
    size_t elements = 2 * (count > items ? count : items), bytes, align = align_bytes ? align_bytes : 4;
    if (elements < 1024)
        elements = 1024;
    /* Past the grid and then some: a guard need not grow with a buffer of 2^24 elements. */
    if (elements > GUARD_CAP && elements > (items > count ? items - count : 0) + GUARD_CAP / 2)
        elements = (items > count ? items - count : 0) + GUARD_CAP / 2;
    bytes = elements * sizeof(float);
    return (bytes + align - 1) / align * align / sizeof(float);
}

static float from_bits(uint32_t bits)
{
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

cl_int harness_bind(cl_kernel kernel, const struct grade_launch *launch, const cl_mem *buffers)
{
    cl_uint index = 0;
    cl_int status = CL_SUCCESS;
    for (int i = 0; i < launch->buffer_count; i++, index++)
        CL_CHECK_STATUS(status, clSetKernelArg(kernel, index, sizeof(cl_mem), &buffers[i]));
    if (launch->local_bytes)
        CL_CHECK_STATUS(status, clSetKernelArg(kernel, index++, launch->local_bytes, NULL));
    for (int i = 0; i < launch->int_count; i++, index++)
        CL_CHECK_STATUS(status, clSetKernelArg(kernel, index, sizeof(int), &launch->ints[i]));
cleanup:
    return status;
}

/* Binds step's arguments in the contract's order: its buffers, its __local array if any, then its ints. */
static cl_int bind_step(cl_kernel kernel, const struct grade_step *step, const cl_mem *buffers)
{
    cl_uint index = 0;
    cl_int status = CL_SUCCESS;
    for (int i = 0; i < step->buffer_count; i++, index++)
        CL_CHECK_STATUS(status, clSetKernelArg(kernel, index, sizeof(cl_mem), &buffers[step->buffers[i]]));
    if (step->local_bytes)
        CL_CHECK_STATUS(status, clSetKernelArg(kernel, index++, step->local_bytes, NULL));
    for (int i = 0; i < step->int_count; i++, index++)
        CL_CHECK_STATUS(status, clSetKernelArg(kernel, index, sizeof(int), &step->ints[i]));
cleanup:
    return status;
}

/* The time from the start of first to the end of last, in ms. */
static cl_int span_ms(cl_event first, cl_event last, double *ms)
{
    cl_ulong start = 0, end = 0;
    cl_int status = clGetEventProfilingInfo(first, CL_PROFILING_COMMAND_START, sizeof start, &start, NULL);
    if (status == CL_SUCCESS)
        status = clGetEventProfilingInfo(last, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL);
    *ms = status == CL_SUCCESS ? (double)(end - start) * 1e-6 : 0.0;
    return status;
}

/* Enqueues launch's steps; the first and last launches' events in events[0] and events[1] when ms is wanted. */
static cl_int enqueue_steps(cl_command_queue queue, const cl_kernel *kernels, const struct grade_launch *launch,
                            const cl_mem *buffers, int snapshots, cl_event *events)
{
    cl_int status = CL_SUCCESS;
    for (int s = 0; s < launch->step_count; s++) {
        const struct grade_step *step = &launch->steps[s];
        cl_event event = NULL;
        if (step->kernel == GRADE_STEP_SNAPSHOT) {
            if (snapshots)
                CL_CHECK_STATUS(status, clEnqueueCopyBuffer(queue, buffers[step->copy_from], buffers[step->copy_to],
                                                            0, 0, launch->counts[step->copy_to] * sizeof(float), 0,
                                                            NULL, NULL));
            continue;
        }
        CL_PASS(status, bind_step(kernels[step->kernel], step, buffers));
        CL_CHECK_STATUS(status, clEnqueueNDRangeKernel(queue, kernels[step->kernel], 1, NULL, &step->global,
                                                       &step->local, 0, NULL, events ? &event : NULL));
        /* A judged run (not timed) finishes each launch before the next, so that PoCL builds one kernel for a new
           work-group size at a time: a graded run of lab 11's solution once aborted inside PoCL with three first
           builds in flight (the cause is not established; this costs a judged case nothing it needs). */
        if (!events)
            CL_CHECK_STATUS(status, clFinish(queue));
        if (events && !events[0])
            events[0] = event;
        else if (events) {
            if (events[1])
                clReleaseEvent(events[1]);
            events[1] = event;
        }
    }
cleanup:
    return status;
}

cl_int harness_enqueue(cl_command_queue queue, const cl_kernel *kernels, const struct grade_launch *launch,
                       const cl_mem *buffers, int snapshots, double *ms)
{
    cl_event events[2] = {NULL, NULL};
    cl_int status = CL_SUCCESS;
    if (launch->step_count == 0) {
        CL_PASS(status, harness_bind(kernels[0], launch, buffers));
        CL_CHECK_STATUS(status, clEnqueueNDRangeKernel(queue, kernels[0], launch->work_dims, NULL, launch->global,
                                                       launch->local, 0, NULL, ms ? &events[0] : NULL));
    } else
        CL_PASS(status, enqueue_steps(queue, kernels, launch, buffers, snapshots, ms ? events : NULL));
    if (ms) {
        CL_CHECK_STATUS(status, clWaitForEvents(1, events[1] ? &events[1] : &events[0]));
        CL_PASS(status, span_ms(events[0], events[1] ? events[1] : events[0], ms));
    }
cleanup:
    for (int i = 0; i < 2; i++)
        if (events[i])
            clReleaseEvent(events[i]);
    return status;
}

size_t harness_stride(size_t total)
{
    const size_t page = 4096 / sizeof(float);
    return (total + page - 1) / page * page;
}

size_t harness_area_floats(const struct grade_launch *launch, size_t guard)
{
    size_t total = 0;
    for (int i = 0; i < launch->buffer_count; i++)
        total += harness_stride(2 * guard + launch->counts[i]);
    return total;
}

/* Fills buffer i's staging: guard bits around the input, or around a NaN poison for the output. */
static void stage_buffer(const struct grade_launch *launch, int i, size_t guard, uint32_t bits, float *staging)
{
    size_t total = 2 * guard + launch->counts[i];
    float value = from_bits(bits);
    for (size_t k = 0; k < guard; k++)
        staging[k] = staging[total - 1 - k] = value;
    if (launch->is_output[i])
        for (size_t k = 0; k < launch->counts[i]; k++)
            staging[guard + k] = compare_poison();
    else if (launch->host[i])
        memcpy(staging + guard, launch->host[i], launch->counts[i] * sizeof(float));
    else /* made here, not copied: a large case's inputs touch no memory but the staging area */
        labs_fill_input(launch, i, staging + guard);
}

static cl_int make_buffers(const struct clk_env *env, struct grade_launch *launch, size_t guard,
                           const uint32_t *guard_bits, float *area, struct harness_raw *raw, cl_mem *parents,
                           cl_mem *views)
{
    cl_int status = CL_SUCCESS;
    /* A CPU device computes in host memory anyway: let it use the staging area rather than a copy of it. */
    cl_mem_flags where = env->info.is_gpu ? CL_MEM_COPY_HOST_PTR : CL_MEM_USE_HOST_PTR;
    for (int i = 0; i < launch->buffer_count; i++) {
        cl_buffer_region region = {guard * sizeof(float), launch->counts[i] * sizeof(float)};
        raw->totals[i] = 2 * guard + launch->counts[i];
        raw->data[i] = area;
        area += harness_stride(raw->totals[i]);
        stage_buffer(launch, i, guard, guard_bits[i], raw->data[i]);
        free(launch->host[i]);
        launch->host[i] = NULL;
        CL_CHECK_STATUS(status, (parents[i] = clCreateBuffer(env->context, CL_MEM_READ_WRITE | where,
                                                             raw->totals[i] * sizeof(float), raw->data[i], &status),
                                 status));
        if (!guard) {
            clRetainMemObject(parents[i]);
            views[i] = parents[i];
        } else
            CL_CHECK_STATUS(status, (views[i] = clCreateSubBuffer(parents[i], CL_MEM_READ_WRITE,
                                                                  CL_BUFFER_CREATE_TYPE_REGION, &region, &status),
                                     status));
    }
cleanup:
    return status;
}

cl_int harness_launch(const struct clk_env *env, const cl_kernel *kernels, struct grade_launch *launch,
                      size_t guard, const uint32_t *guard_bits, float *area, struct harness_raw *raw)
{
    cl_mem parents[GRADE_MAX_BUFFERS] = {NULL}, views[GRADE_MAX_BUFFERS] = {NULL};
    cl_int status;
    memset(raw, 0, sizeof *raw);
    CL_PASS(status, make_buffers(env, launch, guard, guard_bits, area, raw, parents, views));
    CL_PASS(status, harness_enqueue(env->queue, kernels, launch, views, 1, NULL));
    CL_CHECK_STATUS(status, clFinish(env->queue));
    for (int i = 0; i < launch->buffer_count; i++)
        CL_CHECK_STATUS(status, clEnqueueReadBuffer(env->queue, parents[i], CL_TRUE, 0, raw->totals[i] * sizeof(float),
                                                    raw->data[i], 0, NULL, NULL));
cleanup:
    for (int i = 0; i < GRADE_MAX_BUFFERS; i++) {
        if (views[i])
            clReleaseMemObject(views[i]);
        if (parents[i])
            clReleaseMemObject(parents[i]);
    }
    return status;
}
