/* The grader's own host harness: runs one case of a student kernel inside guard bands and judges it. */
#ifndef CLKIT_GRADER_HARNESS_H
#define CLKIT_GRADER_HARNESS_H

#include "context.h"
#include "labs.h"

#include <stddef.h>

struct case_verdict {
    int ran;           /* the kernel was launched and finished */
    int values_ok;     /* the result is within tolerance */
    int memory_ok;     /* no write outside the buffers, inputs unchanged */
    char values[2048]; /* why the values are wrong */
    char memory[512];  /* why the memory check failed */
};

/* Sets kernel's arguments in the contract's order: the buffers, the __local array if any, then the ints. */
cl_int harness_bind(cl_kernel kernel, const struct grade_launch *launch, const cl_mem *buffers);

/* Runs kernel on launch's data in sub-buffers between guard bands (none when guarded is 0, so that a
   simulator sees each buffer's true end) and fills verdict; returns 0, or -1 on a host-side failure. */
int harness_run_case(const struct clk_env *env, cl_kernel kernel, const struct grade_family *family,
                     struct grade_launch *launch, int guarded, struct case_verdict *verdict);

#endif
