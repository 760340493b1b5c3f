#include "verify.h"

#include <math.h>

int clk_within(float got, double expected, double bound)
{
    if (!isfinite(got))
        return 0;
    return fabs((double)got - expected) <= bound;
}

size_t clk_count_wrong(const float *got, const double *expected, const double *bound, size_t n, size_t *first)
{
    size_t wrong = 0;
    for (size_t i = 0; i < n; i++) {
        if (clk_within(got[i], expected[i], bound[i]))
            continue;
        if (wrong == 0 && first)
            *first = i;
        wrong++;
    }
    return wrong;
}
