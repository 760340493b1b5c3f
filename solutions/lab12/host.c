/* Lab 12 host program: c = a + b over n elements in chunks, each uploaded, added and downloaded so that the next
   chunk's upload and the last chunk's download run while this chunk's kernel does. First a serial schedule (each
   chunk, then clFinish) for comparison, then the pipeline: three in-order queues (upload, compute, download), two
   sets of buffers in turn (double buffering), and events and wait lists for every dependence. */
#include "labhost.h"
#include "problem.h"
#include "timing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHUNKS 16 /* at most; fewer when n is smaller */
#define SLOTS 2   /* chunks in flight: buffers a, b and c for each */
#define LOCAL_SIZE 64

static const struct clk_program_info program_info = {
    "lab12", "c = a + b in chunks whose transfers overlap the kernels", "N", 1, CLK_SOURCE_DIR "/vadd.cl",
};

/* What the schedules share: the lab, the pipeline's queues, the chunking, the buffers of each slot, and host memory
   the device copies from and to directly (pinned: buffers the implementation allocates, mapped). */
struct plan {
    struct clk_lab *lab;
    cl_command_queue upload, compute, download;
    size_t n, chunk, chunks;
    cl_mem a[SLOTS], b[SLOTS], c[SLOTS];
    cl_mem pinned[3];
    float *host[3]; /* a, b and c, in pinned memory */
};

/* The pipeline's events: each chunk's two uploads, its kernel and its download. */
struct events {
    cl_event up[CHUNKS][2], added[CHUNKS], down[CHUNKS];
};

/* The elements of chunk i (the last may be short). */
static size_t chunk_size(const struct plan *p, size_t i)
{
    size_t first = i * p->chunk;
    return p->n - first < p->chunk ? p->n - first : p->chunk;
}

/* Enqueues the kernel over count elements of slot's buffers on queue, after the events in wait. */
static cl_int add_slot(struct plan *p, cl_command_queue queue, size_t slot, size_t count, cl_uint waits,
                       const cl_event *wait, cl_event *done)
{
    size_t local = LOCAL_SIZE, global = clk_round_up(count, LOCAL_SIZE);
    int elements = (int)count;
    cl_int status = CL_SUCCESS;
    CL_CHECK_STATUS(status, clSetKernelArg(p->lab->kernel, 0, sizeof p->a[slot], &p->a[slot]));
    CL_CHECK_STATUS(status, clSetKernelArg(p->lab->kernel, 1, sizeof p->b[slot], &p->b[slot]));
    CL_CHECK_STATUS(status, clSetKernelArg(p->lab->kernel, 2, sizeof p->c[slot], &p->c[slot]));
    CL_CHECK_STATUS(status, clSetKernelArg(p->lab->kernel, 3, sizeof elements, &elements));
    CL_CHECK_STATUS(status, clEnqueueNDRangeKernel(queue, p->lab->kernel, 1, NULL, &global, &local, waits, wait,
                                                   done));
cleanup:
    return status;
}

/* The baseline: each chunk uploaded, added and downloaded on one queue, then clFinish: nothing overlaps. */
static int run_serial(struct plan *p, double *ms)
{
    cl_command_queue q = p->lab->env.queue;
    double start = clk_now_s();
    for (size_t i = 0; i < p->chunks; i++) {
        size_t first = i * p->chunk, bytes = chunk_size(p, i) * sizeof(float);
        CL_CHECK(clEnqueueWriteBuffer(q, p->a[0], CL_FALSE, 0, bytes, p->host[0] + first, 0, NULL, NULL));
        CL_CHECK(clEnqueueWriteBuffer(q, p->b[0], CL_FALSE, 0, bytes, p->host[1] + first, 0, NULL, NULL));
        CL_CHECK(add_slot(p, q, 0, chunk_size(p, i), 0, NULL, NULL));
        CL_CHECK(clEnqueueReadBuffer(q, p->c[0], CL_FALSE, 0, bytes, p->host[2] + first, 0, NULL, NULL));
        CL_CHECK(clFinish(q));
    }
    *ms = (clk_now_s() - start) * 1e3;
    return 0;
cleanup:
    return -1;
}

/* Enqueues chunk i: its uploads once the kernel that last read its slot has ended, its kernel once they have and
   the download that last read its slot's c has, its download once the kernel has; then flushes the queues so that
   the device starts on them while the host enqueues the next chunk. */
static int enqueue_chunk(struct plan *p, struct events *e, size_t i)
{
    size_t slot = i % SLOTS, first = i * p->chunk, bytes = chunk_size(p, i) * sizeof(float);
    int reused = i >= SLOTS;
    cl_event kernel_waits[3] = {e->up[i][0], e->up[i][1], reused ? e->down[i - SLOTS] : NULL};
    CL_CHECK(clEnqueueWriteBuffer(p->upload, p->a[slot], CL_FALSE, 0, bytes, p->host[0] + first, reused ? 1 : 0,
                                  reused ? &e->added[i - SLOTS] : NULL, &e->up[i][0]));
    CL_CHECK(clEnqueueWriteBuffer(p->upload, p->b[slot], CL_FALSE, 0, bytes, p->host[1] + first, reused ? 1 : 0,
                                  reused ? &e->added[i - SLOTS] : NULL, &e->up[i][1]));
    kernel_waits[0] = e->up[i][0], kernel_waits[1] = e->up[i][1];
    CL_CHECK(add_slot(p, p->compute, slot, chunk_size(p, i), reused ? 3 : 2, kernel_waits, &e->added[i]));
    CL_CHECK(clEnqueueReadBuffer(p->download, p->c[slot], CL_FALSE, 0, bytes, p->host[2] + first, 1, &e->added[i],
                                 &e->down[i]));
    CL_CHECK(clFlush(p->upload));
    CL_CHECK(clFlush(p->compute));
    CL_CHECK(clFlush(p->download));
    return 0;
cleanup:
    return -1;
}

/* The time between two profiled moments of two events, in ms. */
static double span_ms(cl_event from, cl_profiling_info from_what, cl_event to, cl_profiling_info to_what)
{
    cl_ulong start = 0, end = 0;
    if (clGetEventProfilingInfo(from, from_what, sizeof start, &start, NULL) != CL_SUCCESS ||
        clGetEventProfilingInfo(to, to_what, sizeof end, &end, NULL) != CL_SUCCESS || end < start)
        return 0.0;
    return (double)(end - start) * 1e-6;
}

/* The pipeline's time from the first upload's start to the last download's end, and its transfers' and kernels'
   own times added up, said in timeline beside the serial schedule's; returns the first. */
static double report(const struct plan *p, const struct events *e, double serial_ms, double wall_ms,
                     char *timeline, size_t size)
{
    double total = span_ms(e->up[0][0], CL_PROFILING_COMMAND_START, e->down[p->chunks - 1], CL_PROFILING_COMMAND_END);
    double transfers = 0.0, kernels = 0.0, larger;
    for (size_t i = 0; i < p->chunks; i++) {
        transfers += span_ms(e->up[i][0], CL_PROFILING_COMMAND_START, e->up[i][0], CL_PROFILING_COMMAND_END) +
                     span_ms(e->up[i][1], CL_PROFILING_COMMAND_START, e->up[i][1], CL_PROFILING_COMMAND_END) +
                     span_ms(e->down[i], CL_PROFILING_COMMAND_START, e->down[i], CL_PROFILING_COMMAND_END);
        kernels += span_ms(e->added[i], CL_PROFILING_COMMAND_START, e->added[i], CL_PROFILING_COMMAND_END);
    }
    larger = transfers > kernels ? transfers : kernels;
    snprintf(timeline, size, "%zu chunks: serial %.3f ms, pipeline %.3f ms (wall clock); the pipeline profiled: "
             "%.3f ms, its transfers %.3f ms and kernels %.3f ms in all: %.2fx the larger", p->chunks, serial_ms,
             wall_ms, total, transfers, kernels, larger > 0.0 ? total / larger : 0.0);
    return total;
}

/* The pipeline: every chunk enqueued with its dependences, one wait at the end; *ms its profiled time. */
static int run_pipeline(struct plan *p, double serial_ms, double *ms, char *timeline, size_t size)
{
    struct events e;
    double start = clk_now_s();
    int rc = -1;
    memset(&e, 0, sizeof e);
    for (size_t i = 0; i < p->chunks; i++)
        if (enqueue_chunk(p, &e, i) != 0)
            goto cleanup;
    CL_CHECK(clWaitForEvents((cl_uint)p->chunks, e.down));
    *ms = report(p, &e, serial_ms, (clk_now_s() - start) * 1e3, timeline, size);
    rc = 0;
cleanup:
    if (rc != 0) /* a chunk failed: what was enqueued ends before its events go */
        clFinish(p->upload), clFinish(p->compute), clFinish(p->download);
    for (size_t i = 0; i < CHUNKS; i++) {
        cl_event all[4] = {e.up[i][0], e.up[i][1], e.added[i], e.down[i]};
        for (int k = 0; k < 4; k++)
            if (all[k])
                clReleaseEvent(all[k]);
    }
    return rc;
}

/* Pinned host memory for input or output k: a buffer the implementation allocates, mapped for the host. */
static int pin(struct plan *p, int k)
{
    cl_int status = CL_SUCCESS;
    size_t bytes = p->n * sizeof(float);
    p->pinned[k] = clCreateBuffer(p->lab->env.context, CL_MEM_ALLOC_HOST_PTR, bytes, NULL, &status);
    CL_CHECK(status);
    p->host[k] = clEnqueueMapBuffer(p->lab->env.queue, p->pinned[k], CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes, 0,
                                    NULL, NULL, &status);
    CL_CHECK(status);
    return 0;
cleanup:
    return -1;
}

/* The queues, the slots' buffers and the pinned inputs (copied from a and b) and output. */
static int plan_open(struct plan *p, const float *a, const float *b)
{
    cl_int status = CL_SUCCESS;
    cl_command_queue *queues[3] = {&p->upload, &p->compute, &p->download};
    size_t bytes = p->chunk * sizeof(float);
    for (int q = 0; q < 3; q++) {
        *queues[q] = clCreateCommandQueue(p->lab->env.context, p->lab->env.info.device, CL_QUEUE_PROFILING_ENABLE,
                                          &status);
        CL_CHECK(status);
    }
    for (int s = 0; s < SLOTS; s++) {
        p->a[s] = clCreateBuffer(p->lab->env.context, CL_MEM_READ_ONLY, bytes, NULL, &status);
        CL_CHECK(status);
        p->b[s] = clCreateBuffer(p->lab->env.context, CL_MEM_READ_ONLY, bytes, NULL, &status);
        CL_CHECK(status);
        p->c[s] = clCreateBuffer(p->lab->env.context, CL_MEM_WRITE_ONLY, bytes, NULL, &status);
        CL_CHECK(status);
    }
    for (int k = 0; k < 3; k++)
        if (pin(p, k) != 0)
            return -1;
    memcpy(p->host[0], a, p->n * sizeof(float));
    memcpy(p->host[1], b, p->n * sizeof(float));
    return 0;
cleanup:
    return -1;
}

/* Releases what plan_open made; the result, if wanted, is copied out of pinned memory first. */
static void plan_close(struct plan *p, float *result)
{
    cl_command_queue queues[3] = {p->upload, p->compute, p->download};
    for (int k = 0; k < 3; k++)
        if (p->host[k]) {
            if (k == 2 && result)
                memcpy(result, p->host[2], p->n * sizeof(float));
            clEnqueueUnmapMemObject(p->lab->env.queue, p->pinned[k], p->host[k], 0, NULL, NULL);
        }
    if (p->lab->env.queue)
        clFinish(p->lab->env.queue);
    for (int k = 0; k < 3; k++)
        if (p->pinned[k])
            clReleaseMemObject(p->pinned[k]);
    for (int s = 0; s < SLOTS; s++) {
        if (p->a[s]) clReleaseMemObject(p->a[s]);
        if (p->b[s]) clReleaseMemObject(p->b[s]);
        if (p->c[s]) clReleaseMemObject(p->c[s]);
    }
    for (int q = 0; q < 3; q++)
        if (queues[q])
            clReleaseCommandQueue(queues[q]);
}

int main(int argc, char **argv)
{
    struct clk_options opts = {.dims = {1 << 24}};
    struct clk_lab lab = {0};
    struct clk_problem problem = {0};
    struct plan plan = {.lab = &lab};
    float *c = NULL;
    double serial_ms = 0.0, ms = 0.0;
    char timeline[256] = "";
    int rc = clk_parse_options(argc, argv, &program_info, &opts), ok;
    if (rc != 0)
        return rc == 1 ? 0 : 2;
    rc = 1;
    plan.n = opts.dims[0];
    plan.chunks = plan.n < CHUNKS ? plan.n : CHUNKS;
    plan.chunk = (plan.n + plan.chunks - 1) / plan.chunks;
    if (clk_problem_make(CLK_PROBLEM_VADD, opts.dims, opts.seed, &problem) != 0 ||
        !(c = clk_lab_alloc(plan.n, sizeof *c, "c")) || clk_lab_open(&opts, "vadd", "", &lab) != 0)
        goto cleanup;
    ok = plan_open(&plan, problem.inputs[0], problem.inputs[1]) == 0 && run_serial(&plan, &serial_ms) == 0 &&
         run_pipeline(&plan, serial_ms, &ms, timeline, sizeof timeline) == 0;
    plan_close(&plan, ok ? c : NULL);
    if (ok) {
        rc = clk_lab_verdict("vadd in chunks", &opts, c, problem.expected, problem.bound, plan.n, ms,
                             clk_gbps(3.0 * plan.n * sizeof(float), ms), "GB/s");
        printf("%s\n", timeline);
    }
cleanup:
    clk_lab_close(&lab);
    clk_problem_free(&problem);
    free(c);
    return rc;
}
