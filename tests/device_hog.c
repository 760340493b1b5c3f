/* Holds as much of a device's memory as it can get (1 GiB buffers, each filled so that the driver really commits
   it) for a number of seconds, as a neighbour on a shared GPU may: the tests grade beside it. Prints "holding N GiB"
   once it holds them; refuses a CPU device. Usage: device_hog DEVICE SECONDS. */
#include "context.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define MAX_BUFFERS 512

int main(int argc, char **argv)
{
    static cl_mem buffers[MAX_BUFFERS];
    const size_t bytes = (size_t)1 << 30;
    const float pattern = 1.0f;
    struct clk_env env;
    int held = 0;
    if (argc != 3 || atoi(argv[2]) <= 0) {
        fprintf(stderr, "usage: device_hog DEVICE SECONDS\n");
        return 2;
    }
    if (clk_env_create(argv[1], &env) != 0)
        return 2;
    if (!env.info.is_gpu) { /* a CPU device's memory is the machine's own: never take it */
        fprintf(stderr, "device_hog: %s is not a GPU\n", argv[1]);
        clk_env_release(&env);
        return 2;
    }
    for (cl_int status = CL_SUCCESS; status == CL_SUCCESS && held < MAX_BUFFERS;) {
        buffers[held] = clCreateBuffer(env.context, CL_MEM_READ_WRITE, bytes, NULL, &status);
        if (status == CL_SUCCESS)
            status = clEnqueueFillBuffer(env.queue, buffers[held], &pattern, sizeof pattern, 0, bytes, 0, NULL, NULL);
        if (status == CL_SUCCESS)
            status = clFinish(env.queue);
        held += status == CL_SUCCESS;
    }
    printf("holding %d GiB\n", held);
    fflush(stdout);
    sleep((unsigned)atoi(argv[2]));
    for (int i = 0; i < held; i++)
        clReleaseMemObject(buffers[i]);
    clk_env_release(&env);
    return 0;
}
