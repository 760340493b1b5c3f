#include "runner/builds.h"

#include "program.h"
#include "text.h"

#include <stdio.h>
#include <stdlib.h>

/* Builds the kernel with -DTILE and -DWPT of tiling (none for NULL) and the options every build shares; on
   failure fills reason with the log or the kernels found. */
static int build_one(const struct clk_env *env, const struct grade_lab_spec *lab, const char *path,
                     const char *include_dir, const char *shared, const struct grade_tiling *tiling, struct built *b,
                     char *reason, size_t size)
{
    char options[64] = "", *log = NULL, *names;
    char all_options[600];
    cl_int status = CL_SUCCESS;
    int i = b->count++;
    if (tiling)
        snprintf(options, sizeof options, "-DTILE=%d", tiling->tile);
    if (tiling && tiling->wpt)
        clk_append(options, sizeof options, " -DWPT=%d", tiling->wpt);
    snprintf(all_options, sizeof all_options, "%s %s%s%s", shared, options, include_dir ? " -I " : "",
             include_dir ? include_dir : "");
    b->tiles[i] = tiling ? tiling->tile : 0;
    b->programs[i] = clk_build_program(env->context, env->info.device, path, all_options, &log);
    if (!b->programs[i]) {
        snprintf(reason, size, "%s", log ? log : "the build failed");
        if (tiling)
            clk_append(reason, size, "\n(built with %s)", options);
        free(log);
        return -1;
    }
    for (int k = 0; k < labs_kernel_count(lab); k++) {
        b->kernels[i][k] = clCreateKernel(b->programs[i], labs_kernel_name(lab, k), &status);
        if (status != CL_SUCCESS) {
            names = clk_kernel_names(b->programs[i]);
            snprintf(reason, size, "%s has no kernel named '%s' (the name the lab's contract fixes); kernels found: %s",
                     path, labs_kernel_name(lab, k), names && names[0] ? names : "none");
            free(names);
            return -1;
        }
    }
    return 0;
}

int builds_all(const struct clk_env *env, const struct grade_lab_spec *lab, const char *path, const char *include_dir,
               int unoptimised, struct built *b, char *reason, size_t size)
{
    const char *shared = unoptimised ? BUILDS_STD " -cl-opt-disable" : BUILDS_STD;
    if (!lab->tilings)
        return build_one(env, lab, path, include_dir, shared, NULL, b, reason, size);
    for (const struct grade_tiling *t = lab->tilings; t->tile && b->count < MAX_TILES; t++)
        if (build_one(env, lab, path, include_dir, shared, t, b, reason, size) != 0)
            return -1;
    return 0;
}

void builds_as_host(const struct clk_env *env, const char *path)
{
    char *log = NULL;
    cl_program program = clk_build_program(env->context, env->info.device, path, "", &log);
    if (program)
        clReleaseProgram(program);
    free(log); /* the host program says why, if it builds it */
}

void builds_release(struct built *b)
{
    for (int i = 0; i < b->count; i++) {
        for (int k = 0; k < GRADE_MAX_KERNELS; k++)
            if (b->kernels[i][k])
                clReleaseKernel(b->kernels[i][k]);
        if (b->programs[i])
            clReleaseProgram(b->programs[i]);
    }
}

size_t builds_max_local(const struct clk_env *env, const struct built *b)
{
    size_t limit = 1024;
    for (int i = 0; i < b->count; i++)
        for (int k = 0; k < GRADE_MAX_KERNELS && b->kernels[i][k]; k++) {
            size_t size = limit;
            clGetKernelWorkGroupInfo(b->kernels[i][k], env->info.device, CL_KERNEL_WORK_GROUP_SIZE, sizeof size,
                                     &size, NULL);
            if (size < limit)
                limit = size;
        }
    return limit;
}

const cl_kernel *builds_kernels(const struct built *b, int tile)
{
    for (int i = 0; i < b->count; i++)
        if (b->tiles[i] == tile)
            return b->kernels[i];
    return b->kernels[0];
}
