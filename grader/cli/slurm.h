/* A class graded on a Slurm cluster: a job array of one task per student, and the merge of their results. */
#ifndef CLKIT_GRADER_SLURM_H
#define CLKIT_GRADER_SLURM_H

#include "judge/grading.h"

/* --slurm DIR: lists the class of --submission into DIR/class.txt (the labs and seed on its first line) and writes
   DIR/grade.sbatch, a job array of one task per student, one GPU each; returns 0, or 2 after saying why. */
int slurm_write(struct grading *g);

/* --task DIR: grades the student of DIR/class.txt that SLURM_ARRAY_TASK_ID names into DIR/results; returns 0, or
   2 after saying why. */
int slurm_task(struct grading *g);

/* --merge DIR: writes DIR/results/scores.csv from the tasks' results, in the class's order; a student whose task
   left no result gets a row of zeros and a results file that says so. Returns 0, or 2 after saying why. */
int slurm_merge(struct grading *g);

#endif
