/* Grading one lab's kernel: build, correctness cases and memory safety, run inside the sandboxed child. */
#ifndef CLKIT_GRADER_RUNLAB_H
#define CLKIT_GRADER_RUNLAB_H

#include "labs.h"

#include <stdint.h>

struct lab_job {
    const struct grade_lab_spec *lab;
    const char *kernel_path;  /* the student's .cl */
    const char *device;       /* --device SPEC, or NULL */
    uint64_t seed;
    long only_case;           /* --case N, or -1 for every case */
    int verbose;
    const char *replay;       /* the command that replays a case, without --case and --seed */
    int quick;                /* correctness only: no performance test */
    const char *kernels_dir;  /* the baselines and probes */
    const char *profiles_dir; /* the device profiles */
    int calibrate_runs;       /* --calibrate: how many timings make a threshold */
    int sanitizer_run;        /* inside Oclgrind: small exact cases only, no guard bands */
    int technique_run;        /* inside Oclgrind: only the lab's fixed technique case */
};

/* The names of the correctness tests, in the order the child reports them. */
extern const char *const runlab_test_names[];
#define RUNLAB_TEST_COUNT 4

/* The name of the lab's performance test: "speed" against a baseline, or "bandwidth". */
const char *runlab_perf_name(const struct grade_lab_spec *lab);

/* Grades the kernel of job (a struct lab_job) and writes its records to fd; the sandbox calls it in the child. */
int runlab_child(void *job, int fd);

/* Times the solution of job's lab calibrate_runs times and writes its profile lines, after a header of the
   device and sizes, to fd; the sandbox calls it in the child. */
int runlab_calibrate_child(void *job, int fd);

#endif
