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
};

/* The names of the kernel tests, in the order the child reports them. */
extern const char *const runlab_test_names[];
#define RUNLAB_TEST_COUNT 4

/* Grades the kernel of job (a struct lab_job) and writes its records to fd; the sandbox calls it in the child. */
int runlab_child(void *job, int fd);

#endif
