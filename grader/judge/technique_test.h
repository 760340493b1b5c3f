/* The technique test: a lab's technique record (labs/technique.h) applied to the reference judge's counts. */
#ifndef CLKIT_GRADER_TECHNIQUE_H
#define CLKIT_GRADER_TECHNIQUE_H

#include "judge/oclgrind_counts.h"
#include "labs/spec.h"
#include "judge/result.h"

struct reference;

/* Judges counts by lab's technique record; fills text with the figure next to its budget and returns 1 when it
   passes, 0 when it fails, and -1 when the counts the record needs were not measured. */
int technique_judge(const struct grade_lab_spec *lab, const struct technique_counts *counts, char *text, size_t size);

/* Adds the "technique" test to result: the reference judge's counts of the lab's technique case, once the kernel
   is right (correct says so); on a GPU (device_is_gpu) whose profile separates the solution's speed from the
   baseline's, the speed test already in result must agree. */
void technique_test(const struct grade_lab_spec *lab, const struct reference *ref, int correct, int device_is_gpu,
                    struct grade_lab_result *result);

#endif
