/* Lab 3 host program: the kernel leaves one partial sum per work-item; the host adds them up. */
#include "labhost.h"
#include "problem.h"
#include "timing.h"

#include <stdio.h>
#include <stdlib.h>

#define LOCAL_SIZE 256
#define GLOBAL_SIZE (256 * 256)

static const struct clk_program_info program_info = {
    "lab3", "dot product a.b with per-work-item partial sums", "N", 1, CLK_SOURCE_DIR "/dot.cl",
};

static int run(struct clk_lab *lab, const float *a, const float *b, float *partial, int n, double *ms)
{
    cl_int status = CL_SUCCESS;
    cl_mem a_buf = NULL, b_buf = NULL, partial_buf = NULL;
    size_t local = LOCAL_SIZE, global = GLOBAL_SIZE;
    int rc = -1;
    a_buf = clk_lab_buffer(lab, CL_MEM_READ_ONLY, a, (size_t)n, &status);
    CL_CHECK(status);
    b_buf = clk_lab_buffer(lab, CL_MEM_READ_ONLY, b, (size_t)n, &status);
    CL_CHECK(status);
    partial_buf = clk_lab_buffer(lab, CL_MEM_WRITE_ONLY, NULL, global, &status);
    CL_CHECK(status);
    CL_CHECK(clSetKernelArg(lab->kernel, 0, sizeof a_buf, &a_buf));
    CL_CHECK(clSetKernelArg(lab->kernel, 1, sizeof b_buf, &b_buf));
    CL_CHECK(clSetKernelArg(lab->kernel, 2, sizeof partial_buf, &partial_buf));
    CL_CHECK(clSetKernelArg(lab->kernel, 3, sizeof n, &n));
    CL_CHECK(clk_time_kernel(lab->env.queue, lab->kernel, 1, &global, &local, 1, 5, ms));
    CL_CHECK(clEnqueueReadBuffer(lab->env.queue, partial_buf, CL_TRUE, 0, global * sizeof *partial, partial, 0,
                                 NULL, NULL));
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
        !(partial = clk_lab_alloc(GLOBAL_SIZE, sizeof *partial, "the partial sums")) ||
        clk_lab_open(&opts, "dot_naive", "", &lab) != 0)
        goto cleanup;
    if (run(&lab, problem.inputs[0], problem.inputs[1], partial, (int)n, &ms) != 0)
        goto cleanup;
    for (size_t i = 0; i < GLOBAL_SIZE; i++)
        sum += partial[i];
    dot = (float)sum;
    snprintf(what, sizeof what, "dot_naive n=%zu", n);
    rc = clk_lab_verdict(what, &opts, &dot, problem.expected, problem.bound, 1, ms, clk_gbps(2.0 * n * sizeof(float), ms), "GB/s");
cleanup:
    clk_lab_close(&lab);
    clk_problem_free(&problem);
    free(partial);
    return rc;
}
