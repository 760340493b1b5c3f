/* The ledger's wrappers (ledger.h): linked into a host program only by -Wl,--wrap, so that a lab built without it
   pulls nothing of this file in. Single-threaded, as the labs' host programs are. */
#include "ledger.h"

#include "clerr.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LEDGER_OBJECTS 4096
#define LEDGER_LAUNCHES 64

enum ledger_kind { KIND_CONTEXT, KIND_QUEUE, KIND_PROGRAM, KIND_KERNEL, KIND_BUFFER, KIND_EVENT, KIND_COUNT };

static const char *const kind_names[KIND_COUNT] = {
    [KIND_CONTEXT] = "context", [KIND_QUEUE] = "queue",   [KIND_PROGRAM] = "program",
    [KIND_KERNEL] = "kernel",   [KIND_BUFFER] = "buffer", [KIND_EVENT] = "event",
};

/* One object the program holds: its handle, kind, the references it owns, and (programs, kernels) its WPT. */
struct ledger_object {
    const void *handle;
    enum ledger_kind kind;
    int references;
    int wpt;
};

static struct ledger_object objects[LEDGER_OBJECTS];
static size_t object_count, launches;
static int overflowed, started;

/* Appends one line to the ledger's file, when there is one. */
static void ledger_line(const char *format, ...)
{
    const char *path = getenv(CLK_LEDGER_ENV);
    va_list args;
    FILE *file;
    if (!path || !*path || !(file = fopen(path, "a")))
        return;
    va_start(args, format);
    vfprintf(file, format, args);
    va_end(args);
    fputc('\n', file);
    fclose(file);
}

/* At exit: the objects still held, by kind, and the end (its absence: the program did not exit normally). */
static void ledger_at_exit(void)
{
    int live[KIND_COUNT] = {0};
    for (size_t i = 0; i < object_count; i++)
        if (objects[i].references > 0)
            live[objects[i].kind]++;
    for (int k = 0; k < KIND_COUNT && !overflowed; k++)
        if (live[k] > 0)
            ledger_line("live %s %d", kind_names[k], live[k]);
    ledger_line("end");
}

/* Arranges the last lines at the first OpenCL object. */
static void ledger_start(void)
{
    if (started)
        return;
    started = 1;
    atexit(ledger_at_exit);
}

static struct ledger_object *find(const void *handle)
{
    for (size_t i = object_count; handle && i > 0; i--)
        if (objects[i - 1].handle == handle)
            return &objects[i - 1];
    return NULL;
}

/* A free slot for a new object: past the last, else one whose references are all released. */
static struct ledger_object *free_slot(void)
{
    if (object_count < LEDGER_OBJECTS)
        return &objects[object_count++];
    for (size_t i = 0; i < object_count; i++)
        if (objects[i].references <= 0)
            return &objects[i];
    return NULL;
}

/* Notes a new object (a handle the implementation may reuse once released: the newest entry counts). */
static void created(const void *handle, enum ledger_kind kind, int wpt)
{
    struct ledger_object *slot = find(handle);
    if (!handle)
        return;
    ledger_start();
    if (!slot || slot->references > 0)
        slot = free_slot();
    if (!slot) {
        overflowed = 1; /* too many held at once to count: the ledger says nothing of leaks */
        return;
    }
    *slot = (struct ledger_object){.handle = handle, .kind = kind, .references = 1, .wpt = wpt};
}

static void referenced(const void *handle, int change, cl_int status)
{
    struct ledger_object *object = find(handle);
    if (object && status == CL_SUCCESS && object->references > 0)
        object->references += change;
}

/* The WPT a build's options give (-DWPT=n), 1 without. */
static int wpt_of(const char *options)
{
    const char *at = options ? strstr(options, "-DWPT=") : NULL;
    int wpt = at ? atoi(at + strlen("-DWPT=")) : 1;
    return wpt > 0 ? wpt : 1;
}

#define REAL(name) __real_##name
#define WRAP(name) __wrap_##name
/* Declares the real call and its wrapper with the same signature. */
#define LEDGER_DECLARE(type, name, params) \
    type REAL(name) params;                \
    type WRAP(name) params;

LEDGER_DECLARE(cl_context, clCreateContext, (const cl_context_properties *properties, cl_uint count,
               const cl_device_id *devices, void(CL_CALLBACK *notify)(const char *, const void *, size_t, void *),
               void *user, cl_int *status))
LEDGER_DECLARE(cl_context, clCreateContextFromType, (const cl_context_properties *properties, cl_device_type type,
               void(CL_CALLBACK *notify)(const char *, const void *, size_t, void *), void *user, cl_int *status))
LEDGER_DECLARE(cl_command_queue, clCreateCommandQueue, (cl_context context, cl_device_id device,
               cl_command_queue_properties properties, cl_int *status))
LEDGER_DECLARE(cl_program, clCreateProgramWithSource, (cl_context context, cl_uint count, const char **strings,
               const size_t *lengths, cl_int *status))
LEDGER_DECLARE(cl_program, clCreateProgramWithBinary, (cl_context context, cl_uint count, const cl_device_id *devices,
               const size_t *lengths, const unsigned char **binaries, cl_int *binary_status, cl_int *status))
LEDGER_DECLARE(cl_int, clBuildProgram, (cl_program program, cl_uint count, const cl_device_id *devices,
               const char *options, void(CL_CALLBACK *notify)(cl_program, void *), void *user))
LEDGER_DECLARE(cl_kernel, clCreateKernel, (cl_program program, const char *name, cl_int *status))
LEDGER_DECLARE(cl_mem, clCreateBuffer, (cl_context context, cl_mem_flags flags, size_t size, void *host,
               cl_int *status))
LEDGER_DECLARE(cl_int, clEnqueueNDRangeKernel, (cl_command_queue queue, cl_kernel kernel, cl_uint dims,
               const size_t *offset, const size_t *global, const size_t *local, cl_uint wait_count,
               const cl_event *wait_list, cl_event *event))
LEDGER_DECLARE(cl_int, clEnqueueReadBuffer, (cl_command_queue queue, cl_mem buffer, cl_bool blocking, size_t offset,
               size_t size, void *host, cl_uint wait_count, const cl_event *wait_list, cl_event *event))
LEDGER_DECLARE(cl_int, clEnqueueWriteBuffer, (cl_command_queue queue, cl_mem buffer, cl_bool blocking, size_t offset,
               size_t size, const void *host, cl_uint wait_count, const cl_event *wait_list, cl_event *event))
LEDGER_DECLARE(cl_int, clGetEventProfilingInfo, (cl_event event, cl_profiling_info name, size_t size, void *value,
               size_t *returned))

/* The retain and release calls of each kind: one pair of wrappers each. */
#define LEDGER_REFERENCES(type, retain, release)                   \
    cl_int REAL(retain)(type object);                             \
    cl_int REAL(release)(type object);                            \
    cl_int WRAP(retain)(type object);                             \
    cl_int WRAP(release)(type object);                            \
    cl_int WRAP(retain)(type object)                              \
    {                                                             \
        cl_int status = REAL(retain)(object);                     \
        referenced(object, 1, status);                            \
        return status;                                            \
    }                                                             \
    cl_int WRAP(release)(type object)                             \
    {                                                             \
        cl_int status = REAL(release)(object);                    \
        referenced(object, -1, status);                           \
        return status;                                            \
    }

LEDGER_REFERENCES(cl_context, clRetainContext, clReleaseContext)
LEDGER_REFERENCES(cl_command_queue, clRetainCommandQueue, clReleaseCommandQueue)
LEDGER_REFERENCES(cl_program, clRetainProgram, clReleaseProgram)
LEDGER_REFERENCES(cl_kernel, clRetainKernel, clReleaseKernel)
LEDGER_REFERENCES(cl_mem, clRetainMemObject, clReleaseMemObject)
LEDGER_REFERENCES(cl_event, clRetainEvent, clReleaseEvent)

cl_context WRAP(clCreateContext)(const cl_context_properties *properties, cl_uint count, const cl_device_id *devices,
                                 void(CL_CALLBACK *notify)(const char *, const void *, size_t, void *), void *user,
                                 cl_int *status)
{
    cl_context context = REAL(clCreateContext)(properties, count, devices, notify, user, status);
    created(context, KIND_CONTEXT, 1);
    return context;
}

cl_context WRAP(clCreateContextFromType)(const cl_context_properties *properties, cl_device_type type,
                                         void(CL_CALLBACK *notify)(const char *, const void *, size_t, void *),
                                         void *user, cl_int *status)
{
    cl_context context = REAL(clCreateContextFromType)(properties, type, notify, user, status);
    created(context, KIND_CONTEXT, 1);
    return context;
}

cl_command_queue WRAP(clCreateCommandQueue)(cl_context context, cl_device_id device,
                                            cl_command_queue_properties properties, cl_int *status)
{
    cl_command_queue queue = REAL(clCreateCommandQueue)(context, device, properties, status);
    cl_platform_id platform = NULL;
    char name[128] = "";
    if (!queue)
        return queue;
    created(queue, KIND_QUEUE, 1);
    /* The platform says which device ran it: "Oclgrind" under the reference judge. */
    if (clGetDeviceInfo(device, CL_DEVICE_PLATFORM, sizeof platform, &platform, NULL) == CL_SUCCESS)
        clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof name - 1, name, NULL);
    for (char *c = name; *c; c++)
        if (*c == '\n' || *c == '\r')
            *c = ' ';
    ledger_line("queue %d %s", (properties & CL_QUEUE_PROFILING_ENABLE) ? 1 : 0, name);
    return queue;
}

cl_program WRAP(clCreateProgramWithSource)(cl_context context, cl_uint count, const char **strings,
                                           const size_t *lengths, cl_int *status)
{
    cl_program program = REAL(clCreateProgramWithSource)(context, count, strings, lengths, status);
    created(program, KIND_PROGRAM, 1);
    return program;
}

cl_program WRAP(clCreateProgramWithBinary)(cl_context context, cl_uint count, const cl_device_id *devices,
                                           const size_t *lengths, const unsigned char **binaries,
                                           cl_int *binary_status, cl_int *status)
{
    cl_program program = REAL(clCreateProgramWithBinary)(context, count, devices, lengths, binaries, binary_status,
                                                         status);
    created(program, KIND_PROGRAM, 1);
    return program;
}

cl_int WRAP(clBuildProgram)(cl_program program, cl_uint count, const cl_device_id *devices, const char *options,
                            void(CL_CALLBACK *notify)(cl_program, void *), void *user)
{
    struct ledger_object *object = find(program);
    if (object)
        object->wpt = wpt_of(options);
    return REAL(clBuildProgram)(program, count, devices, options, notify, user);
}

cl_kernel WRAP(clCreateKernel)(cl_program program, const char *name, cl_int *status)
{
    struct ledger_object *from = find(program);
    cl_kernel kernel = REAL(clCreateKernel)(program, name, status);
    created(kernel, KIND_KERNEL, from ? from->wpt : 1);
    return kernel;
}

cl_mem WRAP(clCreateBuffer)(cl_context context, cl_mem_flags flags, size_t size, void *host, cl_int *status)
{
    cl_mem buffer = REAL(clCreateBuffer)(context, flags, size, host, status);
    created(buffer, KIND_BUFFER, 1);
    return buffer;
}

cl_int WRAP(clEnqueueNDRangeKernel)(cl_command_queue queue, cl_kernel kernel, cl_uint dims, const size_t *offset,
                                    const size_t *global, const size_t *local, cl_uint wait_count,
                                    const cl_event *wait_list, cl_event *event)
{
    cl_int status = REAL(clEnqueueNDRangeKernel)(queue, kernel, dims, offset, global, local, wait_count, wait_list,
                                                 event);
    struct ledger_object *object = find(kernel);
    if (status == CL_SUCCESS && global && launches++ < LEDGER_LAUNCHES)
        ledger_line("launch %u %zu %zu %zu %zu %d", dims, global[0], dims > 1 ? global[1] : 1,
                    local ? local[0] : 0, local && dims > 1 ? local[1] : 0, object ? object->wpt : 1);
    if (status == CL_SUCCESS && event)
        created(*event, KIND_EVENT, 1);
    return status;
}

cl_int WRAP(clEnqueueReadBuffer)(cl_command_queue queue, cl_mem buffer, cl_bool blocking, size_t offset, size_t size,
                                 void *host, cl_uint wait_count, const cl_event *wait_list, cl_event *event)
{
    cl_int status = REAL(clEnqueueReadBuffer)(queue, buffer, blocking, offset, size, host, wait_count, wait_list,
                                              event);
    if (status == CL_SUCCESS && event)
        created(*event, KIND_EVENT, 1);
    return status;
}

cl_int WRAP(clEnqueueWriteBuffer)(cl_command_queue queue, cl_mem buffer, cl_bool blocking, size_t offset,
                                  size_t size, const void *host, cl_uint wait_count, const cl_event *wait_list,
                                  cl_event *event)
{
    cl_int status = REAL(clEnqueueWriteBuffer)(queue, buffer, blocking, offset, size, host, wait_count, wait_list,
                                               event);
    if (status == CL_SUCCESS && event)
        created(*event, KIND_EVENT, 1);
    return status;
}

cl_int WRAP(clGetEventProfilingInfo)(cl_event event, cl_profiling_info name, size_t size, void *value,
                                     size_t *returned)
{
    static int said;
    cl_int status = REAL(clGetEventProfilingInfo)(event, name, size, value, returned);
    if (status == CL_PROFILING_INFO_NOT_AVAILABLE && !said)
        said = 1, ledger_line("no-profiling");
    return status;
}
