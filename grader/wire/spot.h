/* The check of a timed run: a sample of its result, drawn after the run, against single-input references. */
#ifndef CLKIT_GRADER_SPOT_H
#define CLKIT_GRADER_SPOT_H

#include "labs/spec.h"

#include <stddef.h>
#include <stdint.h>

/* How many results a timed run's check reads at most. */
#define SPOT_SAMPLES 256

/* Fills at with the result indices (below length) that sample_seed selects: the first, the last and random ones;
   all of them when length is small. Returns how many (at most SPOT_SAMPLES). Judge and runner draw the same. */
size_t spot_draw(uint64_t sample_seed, size_t length, size_t *at);

/* Judges values (the results at the indices spot_draw gives for sample_seed) of lab's timed case c, whose inputs
   came from data_seed; returns how many are wrong and describes the first in text. */
size_t spot_check(const struct grade_lab_spec *lab, const struct grade_case *c, uint64_t data_seed,
                  uint64_t sample_seed, const float *values, size_t count, char *text, size_t size);

#endif
