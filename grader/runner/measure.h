/* Performance measurement: a kernel against its baseline, interleaved, and the device's peaks. */
#ifndef CLKIT_GRADER_PERF_H
#define CLKIT_GRADER_PERF_H

#include "context.h"
#include "labs/spec.h"

/* A kernel with its launch and plain (unguarded) device buffers, ready to time. */
struct perf_kernel {
    cl_kernel kernel;
    const cl_kernel *sequence; /* a launch with steps: its kernels by index (NULL: kernel is the only one) */
    struct grade_launch launch;
    cl_mem buffers[GRADE_MAX_BUFFERS];
};

struct perf_comparison {
    double student_ms;  /* median kernel time */
    double baseline_ms;
    double speedup;     /* median of the pairwise ratios baseline / student */
    double low, high;   /* the 95% confidence interval of that median */
    double spread;      /* interquartile range of the ratios over their median */
    int pairs;
    int settled;        /* the interval narrowed below the target before the budget ran out */
    int close;          /* the threshold lies inside the interval (after timing again) */
};

/* Creates the buffers of k->launch (inputs copied, outputs NaN) and binds k->kernel to them; returns a CL status.
   Every timed launch below starts from outputs filled with NaN again. */
cl_int perf_setup(const struct clk_env *env, struct perf_kernel *k);

/* Releases the buffers and frees the launch of k (not the kernel). */
void perf_release(struct perf_kernel *k);

/* Times student and baseline in turns (A B A B ...) after warm-ups until the median ratio's interval is narrow and
   clear of threshold (<= 0: none), or budget_s runs out (twice that while the threshold lies inside it). */
cl_int perf_compare(const struct clk_env *env, struct perf_kernel *student, struct perf_kernel *baseline,
                    double budget_s, double threshold, struct perf_comparison *result);

/* Times k alone: the median of runs (at most 127) after a warm-up, in *ms. */
cl_int perf_time(const struct clk_env *env, struct perf_kernel *k, int runs, double *ms);

/* Measures the copy bandwidth (GB/s) with kernels/copy.cl over n floats; 0 when it cannot. */
double perf_copy_gbps(const struct clk_env *env, const char *kernels_dir, size_t n);

/* Measures the FMA throughput (GFLOP/s) with kernels/fma.cl; 0 when it cannot. */
double perf_fma_gflops(const struct clk_env *env, const char *kernels_dir);

/* The spread of ratios: (third quartile - first quartile) / median; 0 for fewer than 2. */
double perf_spread(const double *ratios, int count);

#endif
