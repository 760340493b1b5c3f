#include "harness.h"

#include "compare.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Each buffer sits between two guard zones filled with a NaN pattern of its own, so arithmetic
   on one buffer's guard cannot rebuild another's. */
#define GUARD_BASE 0x7fa0c000u

struct guarded {
    cl_mem parent;
    cl_mem view; /* the sub-buffer the kernel sees */
    float *staging;
    size_t guard; /* elements in each guard zone */
    size_t count;
};

/* Guards twice the size of the buffer or of the grid (at least 4 KiB, aligned for a sub-buffer), so
   that an overrun by whole rows or work-groups lands in a guard, where it is counted, not in the heap. */
static size_t guard_elements(const struct clk_env *env, const struct grade_launch *launch, size_t count)
{
    cl_uint align_bits = 1024;
    size_t align, items = launch->global[0] * (launch->work_dims > 1 ? launch->global[1] : 1);
    size_t elements = 2 * (count > items ? count : items), bytes;
    if (elements < 1024)
        elements = 1024;
    bytes = elements * sizeof(float);
    clGetDeviceInfo(env->info.device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align_bits, &align_bits, NULL);
    align = align_bits / 8 ? align_bits / 8 : 4;
    return (bytes + align - 1) / align * align / sizeof(float);
}

static float guard_value(int buffer)
{
    uint32_t bits = GUARD_BASE + (uint32_t)buffer * 0x111u;
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

static cl_int make_guarded(const struct clk_env *env, const struct grade_launch *launch, int i, int guarded,
                           struct guarded *g)
{
    cl_int status = CL_SUCCESS;
    size_t guard = guarded ? guard_elements(env, launch, launch->counts[i]) : 0;
    size_t total = 2 * guard + launch->counts[i];
    cl_buffer_region region = {guard * sizeof(float), launch->counts[i] * sizeof(float)};
    g->guard = guard;
    g->count = launch->counts[i];
    g->staging = malloc(total * sizeof(float));
    if (!g->staging)
        return CL_OUT_OF_HOST_MEMORY;
    for (size_t k = 0; k < total; k++)
        g->staging[k] = guard_value(i);
    for (size_t k = 0; k < g->count; k++)
        g->staging[guard + k] = launch->is_output[i] ? check_poison() : launch->host[i][k];
    g->parent = clCreateBuffer(env->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, total * sizeof(float),
                               g->staging, &status);
    if (status != CL_SUCCESS)
        return status;
    g->view = clCreateSubBuffer(g->parent, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region, &status);
    return status;
}

static void release_guarded(struct guarded *g)
{
    if (g->view)
        clReleaseMemObject(g->view);
    if (g->parent)
        clReleaseMemObject(g->parent);
    free(g->staging);
    memset(g, 0, sizeof *g);
}

cl_int harness_bind(cl_kernel kernel, const struct grade_launch *launch, const cl_mem *buffers)
{
    cl_uint index = 0;
    cl_int status = CL_SUCCESS;
    for (int i = 0; i < launch->buffer_count && status == CL_SUCCESS; i++, index++)
        status = clSetKernelArg(kernel, index, sizeof(cl_mem), &buffers[i]);
    if (launch->local_bytes && status == CL_SUCCESS)
        status = clSetKernelArg(kernel, index++, launch->local_bytes, NULL);
    for (int i = 0; i < launch->int_count && status == CL_SUCCESS; i++, index++)
        status = clSetKernelArg(kernel, index, sizeof(int), &launch->ints[i]);
    return status;
}

static size_t changed(const float *now, float expected_guard, size_t from, size_t to)
{
    size_t count = 0;
    for (size_t k = from; k < to; k++)
        count += memcmp(&now[k], &expected_guard, sizeof(float)) != 0;
    return count;
}

/* Compares the guards bitwise and the inputs with what was written; appends findings to text. */
static int check_memory(const struct grade_launch *launch, int i, const struct guarded *g, char *text, size_t size)
{
    size_t before = changed(g->staging, guard_value(i), 0, g->guard);
    size_t after = changed(g->staging, guard_value(i), g->guard + g->count, 2 * g->guard + g->count);
    size_t used = strlen(text);
    int ok = before == 0 && after == 0;
    if (after)
        used += (size_t)snprintf(text + used, size - used, "%swrote %zu elements past the end of %s", used ? "; " : "",
                                 after, launch->names[i]);
    if (before && used < size)
        used += (size_t)snprintf(text + used, size - used, "%swrote %zu elements before the start of %s",
                                 used ? "; " : "", before, launch->names[i]);
    if (!launch->is_output[i] && memcmp(g->staging + g->guard, launch->host[i], g->count * sizeof(float)) != 0) {
        ok = 0;
        if (used < size)
            snprintf(text + used, size - used, "%smodified the input %s", used ? "; " : "", launch->names[i]);
    }
    return ok;
}

static void judge_values(const struct grade_family *family, struct grade_launch *launch, const struct guarded *g,
                         struct case_verdict *verdict)
{
    int out = launch->buffer_count - 1; /* by contract the output is the last buffer */
    const float *output = g[out].staging + g[out].guard;
    float *result = malloc(launch->shape.count * sizeof(float));
    struct check_summary summary;
    if (!result) {
        snprintf(verdict->values, sizeof verdict->values, "grader out of memory");
        return;
    }
    if (family->finish)
        family->finish(launch, output, result);
    else
        memcpy(result, output, launch->shape.count * sizeof(float));
    check_compare(result, launch->expected, launch->bound, &launch->shape, &summary);
    verdict->values_ok = summary.wrong == 0;
    if (!verdict->values_ok)
        check_format(&summary, result, launch->expected, &launch->shape, verdict->values, sizeof verdict->values);
    free(result);
}

int harness_run_case(const struct clk_env *env, cl_kernel kernel, const struct grade_family *family,
                     struct grade_launch *launch, int guarded, struct case_verdict *verdict)
{
    struct guarded g[GRADE_MAX_BUFFERS];
    cl_int status = CL_SUCCESS;
    int rc = 0;
    memset(g, 0, sizeof g);
    memset(verdict, 0, sizeof *verdict);
    verdict->memory_ok = 1;
    for (int i = 0; i < launch->buffer_count && status == CL_SUCCESS; i++)
        status = make_guarded(env, launch, i, guarded, &g[i]);
    cl_mem views[GRADE_MAX_BUFFERS] = {NULL, NULL, NULL};
    for (int i = 0; i < launch->buffer_count; i++)
        views[i] = g[i].view;
    if (status == CL_SUCCESS)
        status = harness_bind(kernel, launch, views);
    if (status == CL_SUCCESS)
        status = clEnqueueNDRangeKernel(env->queue, kernel, launch->work_dims, NULL, launch->global, launch->local,
                                        0, NULL, NULL);
    if (status == CL_SUCCESS)
        status = clFinish(env->queue);
    for (int i = 0; i < launch->buffer_count && status == CL_SUCCESS; i++)
        status = clEnqueueReadBuffer(env->queue, g[i].parent, CL_TRUE, 0, (2 * g[i].guard + g[i].count) * sizeof(float),
                                     g[i].staging, 0, NULL, NULL);
    if (status != CL_SUCCESS) {
        snprintf(verdict->values, sizeof verdict->values, "the launch failed with %s", clk_error_name(status));
        rc = status == CL_OUT_OF_HOST_MEMORY ? -1 : 0;
        goto cleanup;
    }
    verdict->ran = 1;
    for (int i = 0; i < launch->buffer_count; i++)
        verdict->memory_ok &= check_memory(launch, i, &g[i], verdict->memory, sizeof verdict->memory);
    judge_values(family, launch, g, verdict);
cleanup:
    for (int i = 0; i < launch->buffer_count; i++)
        release_guarded(&g[i]);
    return rc;
}
