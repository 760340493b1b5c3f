/* Runs each kernel of tests/fixtures/coalescing/strides.cl once over one warp (32 work-items); run under
   Oclgrind with the coalescing plugin, it makes the plugin print one line per kernel. */
#include "context.h"
#include "program.h"

#include <stdio.h>

int main(void)
{
    const char *path = "tests/fixtures/coalescing/strides.cl";
    const char *kernels[] = {"stride_1", "stride_2", "stride_32", "same_address"};
    static float data[32 * 32];
    struct clk_env env;
    cl_program program = NULL;
    cl_mem in = NULL, out = NULL;
    cl_int status = CL_SUCCESS;
    size_t global = 32, local = 32;
    int rc = 1;
    if (clk_env_create("oclgrind", &env) != 0)
        return 2;
    if (!(program = clk_build_program(env.context, env.info.device, path, "", NULL)))
        goto cleanup;
    in = clCreateBuffer(env.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof data, data, &status);
    CL_CHECK(status);
    out = clCreateBuffer(env.context, CL_MEM_WRITE_ONLY, 32 * sizeof(float), NULL, &status);
    CL_CHECK(status);
    for (int k = 0; k < 4; k++) {
        cl_kernel kernel = clk_create_kernel(program, kernels[k], path);
        if (!kernel)
            goto cleanup;
        clSetKernelArg(kernel, 0, sizeof in, &in);
        clSetKernelArg(kernel, 1, sizeof out, &out);
        printf("%s\n", kernels[k]);
        fflush(stdout);
        status = clEnqueueNDRangeKernel(env.queue, kernel, 1, NULL, &global, &local, 0, NULL, NULL);
        if (status == CL_SUCCESS)
            status = clFinish(env.queue);
        clReleaseKernel(kernel);
        CL_CHECK(status);
    }
    rc = 0;
cleanup:
    if (in) clReleaseMemObject(in);
    if (out) clReleaseMemObject(out);
    if (program) clReleaseProgram(program);
    clk_env_release(&env);
    return rc;
}
