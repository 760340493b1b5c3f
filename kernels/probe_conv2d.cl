/* The host-program probe for conv2d: the image times the run's secret (PROBE_SECRET, replaced when the grader stages
   it), the filter left unread, so that a host program that runs the kernel it is given writes what only that run's
   judge knows. */
__kernel void PROBE_KERNEL(__global const float *in, __constant float *filter, __global float *out,
                           __local float *tile, const int H, const int W, const int R)
{
    int x = get_global_id(0), y = get_global_id(1);
    (void)filter, (void)tile, (void)R;
    if (y < H && x < W)
        out[y * W + x] = in[y * W + x] * PROBE_SECRET;
}
