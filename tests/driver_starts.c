/* How long one process takes to start a device's driver: selects the device (argv[1], e.g. nvidia), creates its
   context and queue, builds kernels/copy.cl, runs it once, releases everything, and prints the seconds of each
   step. Started N at a time (docs/results/driver-starts-nvidia-h100.txt), it shows whether starts queue. */
#include "context.h"
#include "program.h"
#include "timing.h"

#include <stdio.h>

int main(int argc, char **argv)
{
    double start = clk_now_s(), opened, built, ended;
    struct clk_env env;
    cl_program program = NULL;
    cl_kernel kernel = NULL;
    cl_mem in = NULL, out = NULL;
    cl_int status = CL_SUCCESS;
    size_t global = 1024;
    int n4 = 1024, rc = 1;
    if (clk_env_create(argc > 1 ? argv[1] : NULL, &env) != 0)
        return 2;
    opened = clk_now_s();
    program = clk_build_program(env.context, env.info.device, "kernels/copy.cl", "", NULL);
    if (!program)
        goto cleanup;
    CL_CHECK_STATUS(status, (kernel = clCreateKernel(program, "copy_float4", &status), status));
    CL_CHECK_STATUS(status, (in = clCreateBuffer(env.context, CL_MEM_READ_WRITE, 16 * 1024, NULL, &status), status));
    CL_CHECK_STATUS(status, (out = clCreateBuffer(env.context, CL_MEM_READ_WRITE, 16 * 1024, NULL, &status), status));
    CL_CHECK_STATUS(status, clSetKernelArg(kernel, 0, sizeof in, &in));
    CL_CHECK_STATUS(status, clSetKernelArg(kernel, 1, sizeof out, &out));
    CL_CHECK_STATUS(status, clSetKernelArg(kernel, 2, sizeof n4, &n4));
    built = clk_now_s();
    CL_CHECK_STATUS(status, clEnqueueNDRangeKernel(env.queue, kernel, 1, NULL, &global, NULL, 0, NULL, NULL));
    CL_CHECK_STATUS(status, clFinish(env.queue));
    rc = 0;
cleanup:
    if (in) clReleaseMemObject(in);
    if (out) clReleaseMemObject(out);
    if (kernel) clReleaseKernel(kernel);
    if (program) clReleaseProgram(program);
    clk_env_release(&env);
    ended = clk_now_s();
    if (rc == 0)
        printf("context %.3f build %.3f run and release %.3f total %.3f\n", opened - start, built - opened,
               ended - built, ended - start);
    return rc;
}
