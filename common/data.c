#include "data.h"

uint64_t clk_random_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static uint64_t stream_state(uint64_t seed, unsigned stream)
{
    uint64_t state = seed ^ (0xD1B54A32D192ED03ull * (stream + 1u));
    clk_random_next(&state);
    return state;
}

/* 2^-6 to 2^12: large enough that a kernel clamping its inputs (to +-64, say) changes them, small enough that a
   product summed over the largest K stays far inside a float's range, where every family's bound is relative. */
#define POWERS 19
static const float powers_of_two[POWERS] = {0.015625f, 0.03125f, 0.0625f, 0.125f, 0.25f,  0.5f,   1.0f,
                                            2.0f,      4.0f,     8.0f,    16.0f,  32.0f,  64.0f,  128.0f,
                                            256.0f,    512.0f,   1024.0f, 2048.0f, 4096.0f};

static float real_from_bits(uint64_t bits)
{
    /* The top 24 bits make a float in [0, 1) exactly. */
    float unit = (float)(bits >> 40) * (1.0f / 16777216.0f);
    /* Scaling by a power of two is exact: the spread tests indices and clamps, not rounding. */
    return (2.0f * unit - 1.0f) * powers_of_two[bits % POWERS];
}

void clk_fill_real(float *values, size_t count, uint64_t seed, unsigned stream)
{
    uint64_t state = stream_state(seed, stream);
    for (size_t i = 0; i < count; i++)
        values[i] = real_from_bits(clk_random_next(&state));
}

float clk_real_at(uint64_t seed, unsigned stream, size_t index)
{
    /* splitmix64 steps its state by a constant, so the state before value index is known at once. */
    uint64_t state = stream_state(seed, stream) + (uint64_t)index * 0x9E3779B97F4A7C15ull;
    return real_from_bits(clk_random_next(&state));
}

void clk_fill_exact(float *values, size_t count, uint64_t seed, unsigned stream)
{
    uint64_t state = stream_state(seed, stream);
    for (size_t i = 0; i < count; i++)
        values[i] = (float)((int)(clk_random_next(&state) % 9u) - 4);
}
