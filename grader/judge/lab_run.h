/* The judge's side of one lab's kernel tests: a confined runner on a scratch copy of the lab folder, the cases
   it is asked to run, and the verdicts the judge draws from the raw buffers it sends back. */
#ifndef CLKIT_GRADER_RUNLAB_H
#define CLKIT_GRADER_RUNLAB_H

#include "judge/job.h"
#include "judge/guard_check.h"
#include "wire/harness.h"
#include "labs/spec.h"
#include "judge/profile.h"
#include "judge/session.h"

#include <limits.h>
#include <stdint.h>

enum runlab_mode {
    RUNLAB_GRADE,    /* every case in guard bands, then the performance test */
    RUNLAB_REFERENCE /* inside Oclgrind, the reference judge: small exact cases in plain buffers, judged, then the
                        lab's technique case */
};

#define RUNLAB_MAX_CASES 256
#define RUNLAB_REFERENCE_RUN "-reference" /* the reference judge's run folder: run-lab4-reference */
#define RUNLAB_ALL_CASES (-1)
#define RUNLAB_NO_CASE (-2) /* RUNLAB_REFERENCE: only the technique case */
/* The reference judge's local memory: the largest of the GPUs the labs target (48 KB), not Oclgrind's own 32 KB. */
#define RUNLAB_JUDGE_LOCAL_BYTES 49152
/* Under the reference judge a hang is found by the instructions a launch simulates, the same on every machine: each
   launch may run REFERENCE_BUDGET_MARGIN times what its case's work needs at Oclgrind's measured pace, and never
   fewer than REFERENCE_FLOOR_INSTRUCTIONS (far more than a right kernel needs in a small case). The kit's plugin ends
   a runner past its budget with CLKIT_BUDGET_EXIT (grader/oclgrind/coalesce.cpp). */
#define REFERENCE_INSTRUCTIONS_PER_S 10e6
#define REFERENCE_BUDGET_MARGIN 4.0
#define REFERENCE_FLOOR_INSTRUCTIONS 50e6
/* and one work-item may run at most this many instructions in a row (before it reaches a barrier or its end): an
   endless loop is found within a second or two, where a right kernel's work-item, even one that does a small
   case's whole work alone, runs far fewer */
#define REFERENCE_ITEM_INSTRUCTIONS 10e6
#define CLKIT_BUDGET_EXIT 86
/* The time a case gets under the reference judge: a backstop past the time its launch budget takes at half the
   slowest pace measured (lab 11's local-memory sweeps, 0.9 million instructions a second on the 2-core machine),
   never less than REFERENCE_FLOOR_S; its end is the judge's failure (a busy machine, a simulator stuck), never the
   kernel's. */
#define REFERENCE_SLOWEST_PACE 0.45e6
#define REFERENCE_FLOOR_S 60.0

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
    int slow_seen; /* a large case did not finish, and the cases went on without it */
    int unoptimised; /* the kernel is built with -cl-opt-disable (see compiler_recheck.h) */
    int build_stopped; /* the runner stopped while the device's compiler built the kernel (a crash, a limit) */
    uint64_t budget;   /* RUNLAB_REFERENCE: the instruction budget of the case asked for last */
    int short_sample;  /* RUNLAB_REFERENCE: the short sample of the uninitialised-value run (runlab_run_cases) */
    char *source;      /* the staged kernel's text, while its builds may be kept (a fresh run on the device) */
    size_t source_length;
};

/* What one run made of each case of a lab, and where its runner stopped. */
struct case_log {
    struct grade_case cases[RUNLAB_MAX_CASES];
    int ran[RUNLAB_MAX_CASES];                   /* the runner finished the case and the judge judged it */
    struct case_verdict verdicts[RUNLAB_MAX_CASES];
    size_t count;
    long stopped_at;   /* the case the runner stopped in, -1 when it did not */
    long slow_at;      /* RUNLAB_GRADE: a case too large for the reference judge that did not finish in time; the
                          runner was restarted and the cases as large were left out (-1: none) */
    char slow_how[256];
    size_t slow_skipped; /* the cases left out after it */
    char how[256];     /* how it stopped: "did not finish within 3 s", "crashed with SIGSEGV" */
    char assertion[256]; /* the crash's last words when the OpenCL implementation gave up ("... Assertion `x'
                            failed.", a binary it built that it cannot load): not the kernel ("" otherwise) */
    char last_words[256]; /* the last line the runner printed before it crashed, cleaned ("" when none) */
    int out_of_memory; /* the judge ran out of host memory */
    int build_stopped; /* the device's compiler stopped building the kernel, also without optimisation (no case ran) */
    int device_memory_held; /* the device had no memory for a case's buffers however long the judge waited: a
                               neighbour held it (CL_MEM_OBJECT_ALLOCATION_FAILURE); the cases stopped there */
    int technique_ran; /* RUNLAB_REFERENCE: the lab's technique case ran, first */
    int over_budget;   /* RUNLAB_REFERENCE: the runner stopped where a launch ran past its instruction budget */
    int out_of_time;   /* RUNLAB_REFERENCE: the runner stopped at a time limit, within its budget (the judge's) */
    char technique_counts[2048]; /* the plugin's line for the technique case: its kernel's, or its last launch's */
    int timed_checked; /* the timed run's result was sampled and judged (a real case of its own) */
    size_t timed_wrong;
    char timed_detail[512];
};

/* Returns lab under the contract its kernel in g's source folder is written to (labs/contract.h): the first whose
   word the source uses, else the last; a kernel that cannot be read takes the first (staging then says why). */
const struct grade_lab_spec *runlab_contract(const struct grading *g, const struct grade_lab_spec *lab);

/* Stages lab's folder, checks its source rules, starts the runner (inside wrapper, e.g. Oclgrind, when not NULL,
   for at most timeout_s) and has it build the kernel; returns 0 when the runner is up (see refusal and setup). */
int runlab_open(struct lab_run *r, char *const wrapper[], int timeout_s);

/* Opens a runner on the device as runlab_open does; where the device had no memory for its context (another process
   may hold it for as long as its own time limit), waits and tries again, the waits adding up to twice the run's
   limit. */
int runlab_open_patiently(struct lab_run *r, int timeout_s);

/* Waits seconds while the runner sits idle (the device's memory held by another process), its deadline moved on by
   as much: the wait is not the runner's time. */
void runlab_idle(struct lab_run *r, int seconds);

/* A case's time limit in seconds: on a device, a base that covers a first build for a new work-group size and time
   that grows with the work, at most --timeout; under the reference judge, a backstop past the case's instruction
   budget, at least REFERENCE_FLOOR_S, whatever --timeout says (a simulated work-item costs far more; the budget, not
   this limit, ends a hang there). */
double runlab_case_limit(const struct lab_run *r, const struct grade_case *c);

/* Ends the runner and fills outcome (may be NULL) with how it ended. */
void runlab_close(struct lab_run *r, struct sandbox_outcome *outcome);

/* Fills log with the lab's cases (from a device allowing work-groups of max_local) and runs those of r's mode (only
   case only_case when >= 0, none for RUNLAB_NO_CASE), each within a limit that grows with its size; a runner that stops
   is closed, except that after the first large case that does not finish the cases go on, without those as large. */
void runlab_run_cases(struct lab_run *r, size_t max_local, long only_case, struct case_log *log);

/* Copies into text the line of a crashed runner's output by which the OpenCL implementation says it gave up (a
   failed assertion; PoCL unable to load the binary it built), cleaned, or "" when there is none. */
void runlab_find_give_up(const char *output, char *text, size_t size);

#endif
