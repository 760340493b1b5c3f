/* Baseline for lab 7: the direct transpose; reads coalesce, writes stride by rows floats. */
__kernel void transpose_naive(__global const float *in, __global float *out, const int rows, const int cols)
{
    const int c = get_global_id(0), r = get_global_id(1);
    if (r < rows && c < cols)
        out[c * rows + r] = in[r * cols + c];
}
