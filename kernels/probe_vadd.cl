/* The host-program probe for vector add: c = a - b times the run's secret, in a grid-stride loop so that any grid
   covers n. The grader stages it under the lab's kernel name with PROBE_KERNEL and PROBE_SECRET replaced (and these
   comments dropped); a host program that runs the kernel it is given writes what only that run's judge knows. */
__kernel void PROBE_KERNEL(__global const float *a, __global const float *b, __global float *c, const int n)
{
    for (int i = (int)get_global_id(0); i < n; i += (int)get_global_size(0))
        c[i] = a[i] - b[i] * PROBE_SECRET;
}
