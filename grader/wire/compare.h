/* Verdicts on a result: which elements are wrong, and the pattern that explains them. */
#ifndef CLKIT_GRADER_COMPARE_H
#define CLKIT_GRADER_COMPARE_H

#include "labs/layout.h"

#include <stddef.h>
#include <stdint.h>

/* Why a result is wrong, as a key (compare_summary.cause). */
#define COMPARE_CAUSE_OUT_OF_BOUNDS_READ "out-of-bounds-read"

#define COMPARE_SHOWN 5

struct compare_summary {
    size_t wrong;
    size_t never_written;          /* wrong elements still holding the poison */
    size_t other_nans;             /* wrong elements holding a NaN that is not the poison: computed from it */
    size_t shown[COMPARE_SHOWN];     /* the first wrong indices */
    int shown_count;
    char pattern[320];             /* "" when none stands out */
    const char *cause;             /* a COMPARE_CAUSE_... key when the pattern names one, else NULL */
};

/* Returns 1 when f holds the grader's poison NaN. */
int compare_is_poison(float f);

/* Returns the poison NaN. */
float compare_poison(void);

/* Element i of a result of 4-byte words as a number: the float, int or uint that shape's type says it holds. */
double compare_value(const float *got, const struct compare_shape *shape, size_t i);

/* Returns 1 when element i of got is within bound of expected (never when it is the poison, or not a finite
   float). */
int compare_right_at(const float *got, const struct compare_shape *shape, size_t i, double expected, double bound);

/* Compares got (4-byte words of shape's type) with expected +- bound and fills summary, pattern included. */
void compare_result(const float *got, const double *expected, const double *bound, const struct compare_shape *shape,
                    struct compare_summary *summary);

/* Writes "N of M wrong", the first wrong elements and the pattern, one per line, into text. */
void compare_format(const struct compare_summary *summary, const float *got, const double *expected,
                    const struct compare_shape *shape, char *text, size_t size);

#endif
