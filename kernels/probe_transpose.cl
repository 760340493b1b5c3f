/* The host-program probe for transpose: the input times the run's secret (PROBE_SECRET, replaced when the
   grader stages it), element for element, not transposed. */
__kernel void PROBE_KERNEL(__global const float *in, __global float *out, const int rows, const int cols)
{
    int col = get_global_id(0), row = get_global_id(1);
    if (row < rows && col < cols)
        out[row * cols + col] = in[row * cols + col] * PROBE_SECRET;
}
