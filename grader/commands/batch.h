/* Batch grading for an instructor: many submissions, one at a time or side by side on one device or several (each
   timing alone on its device), a results file each and a CSV of scores. */
#ifndef CLKIT_GRADER_BATCH_H
#define CLKIT_GRADER_BATCH_H

#include "cli/cli.h"
#include "judge/job.h"

#include <stdio.h>

#define BATCH_MAX_STUDENTS 1024
#define BATCH_NAME_MAX 100 /* the longest student file name: NAME.json.why and the like stay under NAME_MAX */

/* One entry of a class: a folder to grade, or something refused with a reason. */
struct student {
    char *path;
    char name[BATCH_NAME_MAX + 1]; /* unique in the class, safe as a file name (letters, digits, . _ -) */
    const char *refused;           /* why it is not graded, or NULL */
    char why[512];                 /* a refusal that names the folder, when refused points here */
};

/* Returns 1 when the command line names several submissions, or one folder that holds student folders. */
int batch_wanted(const struct cli *cli);

/* Grades every submission (--jobs/--devices: side by side, the devices in turn), writing STUDENT.txt, STUDENT.json and
   scores.csv in the class's order; returns 0, or 2 on a set-up error. */
int batch_run(struct grading *g, const struct cli *cli);

/* Lists the class cli names (its folders, or the entries of one class folder) in name order, with names unique and
   safe as file names (a folder whose name has control characters, or whose cleaned name another student's has, is
   refused, under a name of its own); returns how many (paths to free), or -1 after saying why when the class has
   more than max entries. */
int batch_list_class(const struct cli *cli, struct student *students, int max);

/* Returns 1 when name is a student file name batch_list_class could give (letters, digits, . _ -, not hidden, at
   most BATCH_NAME_MAX bytes). */
int batch_name_is_safe(const char *name);

/* Grades student s in a judge process of its own within the budget, into dir/NAME.txt, NAME.json and NAME.record
   (what an earlier run left under those names removed first, links never followed); returns NULL when it finished,
   else how grading stopped (or why s is not graded). */
const char *batch_grade_student(struct grading *g, const struct student *s, const char *dir);

/* Leaves s's record in dir as it is when grading finished (why NULL) and wrote one, else writes a results file and
   a record that say why s was not graded (why, or that grading stopped before it wrote a result). */
void batch_settle(const struct student *s, const char *why, const char *dir);

/* Writes the class's files from dir's records of the students listed (no other record there is read), through the
   class writers' table: scores.csv (saying so on said, scores_note after), the report into the folder html (NULL:
   none), the contest where the course holds one; returns 0, or -1 after saying why. */
int batch_write_class(const struct grading *g, const char *html, const char *dir, const struct student *students,
                      int count, FILE *said, const char *scores_note);

#endif
