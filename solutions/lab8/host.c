/* Lab 8 host program: a work-group computes a TILE x TILE block of C with (TILE / WPT) x (TILE / WPT) work-items;
   TILE and WPT are build options. */
#include "labhost.h"
#include "problem.h"
#include "timing.h"

#include <stdio.h>
#include <stdlib.h>

#define TILE 64
#define WPT 4
#define SIDE (TILE / WPT)

static const struct clk_program_info program_info = {
    "lab8", "C (MxN) = A (MxK) * B (KxN), blocked in registers", "MxNxK", 3, CLK_SOURCE_DIR "/matmul_reg.cl",
};

static int run(struct clk_lab *lab, const float *A, const float *B, float *C, const int *mnk, double *ms)
{
    cl_int status = CL_SUCCESS;
    cl_mem a_buf = NULL, b_buf = NULL, c_buf = NULL;
    size_t M = (size_t)mnk[0], N = (size_t)mnk[1], K = (size_t)mnk[2];
    size_t local[2] = {SIDE, SIDE};
    size_t global[2] = {clk_round_up(N, TILE) / WPT, clk_round_up(M, TILE) / WPT};
    int rc = -1;
    a_buf = clk_lab_buffer(lab, CL_MEM_READ_ONLY, A, M * K, &status);
    CL_CHECK(status);
    b_buf = clk_lab_buffer(lab, CL_MEM_READ_ONLY, B, K * N, &status);
    CL_CHECK(status);
    c_buf = clk_lab_buffer(lab, CL_MEM_WRITE_ONLY, NULL, M * N, &status);
    CL_CHECK(status);
    CL_CHECK(clSetKernelArg(lab->kernel, 0, sizeof a_buf, &a_buf));
    CL_CHECK(clSetKernelArg(lab->kernel, 1, sizeof b_buf, &b_buf));
    CL_CHECK(clSetKernelArg(lab->kernel, 2, sizeof c_buf, &c_buf));
    for (cl_uint i = 0; i < 3; i++)
        CL_CHECK(clSetKernelArg(lab->kernel, 3 + i, sizeof(int), &mnk[i]));
    CL_CHECK(clk_time_kernel(lab->env.queue, lab->kernel, 2, global, local, 1, 5, ms));
    CL_CHECK(clEnqueueReadBuffer(lab->env.queue, c_buf, CL_TRUE, 0, M * N * sizeof *C, C, 0, NULL, NULL));
    rc = 0;
cleanup:
    if (a_buf) clReleaseMemObject(a_buf);
    if (b_buf) clReleaseMemObject(b_buf);
    if (c_buf) clReleaseMemObject(c_buf);
    return rc;
}

int main(int argc, char **argv)
{
    struct clk_options opts = {.dims = {512, 512, 512}};
    struct clk_lab lab = {0};
    int rc = clk_parse_options(argc, argv, &program_info, &opts);
    size_t M = opts.dims[0], N = opts.dims[1], K = opts.dims[2];
    int mnk[3] = {(int)M, (int)N, (int)K};
    struct clk_problem problem = {0};
    float *C = NULL;
    double ms = 0.0;
    char what[96], build_options[32];
    if (rc != 0)
        return rc == 1 ? 0 : 2;
    rc = 1;
    /* The kernel's arrays are sized at compile time, so the host and kernel agree on TILE and WPT here. */
    snprintf(build_options, sizeof build_options, "-DTILE=%d -DWPT=%d", TILE, WPT);
    /* A and B from --seed, and the CPU reference of C = A B */
    if (clk_problem_make(CLK_PROBLEM_MATMUL, opts.dims, opts.seed, &problem) != 0 ||
        !(C = clk_lab_alloc(M * N, sizeof *C, "C")) || clk_lab_open(&opts, "matmul_reg", build_options, &lab) != 0)
        goto cleanup;
    if (run(&lab, problem.inputs[0], problem.inputs[1], C, mnk, &ms) != 0)
        goto cleanup;
    snprintf(what, sizeof what, "matmul_reg %zux%zux%zu", M, N, K);
    rc = clk_lab_verdict(what, &opts, C, problem.expected, problem.bound, M * N, ms, 2.0 * M * N * K / (ms * 1e6), "GFLOP/s");
cleanup:
    clk_lab_close(&lab);
    clk_problem_free(&problem);
    free(C);
    return rc;
}
