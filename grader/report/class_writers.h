/* The files a graded class gets, as a table of writers over its students' records (report/record.h, each
   STUDENT.record in the results folder): scores.csv, the HTML report, the contest. A batch and a Slurm merge walk the
   same table. A new class output is one writer file, one row of the table in class_writers.c and its test. */
#ifndef CLKIT_GRADER_CLASS_WRITERS_H
#define CLKIT_GRADER_CLASS_WRITERS_H

#include "judge/config.h"
#include "judge/course.h"

#include <stdio.h>

/* A graded class, as its writers see it. */
struct class_run {
    const char *results_dir;           /* each student's NAME.record; scores.csv and contest.csv go here */
    const char *const *names;          /* the students' file names, in the class's order */
    int count;
    const struct judge_config *config; /* the class's labs: scores.csv's columns */
    const struct course *course;       /* where the course holds a contest */
    const char *html_dir;              /* --html DIR, or NULL */
    const char *kit_root;              /* the solutions' speed for the HTML report, in docs/results */
    FILE *said;                        /* where scores.csv's writer says it wrote it */
    const char *scores_note;           /* after "wrote DIR/scores.csv" ("" or NULL: nothing) */
};

struct class_writer {
    const char *name;                          /* "scores.csv" */
    int (*wanted)(const struct class_run *run); /* 1 when the run asks for this output */
    int (*write)(const struct class_run *run);  /* returns 0, or -1 after saying why */
};

/* The writers in the order they write, ended by NULL. */
extern const struct class_writer *const class_writers[];

/* Writes run with each writer that wants it, in table order, stopping at the first that fails; returns 0 or -1. */
int class_writers_write(const struct class_run *run);

#endif
