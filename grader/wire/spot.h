/* The sample of a timed run's result: which indices both processes read, drawn after the run. */
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

#endif
