#include "wire/harness.h"

#include "wire/compare.h"
#include "judge/mismatch.h"
#include "text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GUARD_CAP ((size_t)1 << 22)

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
    else
        memcpy(staging + guard, launch->host[i], launch->counts[i] * sizeof(float));
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

cl_int harness_launch(const struct clk_env *env, cl_kernel kernel, struct grade_launch *launch, size_t guard,
                      const uint32_t *guard_bits, float *area, struct harness_raw *raw)
{
    cl_mem parents[GRADE_MAX_BUFFERS] = {NULL}, views[GRADE_MAX_BUFFERS] = {NULL};
    cl_int status;
    memset(raw, 0, sizeof *raw);
    CL_PASS(status, make_buffers(env, launch, guard, guard_bits, area, raw, parents, views));
    CL_PASS(status, harness_bind(kernel, launch, views));
    CL_CHECK_STATUS(status, clEnqueueNDRangeKernel(env->queue, kernel, launch->work_dims, NULL, launch->global,
                                                   launch->local, 0, NULL, NULL));
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

static size_t changed(const float *now, uint32_t bits, size_t from, size_t to)
{
    size_t count = 0;
    for (size_t k = from; k < to; k++)
        count += memcmp(&now[k], &bits, sizeof bits) != 0;
    return count;
}

/* Compares the guards bitwise and the inputs with what was sent; appends findings to text, and sets *outside when a
   guard of the buffer was written. */
static int check_memory(const struct grade_launch *launch, int i, size_t guard, uint32_t bits, const float *raw,
                        char *text, size_t size, int *outside)
{
    size_t count = launch->counts[i];
    size_t before = changed(raw, bits, 0, guard), after = changed(raw, bits, guard + count, 2 * guard + count);
    int ok = before == 0 && after == 0;
    *outside = !ok;
    if (after)
        clk_append(text, size, "%swrote %zu elements past the end of %s", text[0] ? "; " : "", after,
                   launch->names[i]);
    if (before)
        clk_append(text, size, "%swrote %zu elements before the start of %s", text[0] ? "; " : "", before,
                   launch->names[i]);
    if (!launch->is_output[i]) {
        float *made;
        const float *input = labs_input(launch, i, &made);
        if (!input || memcmp(raw + guard, input, count * sizeof(float)) != 0) {
            ok = 0;
            clk_append(text, size, "%s%s%s", text[0] ? "; " : "",
                       input ? "modified the input " : "the grader ran out of memory checking the input ",
                       launch->names[i]);
        }
        free(made);
    }
    return ok;
}

/* Judges the output (its guard zones around it) against the reference; a wrong matrix gets its map in the values'
   reason, a right one written outside its buffer gets it in the memory reason. */
static void judge_values(const struct grade_family *family, const struct grade_launch *launch, const float *zone,
                         size_t guard, const uint32_t *guard_bits, int outside, struct case_verdict *verdict)
{
    int out = launch->buffer_count - 1;
    uint32_t bits = guard_bits[out];
    struct compare_shape shape = launch->shape;
    /* What a read outside an input returns: its guard NaN (none without guards). */
    for (int i = 0; guard && i < out && i < COMPARE_MAX_INPUTS; i++)
        shape.around_inputs[i] = launch->is_output[i] ? 0 : guard_bits[i];
    const float *output = zone + guard;
    float *result = malloc(launch->shape.count * sizeof(float));
    struct mismatch_guards around = {.before = zone, .after = output + launch->counts[launch->buffer_count - 1],
                                     .words = guard, .bits = bits};
    struct compare_summary summary;
    int mapped = !family->finish && mismatch_applies(&launch->shape);
    if (!result) {
        snprintf(verdict->values, sizeof verdict->values, "grader out of memory");
        return;
    }
    if (family->finish)
        family->finish(launch, output, result);
    else
        memcpy(result, output, launch->shape.count * sizeof(float));
    compare_result(result, launch->expected, launch->bound, &shape, &summary);
    verdict->values_ok = summary.wrong == 0;
    verdict->cause = summary.cause;
    if (!verdict->values_ok)
        compare_format(&summary, result, launch->expected, &launch->shape, verdict->values, sizeof verdict->values);
    if (mapped && !verdict->values_ok)
        mismatch_draw(result, launch->expected, launch->bound, &launch->shape, &around, verdict->values,
                      sizeof verdict->values);
    else if (mapped && outside)
        mismatch_draw(result, launch->expected, launch->bound, &launch->shape, &around, verdict->memory,
                      sizeof verdict->memory);
    free(result);
}

int harness_judge(const struct grade_family *family, const struct grade_launch *launch, size_t guard,
                  const uint32_t *guard_bits, const struct harness_raw *raw, struct case_verdict *verdict)
{
    int out = launch->buffer_count - 1, outside = 0; /* by contract the output is the last buffer */
    memset(verdict, 0, sizeof *verdict);
    verdict->memory_ok = 1;
    for (int i = 0; i < launch->buffer_count; i++)
        if (!raw->data[i] || raw->totals[i] != 2 * guard + launch->counts[i])
            return -1;
    for (int i = 0; i < launch->buffer_count; i++)
        verdict->memory_ok &= check_memory(launch, i, guard, guard_bits[i], raw->data[i], verdict->memory,
                                           sizeof verdict->memory, &outside);
    /* outside is now the output's, the last buffer's */
    judge_values(family, launch, raw->data[out], guard, guard_bits, outside, verdict);
    return 0;
}
