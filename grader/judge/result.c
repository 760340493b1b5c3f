#include "judge/result.h"

#include "judge/safetext.h"
#include "timing.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Reasons carry compiler logs and program output: whatever a submission printed is cleaned to this size. */
#define REASON_CAP 16384

struct grade_test *result_add(struct grade_lab_result *result, const char *name, double score, double max,
                              int passed, const char *reason)
{
    struct grade_test *test;
    double now = clk_now_s();
    if (result->test_count >= GRADE_MAX_TESTS)
        return NULL;
    test = &result->tests[result->test_count++];
    memset(test, 0, sizeof *test);
    test->seconds = result->marked > 0 && now > result->marked ? now - result->marked : 0.0;
    result->marked = now;
    snprintf(test->name, sizeof test->name, "%s", name);
    test->score = score;
    test->max = max;
    test->passed = passed;
    test->reason = safetext_clean(reason ? reason : "", REASON_CAP);
    if (!isfinite(score) || !isfinite(max))
        test->score = test->max = 0.0, test->passed = 0;
    return test;
}

void result_free(struct grade_lab_result *result)
{
    for (int i = 0; i < result->test_count; i++)
        free(result->tests[i].reason);
    free(result->setup_error);
    result->test_count = 0;
    result->setup_error = NULL;
}
