/* An OpenCL context and a profiling-enabled queue on the selected device. */
#ifndef CLKIT_CONTEXT_H
#define CLKIT_CONTEXT_H

#include "device.h"

struct clk_env {
    struct clk_device_info info;
    cl_context context;
    cl_command_queue queue;
    cl_int status; /* the OpenCL status that stopped clk_env_create, CL_SUCCESS when none did */
};

/* Selects a device from SPEC and creates its context and profiling queue; returns 0, or -1 after printing why (with
   env->status set where OpenCL refused). */
int clk_env_create(const char *spec, struct clk_env *env);

/* Releases the queue and context of env; safe on a partly created or zeroed env. */
void clk_env_release(struct clk_env *env);

#endif
