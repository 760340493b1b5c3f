/* Lab 9's going-further bench (tests/conv_separable_bench/run.sh): on one H x W image with a separable (2R+1)^2
   filter, times the naive kernel, lab 9's solution (TILE 64, WPT 4), the one-output halo-tile kernel
   (tests/fixtures/lab9/one-output, TILE 16) and kernels/conv_separable.cl (the filter as its two 1-D factors), and
   checks each against a CPU reference in double at 4096 sampled outputs, the first 64 at the edges and corners.
   bench H W REPS R...   (the kernels' files in the working directory, as run.sh copies them) */
#include "../gpu_bench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static cl_context ctx;
static cl_command_queue q;
static cl_device_id dev;

/* Median of reps launches after 3 warm-ups, by profiling events, in ms; -1 when the launch fails. */
static double timeit(cl_kernel k, const size_t *g, const size_t *l, int reps)
{
    double t[64];
    for (int r = -3; r < reps; r++) {
        cl_event e;
        cl_ulong a, b;
        cl_int s = clEnqueueNDRangeKernel(q, k, 2, NULL, g, l, 0, NULL, &e);
        if (s) { fprintf(stderr, "launch err %d\n", s); return -1; }
        CK(clWaitForEvents(1, &e));
        CK(clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_START, 8, &a, NULL));
        CK(clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_END, 8, &b, NULL));
        if (r >= 0) t[r] = (double)(b - a) * 1e-6;
        clReleaseEvent(e);
    }
    qsort(t, reps, sizeof t[0], cmp);
    return t[reps / 2];
}

static cl_kernel build(const char *file, const char *name, const char *opts)
{
    cl_int err;
    char *src = slurp(file);
    cl_program p = clCreateProgramWithSource(ctx, 1, (const char **)&src, NULL, &err);
    CK(err);
    if (clBuildProgram(p, 1, &dev, opts, NULL, NULL)) {
        static char log[100000];
        clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        fprintf(stderr, "build %s %s:\n%.3000s\n", file, opts, log);
        exit(1);
    }
    cl_kernel k = clCreateKernel(p, name, &err);
    CK(err);
    free(src);
    return k;
}

struct spec {
    const char *label, *file, *kernel, *opts;
    int lx, ly, block_x, block_y; /* work-group, and the outputs a side its block covers */
    int separable;               /* takes (in, row, col, out, local) instead of (in, filter, out, local) */
    int local_kind;              /* 0: (block + 2R)^2, 1: the separable's halo tile and strip, padded */
};

static const struct spec specs[] = {
    {"naive (kernels/conv2d_naive.cl)", "naive.cl", "conv2d_naive", "", 16, 16, 16, 16, 0, 0},
    {"lab 9 solution, TILE 64 WPT 4", "sol9.cl", "conv2d", "-DTILE=64 -DWPT=4", 16, 16, 64, 64, 0, 0},
    {"one output a work-item, TILE 16", "one.cl", "conv2d", "-DTILE=16 -DWPT=1", 16, 16, 16, 16, 0, 0},
    {"separable (kernels/conv_separable.cl)", "sep.cl", "conv_separable", "", 32, 8, 32, 32, 1, 1},
};

int main(int argc, char **argv)
{
    if (argc < 5) { fprintf(stderr, "usage: sb H W REPS R...\n"); return 2; }
    int H = atoi(argv[1]), W = atoi(argv[2]), reps = atoi(argv[3]);
    cl_platform_id plats[8];
    cl_uint np;
    cl_int err;
    CK(clGetPlatformIDs(8, plats, &np));
    for (cl_uint i = 0; i < np && !dev; i++)
        if (clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_GPU, 1, &dev, NULL) != CL_SUCCESS) dev = 0;
    if (!dev) CK(clGetDeviceIDs(plats[0], CL_DEVICE_TYPE_ALL, 1, &dev, NULL));
    char dn[256];
    clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof dn, dn, NULL);
    ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    CK(err);
    q = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &err);
    CK(err);
    size_t n = (size_t)H * W;
    float *h = malloc(n * 4), *o = malloc(n * 4);
    unsigned s = 12345;
    for (size_t i = 0; i < n; i++) { s = s * 1664525u + 1013904223u; h[i] = (float)(s >> 8) / 16777216.0f - 0.5f; }
    cl_mem in = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * 4, h, &err); CK(err);
    cl_mem out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, n * 4, NULL, &err); CK(err);
    printf("device %s, %dx%d image, median of %d launches after 3 warm-ups\n", dn, H, W, reps);
    double copy_gbs = 0;
    {
        cl_kernel k = build("copy.cl", "copy_float4", "");
        int n4 = (int)(n / 4);
        CK(clSetKernelArg(k, 0, sizeof in, &in)); CK(clSetKernelArg(k, 1, sizeof out, &out)); CK(clSetKernelArg(k, 2, 4, &n4));
        size_t g[2] = {((size_t)n4 + 255) / 256 * 256, 1}, l[2] = {256, 1};
        double ms = timeit(k, g, l, reps);
        copy_gbs = 2.0 * n * 4 / ms / 1e6;
        printf("copy (kernels/copy.cl, float4) %.4f ms %.0f GB/s\n", ms, copy_gbs);
        clReleaseKernel(k);
    }
    for (int a = 4; a < argc; a++) {
        int R = atoi(argv[a]), side = 2 * R + 1;
        float *row = malloc(side * 4), *col = malloc(side * 4), *f = malloc(side * side * 4);
        for (int i = 0; i < side; i++) { row[i] = 0.2f + 0.05f * (float)((i * 7) % 5); col[i] = 0.3f - 0.04f * (float)((i * 3) % 4); }
        for (int y = 0; y < side; y++) for (int x = 0; x < side; x++) f[y * side + x] = col[y] * row[x];
        cl_mem fb = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, side * side * 4, f, &err); CK(err);
        cl_mem rb = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, side * 4, row, &err); CK(err);
        cl_mem cb = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, side * 4, col, &err); CK(err);
        printf("R %d: %d taps a output as a 2-D filter, %d as two 1-D passes\n", R, side * side, 2 * side);
        double naive_ms = 0;
        for (size_t k = 0; k < sizeof specs / sizeof specs[0]; k++) {
            const struct spec *sp = &specs[k];
            char opts[256];
            snprintf(opts, sizeof opts, "-cl-std=CL1.2 %s", sp->opts);
            cl_kernel kern = build(sp->file, sp->kernel, opts);
            int bx = sp->block_x, by = sp->block_y, halo_x = bx + 2 * R, halo_y = by + 2 * R;
            /* The separable kernel's halo tile and strip, each row padded by one word (enough for an unpadded one) */
            size_t lb = sp->local_kind ? (size_t)(halo_y * (halo_x + 1) + halo_y * (bx + 1)) * 4 : (size_t)halo_x * halo_y * 4;
            int arg = 0;
            CK(clSetKernelArg(kern, arg++, sizeof in, &in));
            if (sp->separable) { CK(clSetKernelArg(kern, arg++, sizeof rb, &rb)); CK(clSetKernelArg(kern, arg++, sizeof cb, &cb)); }
            else CK(clSetKernelArg(kern, arg++, sizeof fb, &fb));
            CK(clSetKernelArg(kern, arg++, sizeof out, &out));
            CK(clSetKernelArg(kern, arg++, lb, NULL));
            CK(clSetKernelArg(kern, arg++, 4, &H)); CK(clSetKernelArg(kern, arg++, 4, &W)); CK(clSetKernelArg(kern, arg++, 4, &R));
            size_t g[2] = {(size_t)(W + bx - 1) / bx * sp->lx, (size_t)(H + by - 1) / by * sp->ly}, l[2] = {sp->lx, sp->ly};
            float nan = NAN;
            CK(clEnqueueFillBuffer(q, out, &nan, 4, 0, n * 4, 0, NULL, NULL));
            double ms = timeit(kern, g, l, reps);
            if (ms < 0) { printf("  %-40s LAUNCH FAILED\n", sp->label); continue; }
            CK(clEnqueueReadBuffer(q, out, CL_TRUE, 0, n * 4, o, 0, NULL, NULL));
            size_t bad = 0;
            double worst = 0;
            unsigned t = 777;
            for (int i = 0; i < 4096; i++) { /* the first 64 at the corners and edges, then anywhere */
                t = t * 1664525u + 1013904223u;
                size_t y = i < 64 ? (size_t)((i & 1) ? H - 1 - (i >> 2) % 4 : (i >> 2) % 4) : (t >> 4) % (unsigned)H;
                t = t * 1664525u + 1013904223u;
                size_t x = i < 64 ? (size_t)((i & 2) ? W - 1 - (i >> 4) : (i >> 4)) : (t >> 4) % (unsigned)W;
                double sum = 0, sum_abs = 0;
                for (int fy = 0; fy < side; fy++)
                    for (int fx = 0; fx < side; fx++) {
                        long yy = (long)y + fy - R, xx = (long)x + fx - R;
                        if (yy < 0 || yy >= H || xx < 0 || xx >= W) continue;
                        double p = (double)h[yy * W + xx] * col[fy] * row[fx];
                        sum += p;
                        sum_abs += fabs(p);
                    }
                double d = fabs((double)o[y * W + x] - sum), rel = d / (sum_abs + 1e-30);
                if (!(rel <= 1e-5)) bad++;
                if (rel > worst || rel != rel) worst = rel;
            }
            if (k == 0) naive_ms = ms;
            double gbs = 2.0 * n * 4 / ms / 1e6;
            printf("  %-40s %8.4f ms %5.0f GB/s %4.0f%% of copy %6.2fx naive  %s (4096 sampled outputs, worst error %.1e of the sum of |terms|)\n",
                   sp->label, ms, gbs, 100 * gbs / copy_gbs, naive_ms / ms, bad ? "WRONG" : "right", worst);
            fflush(stdout);
            clReleaseKernel(kern);
        }
        clReleaseMemObject(fb); clReleaseMemObject(rb); clReleaseMemObject(cb);
        free(row); free(col); free(f);
    }
    return 0;
}
