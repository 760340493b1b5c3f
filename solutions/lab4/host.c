/* Lab 4 host program: a local-memory reduction leaves one partial per work-group. */
#include "labhost.h"
#include "problem.h"
#include "timing.h"

#include <stdio.h>
#include <stdlib.h>

#define LOCAL_SIZE 256
#define GROUPS 1024

static const struct clk_program_info program_info = {
    "lab4", "dot product a.b reduced in local memory", "N", 1, CLK_SOURCE_DIR "/reduce.cl",
};

/* The largest power of two no greater than the kernel's work-group limit on this device, up to want. */
static size_t local_size_for(struct clk_lab *lab, size_t want)
{
    size_t limit = want, size = 1;
    clGetKernelWorkGroupInfo(lab->kernel, lab->env.info.device, CL_KERNEL_WORK_GROUP_SIZE, sizeof limit, &limit,
                             NULL);
    while (size * 2 <= limit && size * 2 <= want)
        size *= 2;
    return size;
}

static int run(struct clk_lab *lab, const float *a, const float *b, float *partial, int n, double *ms)
{
    cl_int status = CL_SUCCESS;
    cl_mem a_buf = NULL, b_buf = NULL, partial_buf = NULL;
    size_t local = local_size_for(lab, LOCAL_SIZE);
    /* At most GROUPS work-groups, and no more than n needs: the partials past them stay 0. */
    size_t groups = ((size_t)n + local - 1) / local < GROUPS ? ((size_t)n + local - 1) / local : GROUPS;
    size_t global = (groups ? groups : 1) * local;
    int rc = -1;
    a_buf = clk_lab_buffer(lab, CL_MEM_READ_ONLY, a, (size_t)n, &status);
    CL_CHECK(status);
    b_buf = clk_lab_buffer(lab, CL_MEM_READ_ONLY, b, (size_t)n, &status);
    CL_CHECK(status);
    partial_buf = clk_lab_buffer(lab, CL_MEM_WRITE_ONLY, NULL, GROUPS, &status);
    CL_CHECK(status);
    CL_CHECK(clSetKernelArg(lab->kernel, 0, sizeof a_buf, &a_buf));
    CL_CHECK(clSetKernelArg(lab->kernel, 1, sizeof b_buf, &b_buf));
    CL_CHECK(clSetKernelArg(lab->kernel, 2, sizeof partial_buf, &partial_buf));
    /* A __local argument gets a size and no value: each work-group receives its own scratch array. */
    CL_CHECK(clSetKernelArg(lab->kernel, 3, local * sizeof(float), NULL));
    CL_CHECK(clSetKernelArg(lab->kernel, 4, sizeof n, &n));
    CL_CHECK(clk_time_kernel(lab->env.queue, lab->kernel, 1, &global, &local, 1, 5, ms));
    CL_CHECK(clEnqueueReadBuffer(lab->env.queue, partial_buf, CL_TRUE, 0, global / local * sizeof *partial, partial,
                                 0, NULL, NULL));
    rc = 0;
cleanup:
    if (a_buf) clReleaseMemObject(a_buf);
    if (b_buf) clReleaseMemObject(b_buf);
    if (partial_buf) clReleaseMemObject(partial_buf);
    return rc;
}

int main(int argc, char **argv)
{
    struct clk_options opts = {.dims = {1 << 22}};
    struct clk_lab lab = {0};
    int rc = clk_parse_options(argc, argv, &program_info, &opts);
    size_t n = opts.dims[0];
    struct clk_problem problem = {0};
    float *partial = NULL, dot;
    double sum = 0.0, ms = 0.0;
    char what[64];
    if (rc != 0)
        return rc == 1 ? 0 : 2;
    rc = 1;
    /* a and b from --seed, and the CPU reference of their dot product */
    if (clk_problem_make(CLK_PROBLEM_DOT, opts.dims, opts.seed, &problem) != 0 ||
        !(partial = clk_lab_alloc(GROUPS, sizeof *partial, "the partial sums")) ||
        clk_lab_open(&opts, "dot_local", "", &lab) != 0)
        goto cleanup;
    if (run(&lab, problem.inputs[0], problem.inputs[1], partial, (int)n, &ms) != 0)
        goto cleanup;
    for (size_t i = 0; i < GROUPS; i++)
        sum += partial[i];
    dot = (float)sum;
    snprintf(what, sizeof what, "dot_local n=%zu", n);
    rc = clk_lab_verdict(what, &opts, &dot, problem.expected, problem.bound, 1, ms, clk_gbps(2.0 * n * sizeof(float), ms), "GB/s");
cleanup:
    clk_lab_close(&lab);
    clk_problem_free(&problem);
    free(partial);
    return rc;
}
