/* Scaffolding for the lab host programs: OpenCL set-up from the options, buffers, and the PASS/FAIL verdict. */
#ifndef CLKIT_LABHOST_H
#define CLKIT_LABHOST_H

#include "context.h"
#include "options.h"

struct clk_lab {
    struct clk_env env;
    cl_program program;
    cl_kernel kernel;
};

/* Creates the context and queue on opts->device and builds kernel_name from opts->kernel; returns 0, or -1 after printing why. */
int clk_lab_open(const struct clk_options *opts, const char *kernel_name, const char *build_options,
                 struct clk_lab *lab);

/* Releases everything clk_lab_open created; safe on a zeroed lab. */
void clk_lab_close(struct clk_lab *lab);

/* Creates a device buffer of count floats, copied from host when host is not NULL. */
cl_mem clk_lab_buffer(struct clk_lab *lab, cl_mem_flags flags, const float *host, size_t count, cl_int *status);

/* Rounds x up to a multiple of step, so that an NDRange covers x with whole work-groups. */
size_t clk_round_up(size_t x, size_t step);

/* Allocates count elements of size bytes each, zeroed; prints an error naming what and returns NULL when memory runs out. */
void *clk_lab_alloc(size_t count, size_t size, const char *what);

/* Prints that a TODO(student) step of the lab's host program is still to be written. */
void clk_not_implemented(const char *lab, const char *step);

/* Checks result against the reference, prints PASS or FAIL with the time and rate, writes --out; returns the exit status. */
int clk_lab_verdict(const char *what, const struct clk_options *opts, const float *result,
                    const double *expected, const double *bound, size_t n, double ms, double rate,
                    const char *unit);

#endif
