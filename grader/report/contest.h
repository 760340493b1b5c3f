/* The class contest (opt-in, course.conf: contest = on): each lab's fastest correct kernels per device, computed
   from a class's results when it is graded or merged, and extra points within the course's tiers of the fastest. */
#ifndef CLKIT_GRADER_CONTEST_H
#define CLKIT_GRADER_CONTEST_H

#include "judge/course.h"

/* One student's entry for one lab: its rate (GB/s or GFLOP/s, higher is faster) on its device. */
struct contest_entry {
    char student[256], lab[16], device[128];
    double rate;
    int correct;  /* every correctness test of the lab passed: only then does it compete */
    double ratio; /* the fastest correct rate of its lab and device over its own (1: the fastest; 0: not placed) */
    double extra; /* points within the course's tiers */
};

/* Places entries: each correct entry's ratio to the fastest correct rate of its lab and device, and its extra
   points from tiers (the first tier whose ratio it is within). */
void contest_place(struct contest_entry *entries, int count, const struct course_tier *tiers, int tier_count);

/* Reads the class's NAME.record files in results_dir, places them and writes results_dir/contest.csv (lab, device,
   student, rate, ratio, extra points; fastest first); returns 0, or -1 after printing why. */
int contest_write(const char *results_dir, const char *const *names, int count, const struct course *course);

#endif
