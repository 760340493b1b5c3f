/* Program build: read a .cl file, build it with its file name in compiler messages, and report the log. */
#ifndef CLKIT_PROGRAM_H
#define CLKIT_PROGRAM_H

#include "clerr.h"

/* Builds the .cl file at path; on failure stores the log in *log (caller frees) or prints it when log is NULL, and returns NULL. */
cl_program clk_build_program(cl_context context, cl_device_id device, const char *path,
                             const char *options, char **log);

/* Returns the build log of program on device as a string that the caller frees. */
char *clk_build_log(cl_program program, cl_device_id device);

/* Returns the program's kernel names separated by ";" (caller frees), or NULL. */
char *clk_kernel_names(cl_program program);

/* Creates kernel name from program, printing an error that lists the kernels found when it is missing. */
cl_kernel clk_create_kernel(cl_program program, const char *name, const char *path);

#endif
