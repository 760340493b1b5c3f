#include "clerr.h"

#include <stdio.h>

#define NAME(code) case code: return #code

const char *clk_error_name(cl_int status)
{
    switch (status) {
    NAME(CL_SUCCESS);
    NAME(CL_DEVICE_NOT_FOUND);
    NAME(CL_DEVICE_NOT_AVAILABLE);
    NAME(CL_COMPILER_NOT_AVAILABLE);
    NAME(CL_MEM_OBJECT_ALLOCATION_FAILURE);
    NAME(CL_OUT_OF_RESOURCES);
    NAME(CL_OUT_OF_HOST_MEMORY);
    NAME(CL_PROFILING_INFO_NOT_AVAILABLE);
    NAME(CL_MEM_COPY_OVERLAP);
    NAME(CL_IMAGE_FORMAT_MISMATCH);
    NAME(CL_IMAGE_FORMAT_NOT_SUPPORTED);
    NAME(CL_BUILD_PROGRAM_FAILURE);
    NAME(CL_MAP_FAILURE);
    NAME(CL_MISALIGNED_SUB_BUFFER_OFFSET);
    NAME(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    NAME(CL_COMPILE_PROGRAM_FAILURE);
    NAME(CL_LINKER_NOT_AVAILABLE);
    NAME(CL_LINK_PROGRAM_FAILURE);
    NAME(CL_DEVICE_PARTITION_FAILED);
    NAME(CL_KERNEL_ARG_INFO_NOT_AVAILABLE);
    NAME(CL_INVALID_VALUE);
    NAME(CL_INVALID_DEVICE_TYPE);
    NAME(CL_INVALID_PLATFORM);
    NAME(CL_INVALID_DEVICE);
    NAME(CL_INVALID_CONTEXT);
    NAME(CL_INVALID_QUEUE_PROPERTIES);
    NAME(CL_INVALID_COMMAND_QUEUE);
    NAME(CL_INVALID_HOST_PTR);
    NAME(CL_INVALID_MEM_OBJECT);
    NAME(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    NAME(CL_INVALID_IMAGE_SIZE);
    NAME(CL_INVALID_SAMPLER);
    NAME(CL_INVALID_BINARY);
    NAME(CL_INVALID_BUILD_OPTIONS);
    NAME(CL_INVALID_PROGRAM);
    NAME(CL_INVALID_PROGRAM_EXECUTABLE);
    NAME(CL_INVALID_KERNEL_NAME);
    NAME(CL_INVALID_KERNEL_DEFINITION);
    NAME(CL_INVALID_KERNEL);
    NAME(CL_INVALID_ARG_INDEX);
    NAME(CL_INVALID_ARG_VALUE);
    NAME(CL_INVALID_ARG_SIZE);
    NAME(CL_INVALID_KERNEL_ARGS);
    NAME(CL_INVALID_WORK_DIMENSION);
    NAME(CL_INVALID_WORK_GROUP_SIZE);
    NAME(CL_INVALID_WORK_ITEM_SIZE);
    NAME(CL_INVALID_GLOBAL_OFFSET);
    NAME(CL_INVALID_EVENT_WAIT_LIST);
    NAME(CL_INVALID_EVENT);
    NAME(CL_INVALID_OPERATION);
    NAME(CL_INVALID_GL_OBJECT);
    NAME(CL_INVALID_BUFFER_SIZE);
    NAME(CL_INVALID_MIP_LEVEL);
    NAME(CL_INVALID_GLOBAL_WORK_SIZE);
    NAME(CL_INVALID_PROPERTY);
    NAME(CL_INVALID_IMAGE_DESCRIPTOR);
    NAME(CL_INVALID_COMPILER_OPTIONS);
    NAME(CL_INVALID_LINKER_OPTIONS);
    NAME(CL_INVALID_DEVICE_PARTITION_COUNT);
    /* -1001 is returned by the ICD loader when no platform is registered. */
    case -1001: return "CL_PLATFORM_NOT_FOUND_KHR";
    default: return "CL_UNKNOWN_ERROR";
    }
}

/* What the usual causes are, in the labs' terms. */
static const struct {
    cl_int status;
    const char *hint;
} hints[] = {
    {CL_INVALID_WORK_GROUP_SIZE, "the global size must be a multiple of the local size in each dimension (round "
                                 "it up and let the kernel skip the extra work-items), and the local size must not "
                                 "exceed CL_KERNEL_WORK_GROUP_SIZE"},
    {CL_INVALID_GLOBAL_WORK_SIZE, "a global size of 0, or larger than the device allows"},
    {CL_INVALID_WORK_ITEM_SIZE, "a local size larger than CL_DEVICE_MAX_WORK_ITEM_SIZES in one dimension"},
    {CL_INVALID_KERNEL_ARGS, "a kernel argument was never set: call clSetKernelArg for every argument"},
    {CL_INVALID_ARG_SIZE, "the size given to clSetKernelArg does not match the argument: sizeof(cl_mem) for a "
                          "buffer, sizeof(int) for an int, the byte count (and NULL) for a __local array"},
    {CL_INVALID_ARG_INDEX, "an argument index past the kernel's last argument (they count from 0)"},
    {CL_INVALID_ARG_VALUE, "a __local argument takes NULL as its value; a buffer argument takes &buffer"},
    {CL_INVALID_MEM_OBJECT, "a buffer argument that is not a buffer (released, or never created)"},
    {CL_INVALID_BUFFER_SIZE, "a buffer of 0 bytes, or larger than CL_DEVICE_MAX_MEM_ALLOC_SIZE"},
    {CL_INVALID_VALUE, "a read or write past the end of a buffer, or a NULL pointer where data is needed"},
    {CL_OUT_OF_RESOURCES, "the kernel read or wrote out of bounds, or asked for more local memory or registers "
                          "than the device has"},
    {CL_MEM_OBJECT_ALLOCATION_FAILURE, "the buffers do not fit in the device's memory"},
    {CL_INVALID_KERNEL_NAME, "no kernel of that name in the program: check the spelling against the lab"},
    {CL_BUILD_PROGRAM_FAILURE, "the kernel does not compile: the build log above says where"},
    {CL_PROFILING_INFO_NOT_AVAILABLE, "create the queue with CL_QUEUE_PROFILING_ENABLE to read event times"},
    {CL_INVALID_COMMAND_QUEUE, "the queue was released or never created"},
};

const char *clk_error_hint(cl_int status)
{
    for (size_t i = 0; i < sizeof hints / sizeof hints[0]; i++)
        if (hints[i].status == status)
            return hints[i].hint;
    return "";
}

void clk_report_cl_error(cl_int status, const char *call, const char *file, int line)
{
    const char *hint = clk_error_hint(status);
    fprintf(stderr, "error: %s failed: %s (%d) at %s:%d\n%s%s%s", call, clk_error_name(status), (int)status, file,
            line, hint[0] ? "hint: " : "", hint, hint[0] ? "\n" : "");
}
