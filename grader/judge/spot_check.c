#include "judge/spot_check.h"

#include "data.h"
#include "wire/compare.h"

#include <math.h>
#include <stdio.h>

/* "row 12, column 7" for a 2-D result, "element 123" for a 1-D one. */
static void name_element(const struct grade_lab_spec *lab, const struct grade_case *c, size_t index, char *text,
                         size_t size)
{
    if (lab->family->dim_count == 1)
        snprintf(text, size, "element %zu", index);
    else {
        size_t cols = lab->family->dim_count == 3 ? c->dims[1] : c->dims[0];
        snprintf(text, size, "row %zu, column %zu", index / cols, index % cols);
    }
}

size_t spot_check(const struct grade_lab_spec *lab, const struct grade_case *c, uint64_t data_seed,
                  uint64_t sample_seed, const float *values, size_t count, char *text, size_t size)
{
    size_t at[SPOT_SAMPLES], wrong = 0, never = 0, first = 0;
    double expected[SPOT_SAMPLES], bound[SPOT_SAMPLES];
    char where[96], what[128];
    size_t drawn = spot_draw(sample_seed, lab->family->result_length(c), at);
    struct compare_shape words = {.type = lab->family->result_type}; /* the kernel's result type, integers exact */
    text[0] = '\0';
    if (count != drawn) {
        snprintf(text, size, "the runner returned %zu of the %zu sampled results", count, drawn);
        return drawn ? drawn : 1;
    }
    for (size_t i = 0; i < count; i++) {
        lab->family->spot(c, data_seed, at[i], &expected[i], &bound[i]);
        if (!(fabs(compare_value(values, &words, i) - expected[i]) <= bound[i])) {
            never += (size_t)compare_is_poison(values[i]);
            if (wrong++ == 0)
                first = i;
        }
    }
    if (wrong == 0)
        return 0;
    lab->family->describe(c, what, sizeof what);
    name_element(lab, c, at[first], where, sizeof where);
    snprintf(text, size, "%zu of %zu results sampled after the timed run (%s) are wrong%s; first at %s: %.9g where "
             "%.9g was expected", wrong, count, what, never == wrong ? ", never written" : "", where,
             compare_value(values, &words, first), expected[first]);
    return wrong;
}
