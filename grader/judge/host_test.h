/* The host-program test: build the student's host program confined, run it confined, and check what it writes
   with --out. */
#ifndef CLKIT_GRADER_HOSTPROG_H
#define CLKIT_GRADER_HOSTPROG_H

#include "judge/job.h"
#include "labs/spec.h"
#include "judge/result.h"

#include <stdint.h>

struct hostprog_job {
    struct grading *g;
    const struct grade_lab_spec *lab;
    uint64_t seed;
};

/* Adds the "host program" test to result: the program built from a scratch copy of its folder (the kit's own
   build for the solutions), run with --size, --seed, --kernel and --out. */
/* The host program's run folder: run-lab4-host, apart from the kernel runner's. */
#define HOSTPROG_RUN "-host"

void host_test_run(const struct hostprog_job *job, struct grade_lab_result *result);

#endif
