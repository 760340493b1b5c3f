/* Lab 9 host program: the image and the filter to the device, a 2-D NDRange whose work-groups of
   (TILE / WPT) x (TILE / WPT) work-items compute TILE x TILE outputs each, and a __local halo tile sized at run
   time from R; TILE and WPT are build options. */
#include "conv2d.h"
#include "labhost.h"
#include "problem.h"
#include "timing.h"

#include <stdio.h>
#include <stdlib.h>

#define TILE 64
#define WPT 4
#define SIDE (TILE / WPT)

static const struct clk_program_info program_info = {
    "lab9", "out (HxW) = in (HxW) convolved with a (2R+1)^2 filter, zero outside the image", "HxWxR", 3,
    CLK_SOURCE_DIR "/conv2d.cl",
};

static int run(struct clk_lab *lab, const struct clk_problem *p, float *out, const int *shape, double *ms)
{
    cl_int status = CL_SUCCESS;
    cl_mem in_buf = NULL, filter_buf = NULL, out_buf = NULL;
    size_t H = p->dims[0], W = p->dims[1], side = TILE + 2 * p->dims[2];
    size_t local[2] = {SIDE, SIDE};
    /* TODO(student): a 2-D NDRange of work-groups of SIDE x SIDE work-items, each work-group computing a
       TILE x TILE block of the image (WPT x WPT outputs a work-item): dimension 0 covers the W columns and
       dimension 1 the H rows, each rounded up to a multiple of TILE with clk_round_up, then divided by WPT. */
    size_t global[2] = {0, 0};
    int rc = -1;
    if (global[0] == 0 || global[1] == 0) {
        clk_not_implemented("lab9", "set the 2-D NDRange in run()");
        goto cleanup;
    }
    in_buf = clk_lab_buffer(lab, CL_MEM_READ_ONLY, p->inputs[0], H * W, &status);
    CL_CHECK(status);
    filter_buf = clk_lab_buffer(lab, CL_MEM_READ_ONLY, p->inputs[1], p->input_lengths[1], &status);
    CL_CHECK(status);
    out_buf = clk_lab_buffer(lab, CL_MEM_WRITE_ONLY, NULL, H * W, &status);
    CL_CHECK(status);
    CL_CHECK(clSetKernelArg(lab->kernel, 0, sizeof in_buf, &in_buf));
    CL_CHECK(clSetKernelArg(lab->kernel, 1, sizeof filter_buf, &filter_buf));
    CL_CHECK(clSetKernelArg(lab->kernel, 2, sizeof out_buf, &out_buf));
    /* TODO(student): argument 3 is the __local halo tile: clSetKernelArg with its size in bytes (side * side
       floats) and NULL for its value, which asks the device for local memory rather than passing data. */
    (void)side;
    for (cl_uint i = 0; i < 3; i++)
        CL_CHECK(clSetKernelArg(lab->kernel, 4 + i, sizeof(int), &shape[i]));
    CL_CHECK(clk_time_kernel(lab->env.queue, lab->kernel, 2, global, local, 1, 5, ms));
    CL_CHECK(clEnqueueReadBuffer(lab->env.queue, out_buf, CL_TRUE, 0, H * W * sizeof *out, out, 0, NULL, NULL));
    rc = 0;
cleanup:
    if (in_buf) clReleaseMemObject(in_buf);
    if (filter_buf) clReleaseMemObject(filter_buf);
    if (out_buf) clReleaseMemObject(out_buf);
    return rc;
}

int main(int argc, char **argv)
{
    struct clk_options opts = {.dims = {2048, 2048, 2}};
    struct clk_lab lab = {0};
    int rc = clk_parse_options(argc, argv, &program_info, &opts);
    size_t H = opts.dims[0], W = opts.dims[1];
    int shape[3] = {(int)H, (int)W, (int)opts.dims[2]};
    struct clk_problem problem = {0};
    float *out = NULL;
    double ms = 0.0;
    char what[96], build_options[48];
    if (rc != 0)
        return rc == 1 ? 0 : 2;
    rc = 1;
    snprintf(build_options, sizeof build_options, "-DTILE=%d -DWPT=%d", TILE, WPT);
    /* the image and the filter from --seed, and the CPU reference of their convolution */
    if (clk_problem_make(CLK_PROBLEM_CONV2D, opts.dims, opts.seed, &problem) != 0 ||
        !(out = clk_lab_alloc(H * W, sizeof *out, "out")) || clk_lab_open(&opts, "conv2d", build_options, &lab) != 0)
        goto cleanup;
    if (run(&lab, &problem, out, shape, &ms) != 0)
        goto cleanup;
    snprintf(what, sizeof what, "conv2d %zux%zu, R %zu", H, W, opts.dims[2]);
    rc = clk_lab_verdict(what, &opts, out, problem.expected, problem.bound, H * W, ms,
                         clk_gbps(2.0 * H * W * sizeof(float), ms), "GB/s");
cleanup:
    clk_lab_close(&lab);
    clk_problem_free(&problem);
    free(out);
    return rc;
}
