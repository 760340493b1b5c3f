/* Deterministic input data: the same seed gives the same floats on every machine. */
#ifndef CLKIT_DATA_H
#define CLKIT_DATA_H

#include <stddef.h>
#include <stdint.h>

/* Fills values with reals of both signs and magnitudes from 2^-6 to 2^12 (a uniform value in [-1, 1) times a
   random power of two), from (seed, stream); each stream is an independent sequence. */
void clk_fill_real(float *values, size_t count, uint64_t seed, unsigned stream);

/* The value clk_fill_real(values, count > index, seed, stream) puts in values[index], computed alone: a check can
   draw single inputs of a large case without making the case. */
float clk_real_at(uint64_t seed, unsigned stream, size_t index);

/* Fills values with small integers in [-4, 4] from (seed, stream), for which float sums stay exact. */
void clk_fill_exact(float *values, size_t count, uint64_t seed, unsigned stream);

/* Returns the next value of a splitmix64 generator whose state is *state. */
uint64_t clk_random_next(uint64_t *state);

#endif
