#include "wire/spot.h"

#include "data.h"

size_t spot_draw(uint64_t sample_seed, size_t length, size_t *at)
{
    uint64_t state = sample_seed;
    size_t count = length < SPOT_SAMPLES ? length : SPOT_SAMPLES;
    for (size_t i = 0; i < count; i++)
        at[i] = count == length ? i : i == 0 ? 0 : i == 1 ? length - 1 : clk_random_next(&state) % length;
    return count;
}
