/* Lab 1 host program: every host step of an OpenCL program, written out by you. */
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

/* TODO(student): write steps 3 to 12 of an OpenCL host program for the device chosen in main:
     3. clCreateContext for that one device;
     4. clCreateCommandQueue with CL_QUEUE_PROFILING_ENABLE (the timing needs it);
     5. read the kernel source (clk_read_text) and clCreateProgramWithSource;
     6. clBuildProgram; on failure print the build log (clk_build_log) and stop;
     7. clCreateBuffer for a, b (read-only) and c (write-only), n floats each;
     8. clEnqueueWriteBuffer a and b;
     9. clCreateKernel(program, "vadd", ...);
    10. clSetKernelArg for a, b, c and n (an int);
    11. enqueue a 1-D NDRange of LOCAL_SIZE work-groups covering n (round up) and time it:
        clk_time_kernel(queue, kernel, 1, &global, &local, 1, 5, ms) does both;
    12. clEnqueueReadBuffer c, blocking.
   Check every call with CL_CHECK, and release everything under cleanup. Return 0 on success. */
static int run(cl_device_id device, const char *path, const float *a, const float *b, float *c, int n, double *ms)
{
    (void)device, (void)path, (void)a, (void)b, (void)c, (void)n, (void)ms;
    clk_not_implemented("lab1", "the host steps 3 to 12 in run()");
    return -1;
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
    /* Step 2: clk_select_device walks clGetPlatformIDs and clGetDeviceIDs to honour --device.
       TODO(student): read common/device.c to see how. */
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
