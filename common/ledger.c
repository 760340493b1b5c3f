/* The ledger's wrappers (ledger.h): linked into a host program only by -Wl,--wrap, so that a lab built without it
   pulls nothing of this file in. The labs' host programs are single-threaded, but an event's callback runs on the
   implementation's thread: the tables and the file are kept under one lock. */
#include "ledger.h"

#include "clerr.h"
#include "ledgertag.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LEDGER_OBJECTS 4096
#define LEDGER_LAUNCHES 64
#define LEDGER_ARGS 16       /* a kernel's arguments followed for buffers */
#define LEDGER_WAITS 64      /* a wait list's events written out; a longer one is written as unknown */

enum ledger_kind { KIND_CONTEXT, KIND_QUEUE, KIND_PROGRAM, KIND_KERNEL, KIND_BUFFER, KIND_EVENT, KIND_COUNT };

static const char *const kind_names[KIND_COUNT] = {
    [KIND_CONTEXT] = "context", [KIND_QUEUE] = "queue",   [KIND_PROGRAM] = "program",
    [KIND_KERNEL] = "kernel",   [KIND_BUFFER] = "buffer", [KIND_EVENT] = "event",
};

/* One object the program holds: its handle, kind, the references it owns, (programs, kernels) its WPT, and the
   number the ledger's lines call it by; a kernel's buffer arguments by number. */
struct ledger_object {
    const void *handle;
    enum ledger_kind kind;
    int references;
    int wpt;
    long id;
    long args[LEDGER_ARGS];
};

static struct ledger_object objects[LEDGER_OBJECTS];
static size_t object_count, launches, commands, wait_lines, object_lines;
static int overflowed, started;
static long next_id = 1;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

/* Where the lines go and the key that seals them, taken before main runs (ledger_setup). */
static char ledger_path[4096];
static uint64_t ledger_key[2];
static int keyed;
static unsigned long ledger_seq;

/* Before main: the file, and the key from the file beside it, which is then deleted: the program's own code never
   sees it (the host rules refuse code that runs before main). */
__attribute__((constructor)) static void ledger_setup(void)
{
    const char *path = getenv(CLK_LEDGER_ENV);
    char key_path[sizeof ledger_path + 8], key[40] = "";
    FILE *file;
    if (!path || strlen(path) >= sizeof ledger_path)
        return;
    snprintf(ledger_path, sizeof ledger_path, "%s", path);
    snprintf(key_path, sizeof key_path, "%s%s", path, CLK_LEDGER_KEY_SUFFIX);
    if (!(file = fopen(key_path, "r")))
        return;
    keyed = fgets(key, sizeof key, file) && clk_ledger_key_parse(strtok(key, "\n"), ledger_key) == 0;
    fclose(file);
    remove(key_path);
    memset(key, 0, sizeof key);
}

/* Appends one line to the ledger's file, when there is one; with a key, as "seq tag text". */
static void ledger_line(const char *format, ...)
{
    char text[CLK_LEDGER_LINE_MAX + 1];
    va_list args;
    FILE *file;
    if (!ledger_path[0])
        return;
    va_start(args, format);
    vsnprintf(text, sizeof text, format, args);
    va_end(args);
    pthread_mutex_lock(&lock);
    if ((file = fopen(ledger_path, "a"))) {
        if (keyed)
            fprintf(file, "%lu %016llx ", ledger_seq, (unsigned long long)clk_ledger_tag(ledger_key, ledger_seq, text));
        fprintf(file, "%s\n", text);
        ledger_seq++;
        fclose(file);
    }
    pthread_mutex_unlock(&lock);
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

/* The number of a handle's newest object, 0 for NULL, -1 for a handle the ledger never saw. */
static long id_of(const void *handle)
{
    struct ledger_object *object = find(handle);
    return !handle ? 0 : object ? object->id : -1;
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

/* Notes a new object (a handle the implementation may reuse once released: the newest entry counts); returns its
   number, 0 when none. */
static long created(const void *handle, enum ledger_kind kind, int wpt)
{
    struct ledger_object *slot;
    long id;
    if (!handle)
        return 0;
    pthread_mutex_lock(&lock);
    slot = find(handle);
    ledger_start();
    if (!slot || slot->references > 0)
        slot = free_slot();
    id = next_id++;
    if (!slot)
        overflowed = 1; /* too many held at once to count: the ledger says nothing of leaks */
    else
        *slot = (struct ledger_object){.handle = handle, .kind = kind, .references = 1, .wpt = wpt, .id = id};
    pthread_mutex_unlock(&lock);
    return id;
}

static void referenced(const void *handle, int change, cl_int status)
{
    struct ledger_object *object;
    pthread_mutex_lock(&lock);
    object = find(handle);
    if (object && status == CL_SUCCESS && object->references > 0)
        object->references += change;
    pthread_mutex_unlock(&lock);
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

static int object_fits(void);

/* Notes a new queue: its platform ("Oclgrind" under the reference judge), its number, whether it runs commands out
   of order and whether it profiles. */
static void queue_created(cl_command_queue queue, cl_device_id device, cl_command_queue_properties properties)
{
    cl_platform_id platform = NULL;
    char name[128] = "";
    long id;
    if (!queue)
        return;
    id = created(queue, KIND_QUEUE, 1);
    if (clGetDeviceInfo(device, CL_DEVICE_PLATFORM, sizeof platform, &platform, NULL) == CL_SUCCESS)
        clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof name - 1, name, NULL);
    for (char *c = name; *c; c++)
        if (*c == '\n' || *c == '\r')
            *c = ' ';
    if (!object_fits())
        return;
    ledger_line("queue %d %s", (properties & CL_QUEUE_PROFILING_ENABLE) ? 1 : 0, name);
    ledger_line("qid %ld %d", id, (properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) ? 1 : 0);
}

cl_command_queue WRAP(clCreateCommandQueue)(cl_context context, cl_device_id device,
                                            cl_command_queue_properties properties, cl_int *status)
{
    cl_command_queue queue = REAL(clCreateCommandQueue)(context, device, properties, status);
    queue_created(queue, device, properties);
    return queue;
}

/* OpenCL 2.0's queue call, which the kit's 1.2 headers do not declare: its properties are (name, value) pairs. */
LEDGER_DECLARE(cl_command_queue, clCreateCommandQueueWithProperties, (cl_context context, cl_device_id device,
               const cl_ulong *properties, cl_int *status))
cl_command_queue WRAP(clCreateCommandQueueWithProperties)(cl_context context, cl_device_id device,
                                                          const cl_ulong *properties, cl_int *status)
{
    cl_command_queue queue = REAL(clCreateCommandQueueWithProperties)(context, device, properties, status);
    cl_command_queue_properties flags = 0;
    for (const cl_ulong *p = properties; p && p[0]; p += 2)
        if (p[0] == CL_QUEUE_PROPERTIES)
            flags = (cl_command_queue_properties)p[1];
    queue_created(queue, device, flags);
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

/* Notes a buffer and writes its line: number, bytes, read-only to kernels (2: as its parent), parent and origin. */
static void buffer_created(cl_mem buffer, cl_mem_flags flags, size_t size, cl_mem parent, size_t origin)
{
    long id = created(buffer, KIND_BUFFER, 1);
    int read_only = (flags & CL_MEM_READ_ONLY) ? 1 : (flags & (CL_MEM_WRITE_ONLY | CL_MEM_READ_WRITE)) ? 0 : 2;
    if (id > 0 && object_fits())
        ledger_line("buffer %ld %zu %d %ld %zu", id, size, parent ? read_only : read_only == 1, id_of(parent),
                    origin);
}

cl_mem WRAP(clCreateBuffer)(cl_context context, cl_mem_flags flags, size_t size, void *host, cl_int *status)
{
    cl_mem buffer = REAL(clCreateBuffer)(context, flags, size, host, status);
    buffer_created(buffer, flags, size, NULL, 0);
    return buffer;
}

LEDGER_DECLARE(cl_mem, clCreateSubBuffer, (cl_mem buffer, cl_mem_flags flags, cl_buffer_create_type type,
               const void *info, cl_int *status))
cl_mem WRAP(clCreateSubBuffer)(cl_mem buffer, cl_mem_flags flags, cl_buffer_create_type type, const void *info,
                               cl_int *status)
{
    cl_mem sub = REAL(clCreateSubBuffer)(buffer, flags, type, info, status);
    const cl_buffer_region *region = info;
    if (sub && type == CL_BUFFER_CREATE_TYPE_REGION && region)
        buffer_created(sub, flags, region->size, buffer, region->origin);
    return sub;
}

LEDGER_DECLARE(cl_int, clSetKernelArg, (cl_kernel kernel, cl_uint index, size_t size, const void *value))
cl_int WRAP(clSetKernelArg)(cl_kernel kernel, cl_uint index, size_t size, const void *value)
{
    cl_int status = REAL(clSetKernelArg)(kernel, index, size, value);
    struct ledger_object *object, *buffer;
    pthread_mutex_lock(&lock);
    object = find(kernel);
    if (status == CL_SUCCESS && object && index < LEDGER_ARGS) {
        buffer = size == sizeof(cl_mem) && value ? find(*(const cl_mem *)value) : NULL;
        object->args[index] = buffer && buffer->kind == KIND_BUFFER ? buffer->id : 0;
    }
    pthread_mutex_unlock(&lock);
    return status;
}

/* " wait=3,4": the numbers of a wait list's events, "?" for one the ledger never saw (or too many to write). */
static void wait_text(cl_uint count, const cl_event *list, char *text, size_t size)
{
    size_t used = 0;
    text[0] = '\0';
    if (count == 0 || !list)
        return;
    used = (size_t)snprintf(text, size, " wait=");
    for (cl_uint i = 0; i < count && used < size; i++) {
        long id = id_of(list[i]);
        if (id <= 0 || i >= LEDGER_WAITS)
            used += (size_t)snprintf(text + used, size - used, "%s?", i ? "," : "");
        else
            used += (size_t)snprintf(text + used, size - used, "%s%ld", i ? "," : "", id);
        if (id <= 0 || i >= LEDGER_WAITS)
            return;
    }
}

/* Whether another line of an object (queue, buffer, user event) fits; one object-overflow line says when not. */
static int object_fits(void)
{
    if (object_lines++ < CLK_LEDGER_OBJECT_LINES)
        return 1;
    if (object_lines == CLK_LEDGER_OBJECT_LINES + 1)
        ledger_line("object-overflow");
    return 0;
}

/* Whether another host-wait line fits in the ledger (the file the judge reads is bounded); one wait-overflow line
   says when they no longer do. */
static int wait_fits(void)
{
    if (wait_lines++ < CLK_LEDGER_WAITS)
        return 1;
    if (wait_lines == CLK_LEDGER_WAITS + 1)
        ledger_line("wait-overflow");
    return 0;
}

/* One command's line: its type, queue, blocking, the event it returned, what it touches, and its wait list. */
static void command_line(const char *type, cl_command_queue queue, int blocking, long event, const char *what,
                         cl_uint wait_count, const cl_event *wait_list)
{
    char waits[LEDGER_WAITS * 8 + 16];
    if (commands++ >= CLK_LEDGER_COMMANDS) {
        if (commands == CLK_LEDGER_COMMANDS + 1)
            ledger_line("cmd-overflow");
        return;
    }
    wait_text(wait_count, wait_list, waits, sizeof waits);
    ledger_line("cmd %s q=%ld ev=%ld blk=%d%s%s", type, id_of(queue), event, blocking ? 1 : 0, what, waits);
}

/* The event a command returned, noted; its number, 0 when none. */
static long event_of(cl_int status, const cl_event *event)
{
    return status == CL_SUCCESS && event ? created(*event, KIND_EVENT, 1) : 0;
}

cl_int WRAP(clEnqueueNDRangeKernel)(cl_command_queue queue, cl_kernel kernel, cl_uint dims, const size_t *offset,
                                    const size_t *global, const size_t *local, cl_uint wait_count,
                                    const cl_event *wait_list, cl_event *event)
{
    cl_int status = REAL(clEnqueueNDRangeKernel)(queue, kernel, dims, offset, global, local, wait_count, wait_list,
                                                 event);
    struct ledger_object *object = find(kernel);
    char what[LEDGER_ARGS * 12 + 64];
    int moved = 0;
    long id;
    if (status == CL_SUCCESS && global && launches++ < LEDGER_LAUNCHES)
        ledger_line("launch %u %zu %zu %zu %zu %d", dims, global[0], dims > 1 ? global[1] : 1,
                    local ? local[0] : 0, local && dims > 1 ? local[1] : 0, object ? object->wpt : 1);
    id = event_of(status, event);
    if (status != CL_SUCCESS)
        return status;
    for (cl_uint d = 0; offset && d < dims; d++)
        moved |= offset[d] != 0;
    snprintf(what, sizeof what, " k=%ld goff=%d bufs=", object ? object->id : -1, moved);
    for (int a = 0; object && a < LEDGER_ARGS; a++)
        if (object->args[a] > 0)
            snprintf(what + strlen(what), sizeof what - strlen(what), "%s%ld", what[strlen(what) - 1] == '=' ? "" : ",",
                     object->args[a]);
    command_line("kernel", queue, 0, id, what, wait_count, wait_list);
    return status;
}

LEDGER_DECLARE(cl_int, clEnqueueTask, (cl_command_queue queue, cl_kernel kernel, cl_uint wait_count,
               const cl_event *wait_list, cl_event *event))
cl_int WRAP(clEnqueueTask)(cl_command_queue queue, cl_kernel kernel, cl_uint wait_count, const cl_event *wait_list,
                           cl_event *event)
{
    size_t one = 1;
    return WRAP(clEnqueueNDRangeKernel)(queue, kernel, 1, NULL, &one, &one, wait_count, wait_list, event);
}

/* A transfer's line: its buffer and byte range. */
static void transfer_line(const char *type, cl_command_queue queue, int blocking, long event, cl_mem buffer,
                          size_t offset, size_t size, cl_uint wait_count, const cl_event *wait_list)
{
    char what[96];
    snprintf(what, sizeof what, " b=%ld off=%zu size=%zu", id_of(buffer), offset, size);
    command_line(type, queue, blocking, event, what, wait_count, wait_list);
}

cl_int WRAP(clEnqueueReadBuffer)(cl_command_queue queue, cl_mem buffer, cl_bool blocking, size_t offset, size_t size,
                                 void *host, cl_uint wait_count, const cl_event *wait_list, cl_event *event)
{
    cl_int status = REAL(clEnqueueReadBuffer)(queue, buffer, blocking, offset, size, host, wait_count, wait_list,
                                              event);
    long id = event_of(status, event);
    if (status == CL_SUCCESS)
        transfer_line("read", queue, blocking, id, buffer, offset, size, wait_count, wait_list);
    return status;
}

cl_int WRAP(clEnqueueWriteBuffer)(cl_command_queue queue, cl_mem buffer, cl_bool blocking, size_t offset,
                                  size_t size, const void *host, cl_uint wait_count, const cl_event *wait_list,
                                  cl_event *event)
{
    cl_int status = REAL(clEnqueueWriteBuffer)(queue, buffer, blocking, offset, size, host, wait_count, wait_list,
                                               event);
    long id = event_of(status, event);
    if (status == CL_SUCCESS)
        transfer_line("write", queue, blocking, id, buffer, offset, size, wait_count, wait_list);
    return status;
}

LEDGER_DECLARE(cl_int, clEnqueueCopyBuffer, (cl_command_queue queue, cl_mem source, cl_mem target,
               size_t source_offset, size_t target_offset, size_t size, cl_uint wait_count, const cl_event *wait_list,
               cl_event *event))
cl_int WRAP(clEnqueueCopyBuffer)(cl_command_queue queue, cl_mem source, cl_mem target, size_t source_offset,
                                 size_t target_offset, size_t size, cl_uint wait_count, const cl_event *wait_list,
                                 cl_event *event)
{
    cl_int status = REAL(clEnqueueCopyBuffer)(queue, source, target, source_offset, target_offset, size, wait_count,
                                              wait_list, event);
    long id = event_of(status, event);
    char what[128];
    snprintf(what, sizeof what, " b=%ld off=%zu size=%zu src=%ld soff=%zu", id_of(target), target_offset, size,
             id_of(source), source_offset);
    if (status == CL_SUCCESS)
        command_line("copy", queue, 0, id, what, wait_count, wait_list);
    return status;
}

LEDGER_DECLARE(cl_int, clEnqueueFillBuffer, (cl_command_queue queue, cl_mem buffer, const void *pattern,
               size_t pattern_size, size_t offset, size_t size, cl_uint wait_count, const cl_event *wait_list,
               cl_event *event))
cl_int WRAP(clEnqueueFillBuffer)(cl_command_queue queue, cl_mem buffer, const void *pattern, size_t pattern_size,
                                 size_t offset, size_t size, cl_uint wait_count, const cl_event *wait_list,
                                 cl_event *event)
{
    cl_int status = REAL(clEnqueueFillBuffer)(queue, buffer, pattern, pattern_size, offset, size, wait_count,
                                              wait_list, event);
    long id = event_of(status, event);
    if (status == CL_SUCCESS)
        transfer_line("fill", queue, 0, id, buffer, offset, size, wait_count, wait_list);
    return status;
}

LEDGER_DECLARE(void *, clEnqueueMapBuffer, (cl_command_queue queue, cl_mem buffer, cl_bool blocking,
               cl_map_flags flags, size_t offset, size_t size, cl_uint wait_count, const cl_event *wait_list,
               cl_event *event, cl_int *status))
void *WRAP(clEnqueueMapBuffer)(cl_command_queue queue, cl_mem buffer, cl_bool blocking, cl_map_flags flags,
                               size_t offset, size_t size, cl_uint wait_count, const cl_event *wait_list,
                               cl_event *event, cl_int *status)
{
    void *mapped = REAL(clEnqueueMapBuffer)(queue, buffer, blocking, flags, offset, size, wait_count, wait_list,
                                            event, status);
    long id = event_of(mapped ? CL_SUCCESS : CL_INVALID_VALUE, event);
    if (mapped)
        transfer_line("map", queue, blocking, id, buffer, offset, size, wait_count, wait_list);
    return mapped;
}

LEDGER_DECLARE(cl_int, clEnqueueUnmapMemObject, (cl_command_queue queue, cl_mem memory, void *mapped,
               cl_uint wait_count, const cl_event *wait_list, cl_event *event))
cl_int WRAP(clEnqueueUnmapMemObject)(cl_command_queue queue, cl_mem memory, void *mapped, cl_uint wait_count,
                                     const cl_event *wait_list, cl_event *event)
{
    cl_int status = REAL(clEnqueueUnmapMemObject)(queue, memory, mapped, wait_count, wait_list, event);
    long id = event_of(status, event);
    if (status == CL_SUCCESS)
        transfer_line("unmap", queue, 0, id, memory, 0, 0, wait_count, wait_list);
    return status;
}

LEDGER_DECLARE(cl_int, clEnqueueMarkerWithWaitList, (cl_command_queue queue, cl_uint wait_count,
               const cl_event *wait_list, cl_event *event))
cl_int WRAP(clEnqueueMarkerWithWaitList)(cl_command_queue queue, cl_uint wait_count, const cl_event *wait_list,
                                         cl_event *event)
{
    cl_int status = REAL(clEnqueueMarkerWithWaitList)(queue, wait_count, wait_list, event);
    long id = event_of(status, event);
    if (status == CL_SUCCESS)
        command_line("marker", queue, 0, id, "", wait_count, wait_list);
    return status;
}

LEDGER_DECLARE(cl_int, clEnqueueBarrierWithWaitList, (cl_command_queue queue, cl_uint wait_count,
               const cl_event *wait_list, cl_event *event))
cl_int WRAP(clEnqueueBarrierWithWaitList)(cl_command_queue queue, cl_uint wait_count, const cl_event *wait_list,
                                          cl_event *event)
{
    cl_int status = REAL(clEnqueueBarrierWithWaitList)(queue, wait_count, wait_list, event);
    long id = event_of(status, event);
    if (status == CL_SUCCESS)
        command_line("barrier", queue, 0, id, "", wait_count, wait_list);
    return status;
}

/* OpenCL 1.1's marker, barrier and wait, deprecated but still callable: a marker after everything before it, a
   barrier before everything after it, and a wait that holds the queue's later commands. */
LEDGER_DECLARE(cl_int, clEnqueueMarker, (cl_command_queue queue, cl_event *event))
cl_int WRAP(clEnqueueMarker)(cl_command_queue queue, cl_event *event)
{
    cl_int status = REAL(clEnqueueMarker)(queue, event);
    long id = event_of(status, event);
    if (status == CL_SUCCESS)
        command_line("marker", queue, 0, id, "", 0, NULL);
    return status;
}

LEDGER_DECLARE(cl_int, clEnqueueBarrier, (cl_command_queue queue))
cl_int WRAP(clEnqueueBarrier)(cl_command_queue queue)
{
    cl_int status = REAL(clEnqueueBarrier)(queue);
    if (status == CL_SUCCESS)
        command_line("barrier", queue, 0, 0, "", 0, NULL);
    return status;
}

LEDGER_DECLARE(cl_int, clEnqueueWaitForEvents, (cl_command_queue queue, cl_uint count, const cl_event *events))
cl_int WRAP(clEnqueueWaitForEvents)(cl_command_queue queue, cl_uint count, const cl_event *events)
{
    cl_int status = REAL(clEnqueueWaitForEvents)(queue, count, events);
    if (status == CL_SUCCESS)
        command_line("barrier", queue, 0, 0, "", count, events);
    return status;
}

LEDGER_DECLARE(cl_int, clFinish, (cl_command_queue queue))
cl_int WRAP(clFinish)(cl_command_queue queue)
{
    cl_int status = REAL(clFinish)(queue);
    if (status == CL_SUCCESS && wait_fits())
        ledger_line("finish %ld", id_of(queue));
    return status;
}

LEDGER_DECLARE(cl_int, clFlush, (cl_command_queue queue))
cl_int WRAP(clFlush)(cl_command_queue queue)
{
    cl_int status = REAL(clFlush)(queue);
    if (status == CL_SUCCESS && wait_fits())
        ledger_line("flush %ld", id_of(queue));
    return status;
}

LEDGER_DECLARE(cl_int, clWaitForEvents, (cl_uint count, const cl_event *events))
cl_int WRAP(clWaitForEvents)(cl_uint count, const cl_event *events)
{
    cl_int status = REAL(clWaitForEvents)(count, events);
    char waits[LEDGER_WAITS * 8 + 16];
    wait_text(count, events, waits, sizeof waits);
    if (status == CL_SUCCESS && wait_fits())
        ledger_line("waitfor%s", waits);
    return status;
}

LEDGER_DECLARE(cl_event, clCreateUserEvent, (cl_context context, cl_int *status))
cl_event WRAP(clCreateUserEvent)(cl_context context, cl_int *status)
{
    cl_event event = REAL(clCreateUserEvent)(context, status);
    long id = created(event, KIND_EVENT, 1);
    if (id > 0 && object_fits())
        ledger_line("uevent %ld", id);
    return event;
}

LEDGER_DECLARE(cl_int, clSetUserEventStatus, (cl_event event, cl_int execution_status))
cl_int WRAP(clSetUserEventStatus)(cl_event event, cl_int execution_status)
{
    /* Written first: the callbacks it sets off may enqueue, and what they enqueue comes after it. */
    if (object_fits())
        ledger_line("ustatus %ld %d", id_of(event), execution_status);
    return REAL(clSetUserEventStatus)(event, execution_status);
}

LEDGER_DECLARE(cl_int, clGetEventInfo, (cl_event event, cl_event_info name, size_t size, void *value,
               size_t *returned))
cl_int WRAP(clGetEventInfo)(cl_event event, cl_event_info name, size_t size, void *value, size_t *returned)
{
    cl_int status = REAL(clGetEventInfo)(event, name, size, value, returned);
    /* A host that polls an event until it completes has waited for it. */
    if (status == CL_SUCCESS && name == CL_EVENT_COMMAND_EXECUTION_STATUS && value && size >= sizeof(cl_int) &&
        *(const cl_int *)value == CL_COMPLETE && wait_fits())
        ledger_line("poll %ld", id_of(event));
    return status;
}

/* A command's profiled start and end, written as the program lets its event go (its last release): the timeline
   the judge reports. Nothing when the queue did not profile or the command had not ended. */
static void event_times(cl_event event)
{
    struct ledger_object *object = find(event);
    cl_ulong start = 0, end = 0;
    if (!object || object->references != 1 || !wait_fits())
        return;
    if (REAL(clGetEventProfilingInfo)(event, CL_PROFILING_COMMAND_START, sizeof start, &start, NULL) == CL_SUCCESS &&
        REAL(clGetEventProfilingInfo)(event, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL) == CL_SUCCESS)
        ledger_line("times %ld %llu %llu", object->id, (unsigned long long)start, (unsigned long long)end);
}

LEDGER_DECLARE(cl_int, clRetainEvent, (cl_event event))
LEDGER_DECLARE(cl_int, clReleaseEvent, (cl_event event))
cl_int WRAP(clRetainEvent)(cl_event event)
{
    cl_int status = REAL(clRetainEvent)(event);
    referenced(event, 1, status);
    return status;
}

cl_int WRAP(clReleaseEvent)(cl_event event)
{
    cl_int status;
    event_times(event);
    status = REAL(clReleaseEvent)(event);
    referenced(event, -1, status);
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
