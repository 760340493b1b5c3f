/* Error names for OpenCL status codes and the one checking macro for OpenCL calls. */
#ifndef CLKIT_CLERR_H
#define CLKIT_CLERR_H

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

/* Returns the CL_* name of an OpenCL status code, or "CL_UNKNOWN_ERROR". */
const char *clk_error_name(cl_int status);

/* Returns what a common status usually means in these labs and what to check, or "" when there is no hint. */
const char *clk_error_hint(cl_int status);

/* Prints "error: CALL failed: CL_NAME (file:line)" and the status's hint to stderr. */
void clk_report_cl_error(cl_int status, const char *call, const char *file, int line);

/* Checks an OpenCL status; on failure prints it with the call and file:line and jumps to cleanup. */
#define CL_CHECK(call)                      \
    do {                                    \
        cl_int clk_status_;                 \
        CL_CHECK_STATUS(clk_status_, call); \
    } while (0)

/* CL_CHECK for a function that hands the failing status back: the call's status is also stored in status. */
#define CL_CHECK_STATUS(status, call)                                 \
    do {                                                              \
        (status) = (call);                                            \
        if ((status) != CL_SUCCESS) {                                 \
            clk_report_cl_error((status), #call, __FILE__, __LINE__); \
            goto cleanup;                                             \
        }                                                             \
    } while (0)

/* Passes on the status of a helper that has already reported its own failure (with CL_CHECK_STATUS): jumps to
   cleanup with it, without reporting it again. */
#define CL_PASS(status, call)                  \
    do {                                       \
        if (((status) = (call)) != CL_SUCCESS) \
            goto cleanup;                      \
    } while (0)

#endif
