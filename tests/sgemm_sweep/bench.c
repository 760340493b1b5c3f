#define _POSIX_C_SOURCE 200809L
/* Standalone SGEMM variant sweep (tests/sgemm_sweep/run.sh): bench VARIANTS N CHECK RUNS. Each line of VARIANTS:
   name|file|kernel|options|lx|ly|BM|BN  (grid (N/BN*lx, N/BM*ly), local (lx, ly)). Env PLATFORM: substring of
   the platform name; DEADLINE: seconds after which remaining variants are skipped; BINDIR: save binaries. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CK(x) do { cl_int e_ = (x); if (e_ != CL_SUCCESS) { fprintf(stderr, "%s: %d\n", #x, e_); goto fail; } } while (0)

static cl_context ctx; static cl_command_queue q; static cl_device_id dev; static int nvidia;
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
static char *slurp(const char *p) {
    FILE *f = fopen(p, "rb"); if (!f) return NULL; fseek(f, 0, SEEK_END); long n = ftell(f); rewind(f);
    char *s = malloc(n + 1); if (fread(s, 1, n, f) != (size_t)n) n = 0; s[n] = 0; fclose(f); return s; }
static int cmpd(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return (x > y) - (x < y); }
static void fill(float *x, size_t n, unsigned s) { for (size_t i = 0; i < n; i++) { s = s * 1664525u + 1013904223u; x[i] = ((s >> 8) / 16777216.0f) * 2 - 1; } }

struct prob { int n; float *hA, *hB, *hC; cl_mem A, B, C; };
static int prob_init(struct prob *p, int n) {
    cl_int e; size_t b = (size_t)n * n * sizeof(float); p->n = n;
    p->hA = malloc(b); p->hB = malloc(b); p->hC = malloc(b); fill(p->hA, (size_t)n * n, 1); fill(p->hB, (size_t)n * n, 2);
    p->A = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, b, p->hA, &e); if (e) return -1;
    p->B = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, b, p->hB, &e); if (e) return -1;
    p->C = clCreateBuffer(ctx, CL_MEM_READ_WRITE, b, NULL, &e); return e ? -1 : 0; }

static double ref(const struct prob *p, int i, int j) { double s = 0; for (int k = 0; k < p->n; k++) s += (double)p->hA[(size_t)i * p->n + k] * p->hB[(size_t)k * p->n + j]; return s; }

/* Runs once; returns ms or -1. */
static double launch(cl_kernel k, const struct prob *p, size_t *g, size_t *l) {
    cl_event ev; cl_ulong t0, t1; int n = p->n;
    clSetKernelArg(k, 0, sizeof(cl_mem), &p->A); clSetKernelArg(k, 1, sizeof(cl_mem), &p->B);
    clSetKernelArg(k, 2, sizeof(cl_mem), &p->C); clSetKernelArg(k, 3, sizeof n, &n);
    clSetKernelArg(k, 4, sizeof n, &n); clSetKernelArg(k, 5, sizeof n, &n);
    if (clEnqueueNDRangeKernel(q, k, 2, NULL, g, l, 0, NULL, &ev) != CL_SUCCESS) return -1;
    clWaitForEvents(1, &ev);
    clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL);
    clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL);
    clReleaseEvent(ev); return (t1 - t0) * 1e-6; }

/* Max error over `count` entries (all when count <= 0) relative to sqrt(n). */
static void poison(const struct prob *p) {
    float nan = NAN; clEnqueueFillBuffer(q, p->C, &nan, sizeof nan, 0, (size_t)p->n * p->n * sizeof(float), 0, NULL, NULL); }

static double check(const struct prob *p, int count) {
    size_t b = (size_t)p->n * p->n * sizeof(float); double worst = 0; unsigned s = 7;
    clEnqueueReadBuffer(q, p->C, CL_TRUE, 0, b, p->hC, 0, NULL, NULL);
    long total = count > 0 ? count : (long)p->n * p->n;
    for (long t = 0; t < total; t++) {
        int i, j; if (count > 0) { s = s * 1664525u + 1013904223u; i = (s >> 8) % p->n; s = s * 1664525u + 1013904223u; j = (s >> 8) % p->n; }
        else { i = t / p->n; j = t % p->n; }
        double d = fabs(ref(p, i, j) - p->hC[(size_t)i * p->n + j]) / sqrt(p->n);
        if (!(d <= worst)) worst = d; }
    return worst; }

static void regs_of(cl_program prog, char *out, size_t size) {
    size_t n = 0; out[0] = 0; clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &n);
    char *log = malloc(n + 1); clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, n, log, NULL); log[n] = 0;
    for (char *l = strtok(log, "\n"); l; l = strtok(NULL, "\n"))
        if (strstr(l, "registers") || strstr(l, "spill") || strstr(l, "rror") || strstr(l, "bytes stack"))
            { size_t u = strlen(out); snprintf(out + u, size - u, "%s%s", u ? " / " : "", l); }
    free(log); }

static void save_binary(cl_program prog, const char *dir, const char *name) {
    size_t n = 0; if (clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, sizeof n, &n, NULL) || !n) return;
    unsigned char *bin = malloc(n); char path[512];
    if (clGetProgramInfo(prog, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL) == CL_SUCCESS) {
        snprintf(path, sizeof path, "%s/%s.ptx", dir, name); FILE *f = fopen(path, "wb");
        if (f) { fwrite(bin, 1, n, f); fclose(f); } }
    free(bin); }

static void variant(char *line, struct prob *big, struct prob *small, int runs) {
    char *name = strtok(line, "|"), *file = strtok(NULL, "|"), *kname = strtok(NULL, "|"), *opts = strtok(NULL, "|");
    char *f[4], *save = NULL; for (int i = 0; i < 4; i++) f[i] = strtok(NULL, "|");
    if (!f[3]) { printf("bad line %s\n", name ? name : ""); return; }
    if (!strcmp(opts, "-")) opts = "";
    static char kept[1024]; kept[0] = 0; /* NVIDIA's own options (-cl-nv-*) only on NVIDIA's platform */
    for (char *t = strtok_r(opts, " ", &save); t; t = strtok_r(NULL, " ", &save))
        if (nvidia || strncmp(t, "-cl-nv-", 7)) { strncat(kept, t, sizeof kept - strlen(kept) - 2); strcat(kept, " "); }
    opts = kept;
    size_t l[2] = {atoi(f[0]), atoi(f[1])}; int bm = atoi(f[2]), bn = atoi(f[3]);
    char *src = slurp(file), regs[1024]; cl_int e; cl_program prog = NULL; cl_kernel k = NULL;
    double t0 = now(), times[64]; int nt = 0;
    if (!src) { printf("%-28s cannot read %s\n", name, file); return; }
    prog = clCreateProgramWithSource(ctx, 1, (const char **)&src, NULL, &e);
    e = clBuildProgram(prog, 1, &dev, opts, NULL, NULL); regs_of(prog, regs, sizeof regs);
    if (e != CL_SUCCESS) { printf("%-28s BUILD FAILED %d %s\n", name, e, regs); goto done; }
    if (getenv("BINDIR")) save_binary(prog, getenv("BINDIR"), name);
    k = clCreateKernel(prog, kname, &e); if (e) { printf("%-28s no kernel %d\n", name, e); goto done; }
    double build = now() - t0;
    size_t req[3] = {0, 0, 0};
    clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof req, req, NULL);
    if (req[0] && (req[0] != l[0] || req[1] != l[1])) { printf("%-28s work-group %zux%zu, kernel wants %zux%zu\n", name, l[0], l[1], req[0], req[1]); goto done; }
    size_t gs[2] = {(small->n + bn - 1) / bn * l[0], (small->n + bm - 1) / bm * l[1]};
    poison(small);
    if (launch(k, small, gs, l) < 0) { printf("%-28s LAUNCH FAILED\n", name); goto done; }
    double es = check(small, 0);
    double eb = -1;
    if (big) {
        size_t gb[2] = {(big->n + bn - 1) / bn * l[0], (big->n + bm - 1) / bm * l[1]};
        poison(big); launch(k, big, gb, l); launch(k, big, gb, l);
        for (int r = 0; r < runs && r < 64; r++) { double ms = launch(k, big, gb, l); if (ms > 0) times[nt++] = ms; }
        eb = check(big, 32);
        qsort(times, nt, sizeof *times, cmpd);
    }
    double med = nt ? times[nt / 2] : 0, flop = big ? 2.0 * big->n * (double)big->n * big->n : 0;
    printf("%-28s %s med %8.3f ms min %8.3f %6.2f TFLOP/s err %.1e/%.1e build %.1fs | %s | %s\n", name,
           (es < 1e-5 && eb < 1e-5) ? "ok " : "BAD", med, nt ? times[0] : 0, med > 0 ? flop / med * 1e-9 : 0, es, eb,
           build, opts, regs);
done:
    fflush(stdout); if (k) clReleaseKernel(k); if (prog) clReleaseProgram(prog); free(src); }

int main(int argc, char **argv) {
    if (argc < 5) { fprintf(stderr, "usage: bench VARIANTS N CHECK RUNS\n"); return 2; }
    setvbuf(stdout, NULL, _IOLBF, 0);
    cl_platform_id ps[8]; cl_uint np = 0; cl_int e; const char *want = getenv("PLATFORM");
    double deadline = getenv("DEADLINE") ? atof(getenv("DEADLINE")) : 1e9, start = now();
    CK(clGetPlatformIDs(8, ps, &np));
    cl_platform_id p = ps[0];
    for (cl_uint i = 0; i < np; i++) { char nm[256]; clGetPlatformInfo(ps[i], CL_PLATFORM_NAME, sizeof nm, nm, NULL); if (want && strstr(nm, want)) p = ps[i]; }
    CK(clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &dev, NULL));
    { char nm[256]; clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof nm, nm, NULL); printf("device: %s\n", nm); nvidia = strstr(nm, "NVIDIA") != NULL; }
    ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &e); CK(e);
    q = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &e); CK(e);
    struct prob big, small; int n = atoi(argv[2]);
    if (prob_init(&small, atoi(argv[3]))) goto fail;
    if (n > 0 && prob_init(&big, n)) goto fail;
    FILE *vf = fopen(argv[1], "r"); char line[2048];
    if (!vf) goto fail;
    while (fgets(line, sizeof line, vf)) {
        line[strcspn(line, "\n")] = 0; if (!line[0] || line[0] == '#') continue;
        if (now() - start > deadline) { printf("deadline: skipped %s\n", line); continue; }
        variant(line, n > 0 ? &big : NULL, &small, atoi(argv[4]));
    }
    printf("total %.1fs\n", now() - start);
    return 0;
fail:
    return 1; }
