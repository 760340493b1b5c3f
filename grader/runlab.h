/* The judge's side of one lab's kernel tests: a confined runner on a scratch copy of the lab folder, the cases
   it is asked to run, and the verdicts the judge draws from the raw buffers it sends back. */
#ifndef CLKIT_GRADER_RUNLAB_H
#define CLKIT_GRADER_RUNLAB_H

#include "grading.h"
#include "labs.h"
#include "profile.h"
#include "session.h"

#include <limits.h>
#include <stdint.h>

enum runlab_mode {
    RUNLAB_GRADE,     /* every case in guard bands, then the performance test */
    RUNLAB_SANITIZER, /* inside Oclgrind: small exact cases, no guard bands */
    RUNLAB_TECHNIQUE  /* inside Oclgrind: only the lab's fixed technique case */
};

/* One lab's runner and what it said before running anything. */
struct lab_run {
    struct grading *g;
    const struct grade_lab_spec *lab;
    uint64_t seed;
    enum runlab_mode mode;
    char run_dir[PATH_MAX];
    char kernel_shown[PATH_MAX + 64]; /* the kernel's path as the user knows it */
    struct session session;
    struct wire_hello hello;
    size_t max_local;
    char *refusal;   /* why the submission was refused or its kernel did not build (set-up passed) */
    char *setup;     /* why the lab could not be graded at all (no device) */
    struct profile profile; /* the device's profile, once loaded */
    int profile_loaded;
};

/* The names of the correctness tests, in order. */
extern const char *const runlab_test_names[];
#define RUNLAB_TEST_COUNT 4

/* The name of the lab's performance test: "speed" against a baseline, or "bandwidth". */
const char *runlab_perf_name(const struct grade_lab_spec *lab);

/* Stages lab's folder, checks its source rules, starts the runner (inside wrapper, e.g. Oclgrind, when not NULL,
   for at most timeout_s) and has it build the kernel; returns 0 when the runner is up (see refusal and setup). */
int runlab_open(struct lab_run *r, char *const wrapper[], int timeout_s);

/* Ends the runner and fills outcome (may be NULL) with how it ended. */
void runlab_close(struct lab_run *r, struct sandbox_outcome *outcome);

/* Runs every case of r's mode (only case only_case when >= 0); in RUNLAB_GRADE mode adds the correctness tests
   and, unless quick, the performance test to result. */
void runlab_cases(struct lab_run *r, long only_case, struct grade_lab_result *result);

/* Grades lab's kernel from g's source folder: build, exact and real cases, memory safety, speed. */
void runlab_kernel_tests(struct grading *g, const struct grade_lab_spec *lab, uint64_t seed,
                         struct grade_lab_result *result);

#endif
