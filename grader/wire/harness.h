/* The grader's own harness: a case's buffers between guard zones, laid out by both processes and launched in the runner. */
#ifndef CLKIT_GRADER_HARNESS_H
#define CLKIT_GRADER_HARNESS_H

#include "context.h"
#include "labs/spec.h"

#include <stddef.h>
#include <stdint.h>

/* A case's buffers as the device left them: each guard zone, the buffer, and the other guard zone. */
struct harness_raw {
    float *data[GRADE_MAX_BUFFERS];
    size_t totals[GRADE_MAX_BUFFERS];
};

/* Sets kernel's arguments in the contract's order: the buffers, the __local array if any, then the ints. */
cl_int harness_bind(cl_kernel kernel, const struct grade_launch *launch, const cl_mem *buffers);

/* Enqueues launch's commands on queue over buffers: its one kernel, kernels[0], bound and launched as the launch
   gives it, or each of its steps in turn, the step's kernel (kernels[step's index]) bound just before its launch,
   and its snapshots only with snapshots set. With ms non-NULL, waits and sets *ms to the time from the first
   launch's start to the last one's end; returns a CL status. */
cl_int harness_enqueue(cl_command_queue queue, const cl_kernel *kernels, const struct grade_launch *launch,
                       const cl_mem *buffers, int snapshots, double *ms);

/* Guard elements for a buffer of count floats in launch: twice the buffer or the grid, at least 4 KiB,
   a multiple of align_bytes, so that an overrun by whole rows or work-groups lands in a guard. */
size_t harness_guard_elements(const struct grade_launch *launch, size_t count, uint32_t align_bytes);

/* Where a buffer of total floats (guards included) ends in the staging area: the next one starts on a page, so
   that a CPU device can use it in place. */
size_t harness_stride(size_t total);

/* The floats all of launch's buffers take with guard zones of guard elements on each side, one after another at
   harness_stride. */
size_t harness_area_floats(const struct grade_launch *launch, size_t guard);

/* Runner side: runs the kernels (kernels[0] alone, or launch's steps) on launch's inputs, each buffer in a sub-buffer between guard zones of guard elements
   filled with guard_bits[i] (no zones when guard is 0); the buffers are staged in area (harness_area_floats of
   them, one after another) and read back into it; launch's host copies are freed once staged, and a CPU device
   works in area itself, so that a large case is held once. Fills raw's totals (its data points into area);
   returns the launch's CL status. */
cl_int harness_launch(const struct clk_env *env, const cl_kernel *kernels, struct grade_launch *launch,
                      size_t guard, const uint32_t *guard_bits, float *area, struct harness_raw *raw);

#endif
