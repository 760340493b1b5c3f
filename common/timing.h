/* Event timing: kernel times from OpenCL profiling events, and medians. */
#ifndef CLKIT_TIMING_H
#define CLKIT_TIMING_H

#include "clerr.h"

#include <stddef.h>

/* Returns the time between an event's start and end in milliseconds, or -1 when profiling is unavailable. */
double clk_event_ms(cl_event event);

/* Returns the median of values[0..count) without reordering them (0 for an empty array). */
double clk_median(const double *values, size_t count);

/* Sorts count values in ascending order. */
void clk_sort_doubles(double *values, size_t count);

/* Seconds on the monotonic clock: for durations and deadlines, never for kernel times (see clk_event_ms). */
double clk_now_s(void);

/* Whether CLKIT_STAGE_TIMES=1 asks for where a grading's time goes (on stderr; the report stays as it is). */
int clk_stage_times(void);

/* Enqueues kernel warmups+runs times over the NDRange and stores the median kernel time in *median_ms; returns a CL status.
   With CLKIT_TIMING_RUNS=1 in the environment (the grader's run under Oclgrind, which simulates every launch) it
   launches once. A failing call is reported (CL_CHECK_STATUS) and its status returned: a queue created without
   CL_QUEUE_PROFILING_ENABLE returns CL_PROFILING_INFO_NOT_AVAILABLE. */
cl_int clk_time_kernel(cl_command_queue queue, cl_kernel kernel, cl_uint dims, const size_t *global,
                       const size_t *local, int warmups, int runs, double *median_ms);

/* Converts bytes moved in ms milliseconds to GB/s (1e9 bytes a second). */
double clk_gbps(double bytes, double ms);

#endif
