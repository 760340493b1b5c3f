/* The host-program test: run the student's own host program and check what it writes with --out. */
#ifndef CLKIT_GRADER_HOSTPROG_H
#define CLKIT_GRADER_HOSTPROG_H

#include "labs.h"
#include "result.h"

#include <stdint.h>

struct hostprog_job {
    const struct grade_lab_spec *lab;
    const char *binary;  /* the built host program */
    const char *device;  /* passed on as --device, or NULL */
    uint64_t seed;
    int timeout_s;
    const char *scratch; /* a directory for the --out file */
};

/* Runs the host program under the sandbox and adds the "host program" test to result. */
void hostprog_test(const struct hostprog_job *job, struct grade_lab_result *result);

#endif
