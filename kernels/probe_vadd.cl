/* The host-program probe for vector add: c = a - b, in a grid-stride loop so that any grid covers n. The grader
   names it PROBE_KERNEL's lab kernel; a host program that runs the kernel it is given writes a - b. */
__kernel void PROBE_KERNEL(__global const float *a, __global const float *b, __global float *c, const int n)
{
    for (int i = (int)get_global_id(0); i < n; i += (int)get_global_size(0))
        c[i] = a[i] - b[i];
}
