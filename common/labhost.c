#include "labhost.h"

#include "files.h"
#include "program.h"
#include "verify.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int clk_lab_open(const struct clk_options *opts, const char *kernel_name, const char *build_options,
                 struct clk_lab *lab)
{
    memset(lab, 0, sizeof *lab);
    if (clk_env_create(opts->device, &lab->env) != 0)
        return -1;
    lab->program = clk_build_program(lab->env.context, lab->env.info.device, opts->kernel, build_options, NULL);
    if (!lab->program)
        goto cleanup;
    lab->kernel = clk_create_kernel(lab->program, kernel_name, opts->kernel);
    if (!lab->kernel)
        goto cleanup;
    return 0;
cleanup:
    clk_lab_close(lab);
    return -1;
}

void clk_lab_close(struct clk_lab *lab)
{
    if (lab->kernel)
        clReleaseKernel(lab->kernel);
    if (lab->program)
        clReleaseProgram(lab->program);
    clk_env_release(&lab->env);
    lab->kernel = NULL;
    lab->program = NULL;
}

cl_mem clk_lab_buffer(struct clk_lab *lab, cl_mem_flags flags, const float *host, size_t count, cl_int *status)
{
    if (host)
        flags |= CL_MEM_COPY_HOST_PTR;
    return clCreateBuffer(lab->env.context, flags, count * sizeof(float), (void *)host, status);
}

int clk_lab_verdict(const char *what, const struct clk_options *opts, const float *result,
                    const double *expected, const double *bound, size_t n, double ms, double rate,
                    const char *unit)
{
    size_t first = 0;
    size_t wrong = clk_count_wrong(result, expected, bound, n, &first);
    if (opts->out && clk_write_floats(opts->out, result, n) != 0)
        return 1;
    if (wrong == 0) {
        printf("PASS %s: %.3f ms, %.2f %s\n", what, ms, rate, unit);
        return 0;
    }
    printf("FAIL %s: %zu of %zu results wrong; first at index %zu: expected %.6g, got %.6g\n", what, wrong, n,
           first, expected[first], (double)result[first]);
    return 1;
}

size_t clk_round_up(size_t x, size_t step)
{
    return (x + step - 1) / step * step;
}

void *clk_lab_alloc(size_t count, size_t size, const char *what)
{
    void *memory = calloc(count ? count : 1, size);
    if (!memory)
        fprintf(stderr, "error: out of host memory for %s (%zu elements)\n", what, count);
    return memory;
}

void clk_not_implemented(const char *lab, const char *step)
{
    fprintf(stderr, "%s: not implemented yet: %s (see the TODO(student) comments in labs/%s/host.c)\n", lab, step,
            lab);
}
