/* What the kit's stand-alone GPU benches share (tests/conv_separable_bench, tests/hist_bench): one checking macro for
   OpenCL calls, a kernel file read whole, and the comparison their medians sort with. Each bench is one file that
   its run.sh compiles on its own, so these are static. */
#ifndef CLKIT_GPU_BENCH_H
#define CLKIT_GPU_BENCH_H

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>

/* Exits naming the file and line when an OpenCL call fails. */
#define CK(x) do { cl_int e_ = (x); if (e_) { fprintf(stderr, "%s:%d err %d\n", __FILE__, __LINE__, e_); exit(1); } } while (0)

/* The whole of file p, NUL-terminated (malloc'd); exits when it cannot be read. */
static char *slurp(const char *p)
{
    FILE *f = fopen(p, "rb");
    if (!f) { perror(p); exit(1); }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *s = malloc(n + 1);
    if (!s || fread(s, 1, n, f) != (size_t)n) exit(1);
    s[n] = 0;
    fclose(f);
    return s;
}

/* qsort's order of doubles, ascending. */
static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

#endif
