/* Lab 3: naive dot product; each work-item sums a grid-stride slice and writes its own partial. */
__kernel void dot_naive(__global const float *a, __global const float *b, __global float *partial, const int n)
{
    /* TODO(student): accumulate a[i] * b[i] in a private float for i = get_global_id(0),
       then every get_global_size(0) elements until n. Write the sum to
       partial[get_global_id(0)], even when it is zero: the host adds every partial. */
}
