/* Batch grading for an instructor: many submissions, one at a time or one per device side by side, a results file
   each and a CSV of scores. */
#ifndef CLKIT_GRADER_BATCH_H
#define CLKIT_GRADER_BATCH_H

#include "cli/cli.h"
#include "judge/grading.h"

#include <stdio.h>

#define BATCH_MAX_STUDENTS 1024

/* One entry of a class: a folder to grade, or something refused with a reason. */
struct student {
    char *path;
    char name[256];      /* unique in the class, safe as a file name */
    const char *refused; /* why it is not graded, or NULL */
};

/* Returns 1 when the command line names several submissions, or one folder that holds student folders. */
int batch_wanted(const struct cli *cli);

/* Grades every submission (--jobs/--devices: one per device side by side), writing STUDENT.txt, STUDENT.json and
   scores.csv in the class's order; returns 0, or 2 on a set-up error. */
int batch_run(struct grading *g);

/* Lists the class cli names (its folders, or the entries of one class folder) in name order, with names unique and
   safe as file names; returns how many (paths to free). */
int batch_list_class(const struct cli *cli, struct student *students, int max);

/* Writes the header of scores.csv: student, cli's labs, total, max, status. */
void batch_csv_header(const struct cli *cli, FILE *csv);

/* Grades student s in a judge process of its own within the budget, into dir/NAME.txt, NAME.json and NAME.row;
   returns NULL when it finished, else how grading stopped (or why s is not graded). */
const char *batch_grade_student(struct grading *g, const struct student *s, const char *dir);

/* Copies s's row from dir into csv (and removes it unless keep_row), or, when why says grading stopped, writes a
   results file that says so and a row of zeros. */
void batch_collect(struct grading *g, const struct student *s, const char *why, const char *dir, FILE *csv,
                   int keep_row);

#endif
