#include "timing.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

double clk_event_ms(cl_event event)
{
    cl_ulong start = 0, end = 0;
    if (clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_START, sizeof start, &start, NULL) != CL_SUCCESS ||
        clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL) != CL_SUCCESS)
        return -1.0;
    return (double)(end - start) * 1e-6;
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void clk_sort_doubles(double *values, size_t count)
{
    qsort(values, count, sizeof *values, compare_doubles);
}

double clk_now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

int clk_stage_times(void)
{
    const char *wanted = getenv("CLKIT_STAGE_TIMES");
    return wanted && strcmp(wanted, "1") == 0;
}

double clk_median(const double *values, size_t count)
{
    double *sorted, median;
    if (count == 0)
        return 0.0;
    sorted = malloc(count * sizeof *sorted);
    if (!sorted)
        return values[0];
    memcpy(sorted, values, count * sizeof *sorted);
    clk_sort_doubles(sorted, count);
    median = count % 2 ? sorted[count / 2] : 0.5 * (sorted[count / 2 - 1] + sorted[count / 2]);
    free(sorted);
    return median;
}

cl_int clk_time_kernel(cl_command_queue queue, cl_kernel kernel, cl_uint dims, const size_t *global,
                       const size_t *local, int warmups, int runs, double *median_ms)
{
    double times[64];
    cl_int status = CL_SUCCESS;
    cl_event event = NULL;
    cl_ulong start = 0, end = 0;
    const char *once = getenv("CLKIT_TIMING_RUNS");
    if (once && strcmp(once, "1") == 0)
        warmups = 0, runs = 1;
    if (runs > 64)
        runs = 64;
    for (int i = 0; i < warmups + runs; i++) {
        CL_CHECK_STATUS(status, clEnqueueNDRangeKernel(queue, kernel, dims, NULL, global, local, 0, NULL, &event));
        CL_CHECK_STATUS(status, clWaitForEvents(1, &event));
        /* A queue without CL_QUEUE_PROFILING_ENABLE fails here, named, rather than giving a time of -1. */
        if (i >= warmups) {
            CL_CHECK_STATUS(status, clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_START, sizeof start, &start,
                                                            NULL));
            CL_CHECK_STATUS(status, clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL));
            times[i - warmups] = (double)(end - start) * 1e-6;
        }
        clReleaseEvent(event);
        event = NULL;
    }
    *median_ms = clk_median(times, (size_t)runs);
cleanup:
    if (event)
        clReleaseEvent(event);
    return status;
}

double clk_gbps(double bytes, double ms)
{
    return ms > 0 ? bytes / (ms * 1e6) : 0.0;
}
