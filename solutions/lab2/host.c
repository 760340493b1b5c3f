/* Lab 2 host program: a fixed, small grid covers any n through the kernel's stride loop. */
#include "labhost.h"
#include "problem.h"
#include "timing.h"

#include <stdio.h>
#include <stdlib.h>

#define LOCAL_SIZE 256
/* Enough work-groups to fill a GPU, however large n is: the loop does the rest. */
#define MAX_GROUPS 1024

static const struct clk_program_info program_info = {
    "lab2", "c = a + b with a grid-stride loop", "N", 1, CLK_SOURCE_DIR "/vadd_stride.cl",
};

static int run(struct clk_lab *lab, const float *a, const float *b, float *c, int n, double *ms)
{
    cl_int status = CL_SUCCESS;
    cl_mem a_buf = NULL, b_buf = NULL, c_buf = NULL;
    size_t local = LOCAL_SIZE, groups = ((size_t)n + LOCAL_SIZE - 1) / LOCAL_SIZE;
    size_t global = (groups < MAX_GROUPS ? groups : MAX_GROUPS) * LOCAL_SIZE;
    int rc = -1;
    a_buf = clk_lab_buffer(lab, CL_MEM_READ_ONLY, a, (size_t)n, &status);
    CL_CHECK(status);
    b_buf = clk_lab_buffer(lab, CL_MEM_READ_ONLY, b, (size_t)n, &status);
    CL_CHECK(status);
    c_buf = clk_lab_buffer(lab, CL_MEM_WRITE_ONLY, NULL, (size_t)n, &status);
    CL_CHECK(status);
    CL_CHECK(clSetKernelArg(lab->kernel, 0, sizeof a_buf, &a_buf));
    CL_CHECK(clSetKernelArg(lab->kernel, 1, sizeof b_buf, &b_buf));
    CL_CHECK(clSetKernelArg(lab->kernel, 2, sizeof c_buf, &c_buf));
    CL_CHECK(clSetKernelArg(lab->kernel, 3, sizeof n, &n));
    CL_CHECK(clk_time_kernel(lab->env.queue, lab->kernel, 1, &global, &local, 1, 5, ms));
    CL_CHECK(clEnqueueReadBuffer(lab->env.queue, c_buf, CL_TRUE, 0, (size_t)n * sizeof *c, c, 0, NULL, NULL));
    rc = 0;
cleanup:
    if (a_buf) clReleaseMemObject(a_buf);
    if (b_buf) clReleaseMemObject(b_buf);
    if (c_buf) clReleaseMemObject(c_buf);
    return rc;
}

int main(int argc, char **argv)
{
    struct clk_options opts = {.dims = {1 << 22}};
    struct clk_lab lab = {0};
    int rc = clk_parse_options(argc, argv, &program_info, &opts);
    size_t n = opts.dims[0];
    struct clk_problem problem = {0};
    float *c = NULL;
    double ms = 0.0;
    char what[64];
    if (rc != 0)
        return rc == 1 ? 0 : 2;
    rc = 1;
    /* a and b from --seed, and the CPU reference of c = a + b */
    if (clk_problem_make(CLK_PROBLEM_VADD, opts.dims, opts.seed, &problem) != 0 ||
        !(c = clk_lab_alloc(n, sizeof *c, "c")) || clk_lab_open(&opts, "vadd_stride", "", &lab) != 0)
        goto cleanup;
    if (run(&lab, problem.inputs[0], problem.inputs[1], c, (int)n, &ms) != 0)
        goto cleanup;
    snprintf(what, sizeof what, "vadd_stride n=%zu", n);
    rc = clk_lab_verdict(what, &opts, c, problem.expected, problem.bound, n, ms, clk_gbps(3.0 * n * sizeof(float), ms), "GB/s");
cleanup:
    clk_lab_close(&lab);
    clk_problem_free(&problem);
    free(c);
    return rc;
}
