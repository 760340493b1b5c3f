/* Bandwidth probe: a float4 copy, the fastest a kernel can stream global memory. */
__kernel void copy_float4(__global const float4 *in, __global float4 *out, const int n4)
{
    for (int i = get_global_id(0); i < n4; i += get_global_size(0))
        out[i] = in[i];
}
