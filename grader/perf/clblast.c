#include "perf/clblast.h"

#include "timing.h"

#ifdef CLKIT_HAVE_CLBLAST
#include <clblast_c.h>

/* CLBlast may run several kernels for one call (padding, transposes) and its event covers only the last:
   markers around the call, on the in-order queue, time the whole of it. */
static double marker_end_ns(cl_event marker)
{
    cl_ulong end = 0;
    clGetEventProfilingInfo(marker, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL);
    return (double)end;
}

double clblast_sgemm_ms(const struct clk_env *env, cl_mem A, cl_mem B, cl_mem C, size_t M, size_t N, size_t K)
{
    double times[5];
    cl_command_queue queue = env->queue;
    /* The first calls compile and tune CLBlast's kernels: two untimed warm-ups. */
    for (int i = 0; i < 7; i++) {
        cl_event before = NULL, after = NULL;
        CLBlastStatusCode status = CLBlastSuccess;
        int ok = clEnqueueMarkerWithWaitList(queue, 0, NULL, &before) == CL_SUCCESS;
        if (ok)
            status = CLBlastSgemm(CLBlastLayoutRowMajor, CLBlastTransposeNo, CLBlastTransposeNo, M, N, K, 1.0f, A, 0, K,
                                  B, 0, N, 0.0f, C, 0, N, &queue, NULL);
        ok = ok && status == CLBlastSuccess && clEnqueueMarkerWithWaitList(queue, 0, NULL, &after) == CL_SUCCESS &&
             clWaitForEvents(1, &after) == CL_SUCCESS;
        if (ok && i >= 2)
            times[i - 2] = (marker_end_ns(after) - marker_end_ns(before)) * 1e-6;
        if (before)
            clReleaseEvent(before);
        if (after)
            clReleaseEvent(after);
        if (!ok)
            return 0.0;
    }
    return clk_median(times, 5);
}
#else
double clblast_sgemm_ms(const struct clk_env *env, cl_mem A, cl_mem B, cl_mem C, size_t M, size_t N, size_t K)
{
    (void)env, (void)A, (void)B, (void)C, (void)M, (void)N, (void)K;
    return 0.0;
}
#endif
