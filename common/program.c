#include "program.h"

#include "files.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Prefixing '#line 1 "path"' makes the compiler's messages name the student's file and lines. */
static char *with_line_directive(const char *path, const char *source)
{
    size_t size = strlen(path) + strlen(source) + 32;
    char *text = malloc(size);
    if (text)
        snprintf(text, size, "#line 1 \"%s\"\n%s", path, source);
    return text;
}

char *clk_build_log(cl_program program, cl_device_id device)
{
    size_t size = 0;
    char *log;
    if (clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, NULL, &size) != CL_SUCCESS)
        size = 0;
    log = calloc(size + 1, 1);
    if (log && size > 0)
        clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, log, NULL);
    return log;
}

static void hand_over_log(char *text, char **log)
{
    if (log)
        *log = text;
    else {
        fprintf(stderr, "%s\n", text ? text : "");
        free(text);
    }
}

cl_program clk_build_program(cl_context context, cl_device_id device, const char *path,
                             const char *options, char **log)
{
    char *source = NULL, *text = NULL;
    cl_program program = NULL;
    cl_int status = CL_SUCCESS;
    char message[1024];
    if (log)
        *log = NULL;
    source = clk_read_text(path, NULL);
    text = source ? with_line_directive(path, source) : NULL;
    if (!text) {
        snprintf(message, sizeof message, "cannot read %s", path);
        hand_over_log(strdup(message), log);
        goto cleanup;
    }
    program = clCreateProgramWithSource(context, 1, (const char **)&text, NULL, &status);
    if (status == CL_SUCCESS)
        status = clBuildProgram(program, 1, &device, options, NULL, NULL);
    if (status != CL_SUCCESS) {
        char *build_log = program ? clk_build_log(program, device) : NULL;
        size_t size = (build_log ? strlen(build_log) : 0) + 512;
        char *full = malloc(size);
        if (full)
            snprintf(full, size, "cannot build %s: %s\n%s", path, clk_error_name(status),
                     build_log ? build_log : "");
        free(build_log);
        hand_over_log(full, log);
        if (program)
            clReleaseProgram(program);
        program = NULL;
    }
cleanup:
    free(source);
    free(text);
    return program;
}

char *clk_kernel_names(cl_program program)
{
    size_t size = 0;
    char *names;
    if (clGetProgramInfo(program, CL_PROGRAM_KERNEL_NAMES, 0, NULL, &size) != CL_SUCCESS)
        return NULL;
    names = calloc(size + 1, 1);
    if (names && clGetProgramInfo(program, CL_PROGRAM_KERNEL_NAMES, size, names, NULL) != CL_SUCCESS) {
        free(names);
        return NULL;
    }
    return names;
}

cl_kernel clk_create_kernel(cl_program program, const char *name, const char *path)
{
    cl_int status = CL_SUCCESS;
    cl_kernel kernel = clCreateKernel(program, name, &status);
    if (status != CL_SUCCESS) {
        char *names = clk_kernel_names(program);
        fprintf(stderr, "error: %s has no kernel named '%s' (%s); kernels found: %s\n", path, name,
                clk_error_name(status), names && names[0] ? names : "none");
        free(names);
        return NULL;
    }
    return kernel;
}
