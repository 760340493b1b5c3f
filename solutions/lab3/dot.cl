/* Lab 3: naive dot product; each work-item sums a grid-stride slice and writes its own partial. */
__kernel void dot_naive(__global const float *a, __global const float *b, __global float *partial, const int n)
{
    int id = get_global_id(0);
    float sum = 0.0f;
    for (int i = id; i < n; i += get_global_size(0))
        sum += a[i] * b[i];
    partial[id] = sum;
}
