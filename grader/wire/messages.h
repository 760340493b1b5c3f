/* The judge-runner wire: length-prefixed messages over pipes, read with a deadline. */
#ifndef CLKIT_GRADER_WIRE_H
#define CLKIT_GRADER_WIRE_H

#include "labs/spec.h"

#include <stddef.h>
#include <stdint.h>

/* The runner reads requests on stdin and writes replies on this descriptor, apart from its own output. */
#define WIRE_REPLY_FD 3
/* A case's buffers travel through a memory file the judge sizes for each case: no pipe copies. */
#define WIRE_BUFFERS_FD 4

enum wire_type {
    WIRE_JOB = 1,   /* judge: which lab, kernel and device */
    WIRE_HELLO,     /* runner: the device, before any submitted code is built */
    WIRE_BUILT,     /* runner: the kernel built (or its log) and the largest work-group it allows */
    WIRE_CASE,      /* judge: run one case */
    WIRE_CASE_DONE, /* runner: the launch status and every buffer, guards included */
    WIRE_PERF,      /* judge: time the kernel on the timing case */
    WIRE_PERF_DONE, /* runner: the timings */
    WIRE_END,       /* judge: exit */
    WIRE_SPOT,      /* judge: after a timing, the timed result's values at the sample a seed draws (spot.h) */
    WIRE_SPOT_DONE, /* runner: those values */
    WIRE_PERF_STAGE, /* judge: set up the timing WIRE_PERF will ask for (inputs, baseline), not yet timing */
    WIRE_PERF_STAGED /* runner: set up, or why not (a wire_perf_done's status and why) */
};

struct wire_job {
    char lab[16];
    char device[256];        /* --device SPEC, or empty for the default */
    char kernel_path[256];   /* relative to the runner's working directory */
    char include_dir[256];   /* the kernel's own folder: the only place #include may look */
    char kernels_dir[512];   /* the baselines and probes (a scratch copy of kernels/) */
    int unoptimised;         /* build the kernel with -cl-opt-disable: is a disagreement the compiler's? */
    int contract;            /* the lab's contract the kernel is graded under (labs/contract.h) */
    int build_as_host;       /* build the kernel once more as the lab's host program does (no options), so that
                                its program is kept for that run too */
};

struct wire_hello {
    int ok;
    int is_gpu;
    uint32_t align_bytes;    /* CL_DEVICE_MEM_BASE_ADDR_ALIGN in bytes */
    char device_name[128];
    char error[256];
    int memory_held; /* the device refused a context for want of memory: another process may hold it */
};

struct wire_built {
    int ok;
    uint64_t max_local;      /* the largest work-group every build allows */
    /* followed by the build log or the reason, as text */
};

struct wire_case {
    struct grade_case c;
    uint64_t seed;
    uint64_t guard;          /* elements in each guard zone; 0: plain buffers */
    uint32_t guard_bits[GRADE_MAX_BUFFERS];
    uint64_t instruction_budget; /* under the reference judge, the instructions a launch may simulate (0: any) */
    uint64_t item_budget;        /* and those one work-item may run in a row (0: any) */
    uint32_t counted;            /* under the reference judge, the kit's plugin records the accesses (the technique
                                    case: the only counts the judge reads) */
};

struct wire_case_done {
    int32_t status;          /* the cl_int of the launch */
    int32_t buffer_count;
    uint64_t totals[GRADE_MAX_BUFFERS]; /* floats per buffer, guards included, one after another in the
                                           buffers file */
};

enum wire_peak { WIRE_PEAK_NONE, WIRE_PEAK_COPY, WIRE_PEAK_FMA };

struct wire_perf {
    struct grade_case c;
    uint64_t seed;
    int compare;             /* time against the lab's baseline; else alone */
    int runs;                /* calibration: how many comparisons (1 when grading) */
    double budget_s;
    double min_speedup;      /* the threshold: a result within its noise is timed again (0: none) */
    int peak;                /* enum wire_peak */
    uint64_t copy_n;
    int clblast;             /* also time CLBlast's SGEMM on the same buffers */
    int further;             /* also time the lab's going-further kernel of kernels/ on the same problem */
};

#define WIRE_MAX_RUNS 16

struct wire_perf_done {
    int32_t status;
    int runs;
    double student_ms, baseline_ms, speedup, spread;
    double low, high;        /* the speedup's 95% confidence interval */
    int pairs, settled, close;
    double peak;             /* GB/s or GFLOP/s; 0 when not measured */
    double clblast_ms;
    double further_ms;       /* 0 when not timed */
    double values[WIRE_MAX_RUNS]; /* calibration: each run's speedup, or each run's time in ms */
    char why[512];
};

/* Sent once the timing is over, so the kernel cannot know which results are read. */
struct wire_spot {
    uint64_t sample_seed;
};

struct wire_spot_done {
    int32_t status;          /* CL_SUCCESS, or why the result could not be read back */
    uint32_t count;          /* followed by count floats */
};

struct wire_message {
    uint32_t type;
    size_t length;
    unsigned char *data; /* malloc'd, NUL-terminated past length */
};

/* Writes one message (type, then length, then the count parts one after another) to fd; returns 0, or -1 when
   the reader is gone. */
int wire_sendv(int fd, uint32_t type, const void *const *parts, const size_t *lengths, int count);

/* Writes one message of head then tail (either may be empty) to fd; returns 0, or -1 when the reader is gone. */
int wire_send(int fd, uint32_t type, const void *head, size_t head_length, const void *tail, size_t tail_length);

/* Reads one message from fd, blocking; returns 0, or -1 at end of file or on a message over max_length. */
int wire_recv_blocking(int fd, size_t max_length, struct wire_message *message);

/* An incremental reader, for a judge that must not block on a runner that stalls. */
struct wire_reader {
    unsigned char header[12];
    size_t have;
    struct wire_message message;
};

/* Feeds what fd has to reader; returns 1 when a whole message is ready, 0 for more to come,
   -1 at end of file, on an error or on a message over max_length. */
int wire_read_some(int fd, size_t max_length, struct wire_reader *reader);

/* Frees a message's data. */
void wire_message_free(struct wire_message *message);

#endif
