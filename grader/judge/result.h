/* Test results: each test's score, maximum and reason, and a lab's tests. */
#ifndef CLKIT_GRADER_RESULT_H
#define CLKIT_GRADER_RESULT_H

#include <stddef.h>

#define GRADE_MAX_TESTS 16

struct grade_test {
    char name[64];
    double score;
    double max;
    int passed;
    int informational; /* reported, worth no points on any device */
    int pending;       /* worth max, scored 0 for now: decided only on the course's device (never a failure) */
    int noted;         /* its details matter even when it passed (a suspect device) */
    char *reason;      /* first line: why, in one line; further lines: details */
    char metrics[320]; /* a performance test's figures, "key=value;...", for --bench */
    char cause[40];    /* what the report names as the cause, as a key ("miscompiled", "uninitialised-private"; ""
                          when none): the JSON record's extra_data.cause */
    double seconds;    /* wall time from the lab's previous verdict (or its start) to this one: tests judged
                          together carry their shared runs on the first of them */
};

struct grade_lab_result {
    char lab[16];
    struct grade_test tests[GRADE_MAX_TESTS];
    int test_count;
    char *setup_error;  /* set when the lab could not be graded at all (exit status 2) */
    char device[128];   /* the device the kernel ran on */
    double seconds;     /* how long grading the lab took */
    double marked;      /* clk_now_s() when its grading began or its last test was added (0: not timed) */
};

/* Adds a test to result with a cleaned copy of reason (safe text, capped), finite points and its seconds since
   result's last mark; returns it, or NULL when the result is full. */
struct grade_test *result_add(struct grade_lab_result *result, const char *name, double score, double max,
                              int passed, const char *reason);

/* Frees the reasons and set-up error held by result. */
void result_free(struct grade_lab_result *result);

#endif
