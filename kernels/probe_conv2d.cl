/* The host-program probe for conv2d: the image times the run's secret (PROBE_SECRET, replaced when the grader stages
   it), the filter left unread, so that a host program that runs the kernel it is given writes what only that run's
   judge knows. Each work-item steps over the image by the grid's size, so the probe covers it under any grid the
   lab's contract allows (one work-item per output, or per WPT x WPT block); TILE and WPT, if the host defines
   them, are not used. */
__kernel void PROBE_KERNEL(__global const float *in, __constant float *filter, __global float *out,
                           __local float *tile, const int H, const int W, const int R)
{
    (void)filter, (void)tile, (void)R;
    for (int y = get_global_id(1); y < H; y += get_global_size(1))
        for (int x = get_global_id(0); x < W; x += get_global_size(0))
            out[y * W + x] = in[y * W + x] * PROBE_SECRET;
}
