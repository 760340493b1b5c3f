/* A class graded on a Slurm cluster: a job array of one task per student, and the merge of their results. */
#ifndef CLKIT_GRADER_SLURM_H
#define CLKIT_GRADER_SLURM_H

#include "cli/cli.h"
#include "judge/job.h"

/* --slurm DIR: lists the class of --submission into DIR/class.txt (its seed, a new job stamp, the count of students
   and the labs on its first line; fields escaped) and writes DIR/grade.sbatch, a job array of one task per student,
   with the CPUs and GPUs the options ask for, that carries the stamp; removes what an earlier job left in
   DIR/results. Refuses resources that no node sinfo lists has. Returns 0, or 2 after saying why. */
int slurm_write(struct grading *g, const struct cli *cli);

/* --task DIR: grades the student of DIR/class.txt that SLURM_ARRAY_TASK_ID names into DIR/results, and stamps its
   results with the job; refuses a class file that is damaged or of another job than the task's grade.sbatch.
   Returns 0, or 2 after saying why. */
int slurm_task(struct grading *g, const struct cli *cli);

/* --merge DIR: writes DIR/results/scores.csv from the tasks' results, in the class's order; a student whose task
   left no result stamped with this job (none, or a stale one) gets a row of zeros and a results file that says so,
   and is named on stderr. Returns 0, or 2 when a student has no result or after saying why. */
int slurm_merge(struct grading *g, const struct cli *cli);

#endif
