/* The check of a timed run: a sample of its result, drawn after the run, against single-input references. */
#ifndef CLKIT_GRADER_SPOT_CHECK_H
#define CLKIT_GRADER_SPOT_CHECK_H

#include "labs/spec.h"
#include "wire/spot.h"

#include <stddef.h>
#include <stdint.h>

/* Judges values (the results at the indices spot_draw gives for sample_seed) of lab's timed case c, whose inputs
   came from data_seed; returns how many are wrong and describes the first in text. */
size_t spot_check(const struct grade_lab_spec *lab, const struct grade_case *c, uint64_t data_seed,
                  uint64_t sample_seed, const float *values, size_t count, char *text, size_t size);

#endif
