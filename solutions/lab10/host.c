/* Lab 10 host program: a histogram of n uint values into 256 bins, privatised per work-group in local memory. */
#include "histogram.h"
#include "labhost.h"
#include "problem.h"
#include "timing.h"

#include <stdio.h>
#include <stdlib.h>

#define LOCAL_SIZE 256
#define GROUPS 1024
#define NBINS CLK_HIST_HOST_BINS

static const struct clk_program_info program_info = {
    "lab10", "histogram of N uint values into 256 bins", "N", 1, CLK_SOURCE_DIR "/histogram.cl",
};

/* The largest power of two no greater than the kernel's work-group limit on this device, up to want. */
static size_t local_size_for(struct clk_lab *lab, size_t want)
{
    size_t limit = want, size = 1;
    clGetKernelWorkGroupInfo(lab->kernel, lab->env.info.device, CL_KERNEL_WORK_GROUP_SIZE, sizeof limit, &limit,
                             NULL);
    while (size * 2 <= limit && size * 2 <= want)
        size *= 2;
    return size;
}

/* The kernel adds into bins: they are zeroed before each launch that counts. */
static cl_int zero_bins(struct clk_lab *lab, cl_mem bins)
{
    const cl_uint zero = 0;
    return clEnqueueFillBuffer(lab->env.queue, bins, &zero, sizeof zero, 0, NBINS * sizeof(cl_uint), 0, NULL, NULL);
}

static int run(struct clk_lab *lab, const float *data, uint32_t *bins, int n, double *ms)
{
    cl_int status = CL_SUCCESS;
    cl_mem data_buf = NULL, bins_buf = NULL;
    size_t local = local_size_for(lab, LOCAL_SIZE);
    /* At most GROUPS work-groups, each grid-striding over its share; fewer when n is small. */
    size_t groups = ((size_t)n + local - 1) / local < GROUPS ? ((size_t)n + local - 1) / local : GROUPS;
    size_t global = (groups ? groups : 1) * local;
    int nbins = NBINS, rc = -1;
    data_buf = clk_lab_buffer(lab, CL_MEM_READ_ONLY, data, (size_t)n, &status);
    CL_CHECK(status);
    bins_buf = clk_lab_buffer(lab, CL_MEM_READ_WRITE, NULL, NBINS, &status);
    CL_CHECK(status);
    CL_CHECK(clSetKernelArg(lab->kernel, 0, sizeof data_buf, &data_buf));
    CL_CHECK(clSetKernelArg(lab->kernel, 1, sizeof bins_buf, &bins_buf));
    /* A __local argument gets a size and no value: each work-group receives its own bins. */
    CL_CHECK(clSetKernelArg(lab->kernel, 2, NBINS * sizeof(cl_uint), NULL));
    CL_CHECK(clSetKernelArg(lab->kernel, 3, sizeof n, &n));
    CL_CHECK(clSetKernelArg(lab->kernel, 4, sizeof nbins, &nbins));
    /* The timed runs add up in bins; the counted run starts from zero again. */
    CL_CHECK(zero_bins(lab, bins_buf));
    CL_CHECK(clk_time_kernel(lab->env.queue, lab->kernel, 1, &global, &local, 1, 5, ms));
    CL_CHECK(zero_bins(lab, bins_buf));
    CL_CHECK(clEnqueueNDRangeKernel(lab->env.queue, lab->kernel, 1, NULL, &global, &local, 0, NULL, NULL));
    CL_CHECK(clEnqueueReadBuffer(lab->env.queue, bins_buf, CL_TRUE, 0, NBINS * sizeof *bins, bins, 0, NULL, NULL));
    rc = 0;
cleanup:
    if (data_buf) clReleaseMemObject(data_buf);
    if (bins_buf) clReleaseMemObject(bins_buf);
    return rc;
}

int main(int argc, char **argv)
{
    struct clk_options opts = {.dims = {1 << 24}};
    struct clk_lab lab = {0};
    int rc = clk_parse_options(argc, argv, &program_info, &opts);
    size_t n = opts.dims[0];
    struct clk_problem problem = {0};
    uint32_t *bins = NULL;
    double ms = 0.0;
    char what[64];
    if (rc != 0)
        return rc == 1 ? 0 : 2;
    rc = 1;
    /* n values in [0, 256) from --seed (uint words), and their counts */
    if (clk_problem_make(CLK_PROBLEM_HISTOGRAM, opts.dims, opts.seed, &problem) != 0 ||
        !(bins = clk_lab_alloc(NBINS, sizeof *bins, "the bins")) || clk_lab_open(&opts, "histogram", "", &lab) != 0)
        goto cleanup;
    if (run(&lab, problem.inputs[0], bins, (int)n, &ms) != 0)
        goto cleanup;
    snprintf(what, sizeof what, "histogram n=%zu, %d bins", n, NBINS);
    rc = clk_hist_verdict(what, &opts, bins, problem.expected, NBINS, n, ms);
cleanup:
    clk_lab_close(&lab);
    clk_problem_free(&problem);
    free(bins);
    return rc;
}
