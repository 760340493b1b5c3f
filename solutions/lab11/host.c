/* Lab 11 host program: the exclusive scan of n uint values by three kernels launched in order: scan_blocks (each
   block of 2 x LOCAL_SIZE values in local memory), scan_sums (the blocks' totals, in one work-group), add_offsets. */
#include "labhost.h"
#include "problem.h"
#include "program.h"
#include "scan.h"
#include "timing.h"

#include <stdio.h>
#include <stdlib.h>

#define LOCAL_SIZE 256

static const struct clk_program_info program_info = {
    "lab11", "exclusive scan of N uint values", "N", 1, CLK_SOURCE_DIR "/scan.cl",
};

/* The scan's three kernels; lab->kernel is scan_blocks. */
struct scan_kernels {
    cl_kernel blocks, sums, offsets;
};

/* The largest power of two no greater than every kernel's work-group limit on this device, up to want. */
static size_t local_size_for(struct clk_lab *lab, const struct scan_kernels *k, size_t want)
{
    size_t size = 1;
    const cl_kernel all[3] = {k->blocks, k->sums, k->offsets};
    for (int i = 0; i < 3; i++) {
        size_t limit = want;
        clGetKernelWorkGroupInfo(all[i], lab->env.info.device, CL_KERNEL_WORK_GROUP_SIZE, sizeof limit, &limit, NULL);
        want = limit < want ? limit : want;
    }
    while (size * 2 <= want)
        size *= 2;
    return size;
}

/* Enqueues the three launches; the in-order queue runs each after the one before. *last is add_offsets' event. */
static cl_int enqueue_scan(struct clk_lab *lab, const struct scan_kernels *k, size_t local, size_t groups,
                           cl_event *first, cl_event *last)
{
    cl_int status = CL_SUCCESS;
    size_t global = groups * local;
    CL_CHECK_STATUS(status, clEnqueueNDRangeKernel(lab->env.queue, k->blocks, 1, NULL, &global, &local, 0, NULL,
                                                   first));
    CL_CHECK_STATUS(status, clEnqueueNDRangeKernel(lab->env.queue, k->sums, 1, NULL, &local, &local, 0, NULL, NULL));
    CL_CHECK_STATUS(status, clEnqueueNDRangeKernel(lab->env.queue, k->offsets, 1, NULL, &global, &local, 0, NULL,
                                                   last));
cleanup:
    return status;
}

/* Times one whole scan, from scan_blocks' start to add_offsets' end. */
static cl_int time_scan(struct clk_lab *lab, const struct scan_kernels *k, size_t local, size_t groups, double *ms)
{
    cl_event first = NULL, last = NULL;
    cl_ulong start = 0, end = 0;
    cl_int status;
    CL_PASS(status, enqueue_scan(lab, k, local, groups, &first, &last));
    CL_CHECK_STATUS(status, clWaitForEvents(1, &last));
    CL_CHECK_STATUS(status, clGetEventProfilingInfo(first, CL_PROFILING_COMMAND_START, sizeof start, &start, NULL));
    CL_CHECK_STATUS(status, clGetEventProfilingInfo(last, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL));
    *ms = (double)(end - start) * 1e-6;
cleanup:
    if (first) clReleaseEvent(first);
    if (last) clReleaseEvent(last);
    return status;
}

static int run(struct clk_lab *lab, const struct scan_kernels *k, const float *in, uint32_t *out, int n, double *ms)
{
    cl_int status = CL_SUCCESS;
    cl_mem in_buf = NULL, out_buf = NULL, sums_buf = NULL;
    size_t local = local_size_for(lab, k, LOCAL_SIZE), block = 2 * local;
    size_t groups = (size_t)n > block ? ((size_t)n + block - 1) / block : 1;
    int group_count = (int)groups, rc = -1;
    in_buf = clk_lab_buffer(lab, CL_MEM_READ_ONLY, in, (size_t)n, &status);
    CL_CHECK(status);
    out_buf = clk_lab_buffer(lab, CL_MEM_READ_WRITE, NULL, (size_t)n, &status);
    CL_CHECK(status);
    sums_buf = clk_lab_buffer(lab, CL_MEM_READ_WRITE, NULL, groups, &status);
    CL_CHECK(status);
    /* Each block is scanned in 2 x block uints of local memory: room for the padding against bank conflicts. */
    CL_CHECK(clSetKernelArg(k->blocks, 0, sizeof in_buf, &in_buf));
    CL_CHECK(clSetKernelArg(k->blocks, 1, sizeof out_buf, &out_buf));
    CL_CHECK(clSetKernelArg(k->blocks, 2, sizeof sums_buf, &sums_buf));
    CL_CHECK(clSetKernelArg(k->blocks, 3, 2 * block * sizeof(cl_uint), NULL));
    CL_CHECK(clSetKernelArg(k->blocks, 4, sizeof n, &n));
    CL_CHECK(clSetKernelArg(k->sums, 0, sizeof sums_buf, &sums_buf));
    CL_CHECK(clSetKernelArg(k->sums, 1, 2 * block * sizeof(cl_uint), NULL));
    CL_CHECK(clSetKernelArg(k->sums, 2, sizeof group_count, &group_count));
    CL_CHECK(clSetKernelArg(k->offsets, 0, sizeof out_buf, &out_buf));
    CL_CHECK(clSetKernelArg(k->offsets, 1, sizeof sums_buf, &sums_buf));
    CL_CHECK(clSetKernelArg(k->offsets, 2, sizeof n, &n));
    CL_CHECK(time_scan(lab, k, local, groups, ms)); /* a warm-up: the first launch may build for this device */
    CL_CHECK(time_scan(lab, k, local, groups, ms));
    CL_CHECK(clEnqueueReadBuffer(lab->env.queue, out_buf, CL_TRUE, 0, (size_t)n * sizeof *out, out, 0, NULL, NULL));
    rc = 0;
cleanup:
    clFinish(lab->env.queue); /* nothing in flight when the buffers go, even after a failed step */
    if (in_buf) clReleaseMemObject(in_buf);
    if (out_buf) clReleaseMemObject(out_buf);
    if (sums_buf) clReleaseMemObject(sums_buf);
    return rc;
}

int main(int argc, char **argv)
{
    struct clk_options opts = {.dims = {1 << 24}};
    struct clk_lab lab = {0};
    struct scan_kernels k = {0};
    int rc = clk_parse_options(argc, argv, &program_info, &opts);
    size_t n = opts.dims[0];
    struct clk_problem problem = {0};
    uint32_t *out = NULL;
    double ms = 0.0;
    char what[64];
    if (rc != 0)
        return rc == 1 ? 0 : 2;
    rc = 1;
    /* n 32-bit uint values from --seed, and their exclusive scan modulo 2^32 */
    if (clk_problem_make(CLK_PROBLEM_SCAN, opts.dims, opts.seed, &problem) != 0 ||
        !(out = clk_lab_alloc(n ? n : 1, sizeof *out, "the result")) ||
        clk_lab_open(&opts, "scan_blocks", "", &lab) != 0)
        goto cleanup;
    k.blocks = lab.kernel;
    if (!(k.sums = clk_create_kernel(lab.program, "scan_sums", opts.kernel)) ||
        !(k.offsets = clk_create_kernel(lab.program, "add_offsets", opts.kernel)))
        goto cleanup;
    if (run(&lab, &k, problem.inputs[0], out, (int)n, &ms) != 0)
        goto cleanup;
    snprintf(what, sizeof what, "scan n=%zu", n);
    rc = clk_scan_verdict(what, &opts, out, problem.expected, n, ms);
cleanup:
    if (k.sums) clReleaseKernel(k.sums);
    if (k.offsets) clReleaseKernel(k.offsets);
    clk_lab_close(&lab);
    clk_problem_free(&problem);
    free(out);
    return rc;
}
