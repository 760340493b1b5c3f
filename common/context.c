#include "context.h"

#include <string.h>

int clk_env_create(const char *spec, struct clk_env *env)
{
    cl_int status = CL_SUCCESS;
    memset(env, 0, sizeof *env);
    if (clk_select_device(spec, &env->info) != 0)
        return -1;
    env->context = clCreateContext(NULL, 1, &env->info.device, NULL, NULL, &status);
    CL_CHECK(status);
    env->queue = clCreateCommandQueue(env->context, env->info.device, CL_QUEUE_PROFILING_ENABLE, &status);
    CL_CHECK(status);
    return 0;
cleanup:
    clk_env_release(env);
    env->status = status;
    return -1;
}

void clk_env_release(struct clk_env *env)
{
    if (env->queue)
        clReleaseCommandQueue(env->queue);
    if (env->context)
        clReleaseContext(env->context);
    env->queue = NULL;
    env->context = NULL;
}
