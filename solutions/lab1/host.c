/* Lab 1 host program: every host step of an OpenCL program, written out. */
#include "clerr.h"
#include "device.h"
#include "files.h"
#include "labhost.h"
#include "problem.h"
#include "program.h"
#include "timing.h"

#include <stdio.h>
#include <stdlib.h>

#define LOCAL_SIZE 64

static const struct clk_program_info program_info = {
    "lab1", "c = a + b with one work-item per element", "N", 1, CLK_SOURCE_DIR "/vadd.cl",
};

/* Steps 5-6: create the program from source and build it, printing the log on failure. */
static cl_program build(cl_context context, cl_device_id device, const char *path)
{
    cl_int status = CL_SUCCESS;
    cl_program program = NULL;
    char *source = clk_read_text(path, NULL);
    if (!source)
        return NULL;
    program = clCreateProgramWithSource(context, 1, (const char **)&source, NULL, &status);
    CL_CHECK(status);
    status = clBuildProgram(program, 1, &device, "", NULL, NULL);
    if (status != CL_SUCCESS) {
        char *log = clk_build_log(program, device);
        fprintf(stderr, "error: cannot build %s: %s\n%s\n", path, clk_error_name(status), log ? log : "");
        free(log);
        goto cleanup;
    }
    free(source);
    return program;
cleanup:
    if (program)
        clReleaseProgram(program);
    free(source);
    return NULL;
}

/* Steps 3-12 on the chosen device; c receives the result and *ms the kernel time. */
static int run(cl_device_id device, const char *path, const float *a, const float *b, float *c, int n, double *ms)
{
    cl_int status = CL_SUCCESS;
    cl_context context = NULL;
    cl_command_queue queue = NULL;
    cl_program program = NULL;
    cl_kernel kernel = NULL;
    cl_mem a_buf = NULL, b_buf = NULL, c_buf = NULL;
    size_t bytes = (size_t)n * sizeof(float);
    size_t local = LOCAL_SIZE, global = ((size_t)n + LOCAL_SIZE - 1) / LOCAL_SIZE * LOCAL_SIZE;
    int rc = -1;

    context = clCreateContext(NULL, 1, &device, NULL, NULL, &status);                      /* 3 */
    CL_CHECK(status);
    queue = clCreateCommandQueue(context, device, CL_QUEUE_PROFILING_ENABLE, &status);     /* 4 */
    CL_CHECK(status);
    if (!(program = build(context, device, path)))                                         /* 5, 6 */
        goto cleanup;
    a_buf = clCreateBuffer(context, CL_MEM_READ_ONLY, bytes, NULL, &status);               /* 7 */
    CL_CHECK(status);
    b_buf = clCreateBuffer(context, CL_MEM_READ_ONLY, bytes, NULL, &status);
    CL_CHECK(status);
    c_buf = clCreateBuffer(context, CL_MEM_WRITE_ONLY, bytes, NULL, &status);
    CL_CHECK(status);
    CL_CHECK(clEnqueueWriteBuffer(queue, a_buf, CL_FALSE, 0, bytes, a, 0, NULL, NULL));   /* 8 */
    CL_CHECK(clEnqueueWriteBuffer(queue, b_buf, CL_FALSE, 0, bytes, b, 0, NULL, NULL));
    kernel = clCreateKernel(program, "vadd", &status);                                     /* 9 */
    CL_CHECK(status);
    CL_CHECK(clSetKernelArg(kernel, 0, sizeof a_buf, &a_buf));                             /* 10 */
    CL_CHECK(clSetKernelArg(kernel, 1, sizeof b_buf, &b_buf));
    CL_CHECK(clSetKernelArg(kernel, 2, sizeof c_buf, &c_buf));
    CL_CHECK(clSetKernelArg(kernel, 3, sizeof n, &n));
    CL_CHECK(clk_time_kernel(queue, kernel, 1, &global, &local, 1, 5, ms));                /* 11 */
    CL_CHECK(clEnqueueReadBuffer(queue, c_buf, CL_TRUE, 0, bytes, c, 0, NULL, NULL));      /* 12 */
    rc = 0;
cleanup:
    if (a_buf) clReleaseMemObject(a_buf);
    if (b_buf) clReleaseMemObject(b_buf);
    if (c_buf) clReleaseMemObject(c_buf);
    if (kernel) clReleaseKernel(kernel);
    if (program) clReleaseProgram(program);
    if (queue) clReleaseCommandQueue(queue);
    if (context) clReleaseContext(context);
    return rc;
}

int main(int argc, char **argv)
{
    struct clk_options opts = {.dims = {1 << 22}};
    struct clk_device_info chosen;
    int rc = clk_parse_options(argc, argv, &program_info, &opts);
    size_t n = opts.dims[0];
    struct clk_problem problem = {0};
    float *c = NULL;
    double ms = 0.0;
    if (rc != 0)
        return rc == 1 ? 0 : 2;
    rc = 1;
    /* Step 1, the host data: a and b from --seed, and the CPU reference of c = a + b. */
    if (clk_problem_make(CLK_PROBLEM_VADD, opts.dims, opts.seed, &problem) != 0 ||
        !(c = clk_lab_alloc(n, sizeof *c, "c")))
        goto cleanup;
    /* Step 2: clk_select_device walks clGetPlatformIDs and clGetDeviceIDs to honour --device. */
    if (clk_select_device(opts.device, &chosen) != 0 ||
        run(chosen.device, opts.kernel, problem.inputs[0], problem.inputs[1], c, (int)n, &ms) != 0)
        goto cleanup;
    rc = clk_lab_verdict("vadd", &opts, c, problem.expected, problem.bound, n, ms, clk_gbps(3.0 * n * sizeof(float), ms),
                         "GB/s");
cleanup:
    clk_problem_free(&problem);
    free(c);
    return rc;
}
