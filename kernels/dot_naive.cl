/* Baseline for lab 4: the dot product with no local memory, every work-item writing its own
   partial sum (the lab 3 contract), so the host has many more partials to add. */
__kernel void dot_naive(__global const float *a, __global const float *b, __global float *partial, const int n)
{
    const int stride = get_global_size(0);
    float acc = 0.0f;
    int i = get_global_id(0);
    while (i < n) {
        acc += a[i] * b[i];
        i += stride;
    }
    partial[get_global_id(0)] = acc;
}
