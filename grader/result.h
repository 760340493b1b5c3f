/* Test results, and the records that carry them from a lab's child process to the grader. */
#ifndef CLKIT_GRADER_RESULT_H
#define CLKIT_GRADER_RESULT_H

#include <stddef.h>

#define GRADE_MAX_TESTS 16

struct grade_test {
    char name[64];
    double score;
    double max;
    int passed;
    int informational; /* reported, but its points do not count on this device */
    char *reason;      /* first line: why, in one line; further lines: details */
    char metrics[320]; /* a performance test's figures, "key=value;...", for --bench */
};

struct grade_lab_result {
    char lab[16];
    struct grade_test tests[GRADE_MAX_TESTS];
    int test_count;
    char *setup_error;  /* set when the lab could not be graded at all (exit status 2) */
    char running[64];   /* the test the child began last, to blame for a crash or time-out */
    char progress[128]; /* the child's latest progress line */
    char device[128];   /* the device the kernel ran on */
};

/* Writes a "test begins" record to fd. */
void record_begin(int fd, const char *test_name);

/* Writes a progress record ("case 3 of 40") to fd. */
void record_progress(int fd, const char *text);

/* Writes a finished test to fd. */
void record_test(int fd, const struct grade_test *test);

/* Writes the name of the device the child grades on to fd. */
void record_device(int fd, const char *name);

/* Writes a set-up error (no device, missing file) to fd. */
void record_setup_error(int fd, const char *message);

/* Parses every complete record of data into result; returns how many were read. */
int record_parse(const char *data, size_t length, struct grade_lab_result *result);

/* Adds a test to result (copying reason); returns it, or NULL when the result is full. */
struct grade_test *result_add(struct grade_lab_result *result, const char *name, double score, double max,
                              int passed, const char *reason);

/* Appends format, filled with the strings a and b, to the NUL-terminated text of size bytes, as room allows. */
void result_append(char *text, size_t size, const char *format, const char *a, const char *b);

/* Frees the reasons and set-up error held by result. */
void result_free(struct grade_lab_result *result);

#endif
