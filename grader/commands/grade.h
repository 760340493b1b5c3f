/* The grade command: one folder graded, reported and written out. */
#ifndef CLKIT_GRADER_COMMANDS_GRADE_H
#define CLKIT_GRADER_COMMANDS_GRADE_H

#include "cli/cli.h"
#include "judge/job.h"

/* Grades the folder cli names (a submission, else labs/ or solutions/) with g, prints the report (or, with --bench,
   the table of the speed tests), writes the result files and --html's page; returns 0 when every test passed, 1
   when one failed, 2 on a set-up error or a file that could not be written. */
int grade_run(struct grading *g, const struct cli *cli);

#endif
