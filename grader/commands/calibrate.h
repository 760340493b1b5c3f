/* Calibration: turn measured speedups of the solutions into a device profile's thresholds. */
#ifndef CLKIT_GRADER_CALIBRATE_H
#define CLKIT_GRADER_CALIBRATE_H

#include "cli/cli.h"
#include "judge/job.h"
#include "judge/profile.h"

#include <stddef.h>

/* Below this median speedup a device shows too little effect to grade: the test becomes informational. */
#define CALIBRATE_MIN_EFFECT 1.15
#define CALIBRATE_POINTS 2.0
/* Timings of each solution that make a threshold. */
#define CALIBRATE_RUNS 7

/* Sets rule from the solution's speedups over the baseline: the threshold is the geometric midpoint
   between 1 (the baseline's own speed) and the lowest speedup the solution showed, so that the solution
   on a bad run and a naive kernel sit equally far from it; a lowest speedup under CALIBRATE_MIN_EFFECT
   makes the test informational. */
void calibrate_rule(const double *speedups, int count, const char *note_if_none, struct perf_rule *rule);

/* Sets rule from the solution's speedups and those of the lab's known-slow submissions (slow_count of them, the
   baseline's 1 always among them): the threshold is the geometric midpoint between the slow ones' highest and the
   solution's lowest, both recorded in rule; where the solution is not CALIBRATE_MIN_EFFECT times the slow ones,
   the test is informational with why in its note. */
void calibrate_separate(const double *speedups, int count, const double *slow, int slow_count,
                        const char *note_if_none, struct perf_rule *rule);

/* Writes the profile lines of the lab named lab, with its measurements as a comment, to text. */
void calibrate_format(const char *lab, const char *what, const double *values, int count,
                      const struct perf_rule *rule, char *text, size_t size);

/* Times every solution against its baseline on the chosen device and writes grader/profiles/<device>.conf;
   returns 0, or 2 when a lab cannot be timed. */
int calibrate_all(struct grading *g);

/* The calibrate command: times the solutions and writes this device's profile (calibrate_all); returns 0 or 2. */
int calibrate_run(struct grading *g, const struct cli *cli);

#endif
