/* The kit's own result record as a file (--record FILE, and STUDENT.record in a class's results): every lab's
   result and every field of its tests, read back exactly. A class's scores.csv, HTML report and contest are written
   from these records (report/class_writers.h), not from Gradescope's results.json. */
#ifndef CLKIT_GRADER_RECORD_H
#define CLKIT_GRADER_RECORD_H

#include "judge/config.h"
#include "judge/result.h"
#include "report/writers.h"

/* A run read back from its record. */
struct record {
    struct grade_lab_result results[JUDGE_MAX_LABS];
    char units[JUDGE_MAX_LABS][16]; /* each lab's rate unit, "GB/s" or "GFLOP/s" ("": none) */
    int count;
    char why[512]; /* not graded: why (the record of a student whose grading stopped), else "" */
};

/* The record's writer (a row of the writers' table). */
extern const struct result_writer result_writer_record;

/* Writes the record of a student who was not graded, saying why, to out; returns 0, or -1 when it cannot. */
int record_write_not_graded(FILE *out, const char *why);

/* Reads NAME.record in the folder dirfd (not through a link) into r; returns 0, or -1 (r then empty) when it is
   missing or not a record. Free with record_free. */
int record_read(int dirfd, const char *name, struct record *r);

/* Frees what record_read allocated in r. */
void record_free(struct record *r);

/* The number after "key=" in a test's metrics ("size=...;rate=12.5;..."), or 0 when absent. */
double record_metric(const char *metrics, const char *key);

/* A lab's rate from its speed test (scored or reported), or 0 when it was not timed. */
double record_rate(const struct grade_lab_result *result);

/* What pipeline_run returned for these results: 2 when a lab could not be graded, 1 when a test failed, else 0. */
int record_status(const struct grade_lab_result *results, int count);

#endif
