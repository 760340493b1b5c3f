/* The host-program probe for transpose: a plain copy, element for element, so a host program that runs the
   kernel it is given writes the input back unchanged. */
__kernel void PROBE_KERNEL(__global const float *in, __global float *out, const int rows, const int cols)
{
    int col = get_global_id(0), row = get_global_id(1);
    if (row < rows && col < cols)
        out[row * cols + col] = in[row * cols + col];
}
