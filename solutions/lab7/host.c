/* Lab 7 host program: a 2-D NDRange of TILE x TILE work-groups over the input matrix. */
#include "labhost.h"
#include "problem.h"
#include "timing.h"

#include <stdio.h>
#include <stdlib.h>

#define TILE 16

static const struct clk_program_info program_info = {
    "lab7", "out (cols x rows) = transpose of in (rows x cols)", "ROWSxCOLS", 2, CLK_SOURCE_DIR "/transpose.cl",
};

static int run(struct clk_lab *lab, const float *in, float *out, const int *shape, double *ms)
{
    cl_int status = CL_SUCCESS;
    cl_mem in_buf = NULL, out_buf = NULL;
    size_t rows = (size_t)shape[0], cols = (size_t)shape[1];
    size_t local[2] = {TILE, TILE};
    size_t global[2] = {clk_round_up(cols, TILE), clk_round_up(rows, TILE)};
    int rc = -1;
    in_buf = clk_lab_buffer(lab, CL_MEM_READ_ONLY, in, rows * cols, &status);
    CL_CHECK(status);
    out_buf = clk_lab_buffer(lab, CL_MEM_WRITE_ONLY, NULL, rows * cols, &status);
    CL_CHECK(status);
    CL_CHECK(clSetKernelArg(lab->kernel, 0, sizeof in_buf, &in_buf));
    CL_CHECK(clSetKernelArg(lab->kernel, 1, sizeof out_buf, &out_buf));
    CL_CHECK(clSetKernelArg(lab->kernel, 2, sizeof(int), &shape[0]));
    CL_CHECK(clSetKernelArg(lab->kernel, 3, sizeof(int), &shape[1]));
    CL_CHECK(clk_time_kernel(lab->env.queue, lab->kernel, 2, global, local, 1, 5, ms));
    CL_CHECK(clEnqueueReadBuffer(lab->env.queue, out_buf, CL_TRUE, 0, rows * cols * sizeof *out, out, 0, NULL,
                                 NULL));
    rc = 0;
cleanup:
    if (in_buf) clReleaseMemObject(in_buf);
    if (out_buf) clReleaseMemObject(out_buf);
    return rc;
}

int main(int argc, char **argv)
{
    struct clk_options opts = {.dims = {2048, 2048}};
    struct clk_lab lab = {0};
    int rc = clk_parse_options(argc, argv, &program_info, &opts);
    size_t rows = opts.dims[0], cols = opts.dims[1];
    int shape[2] = {(int)rows, (int)cols};
    struct clk_problem problem = {0};
    float *out = NULL;
    double ms = 0.0;
    char what[96], build_options[32];
    if (rc != 0)
        return rc == 1 ? 0 : 2;
    rc = 1;
    snprintf(build_options, sizeof build_options, "-DTILE=%d", TILE);
    /* in from --seed, and the CPU reference of its transpose */
    if (clk_problem_make(CLK_PROBLEM_TRANSPOSE, opts.dims, opts.seed, &problem) != 0 ||
        !(out = clk_lab_alloc(rows * cols, sizeof *out, "out")) ||
        clk_lab_open(&opts, "transpose", build_options, &lab) != 0)
        goto cleanup;
    if (run(&lab, problem.inputs[0], out, shape, &ms) != 0)
        goto cleanup;
    snprintf(what, sizeof what, "transpose %zux%zu", rows, cols);
    rc = clk_lab_verdict(what, &opts, out, problem.expected, problem.bound, rows * cols, ms,
                         clk_gbps(2.0 * rows * cols * sizeof(float), ms), "GB/s");
cleanup:
    clk_lab_close(&lab);
    clk_problem_free(&problem);
    free(out);
    return rc;
}
