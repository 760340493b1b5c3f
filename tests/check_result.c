#include "suites.h"

#include "judge/result.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

START_TEST(reasons_are_cleaned)
{
    struct grade_lab_result result;
    memset(&result, 0, sizeof result);
    result_add(&result, "host program", 0, 3, 0, "\033[2J\033[31mfake \xe2\x9c\x93 3.0/3 \xed\xa0\x80\n");
    ck_assert_ptr_null(strchr(result.tests[0].reason, '\033'));
    ck_assert_ptr_nonnull(strstr(result.tests[0].reason, "fake \xe2\x9c\x93 3.0/3 ???\n"));
    result_free(&result);
}
END_TEST

START_TEST(scores_are_finite)
{
    struct grade_lab_result result;
    memset(&result, 0, sizeof result);
    result_add(&result, "speed", NAN, 2, 1, "");
    result_add(&result, "speed", INFINITY, INFINITY, 1, "");
    for (int i = 0; i < 2; i++) {
        ck_assert(isfinite(result.tests[i].score) && isfinite(result.tests[i].max));
        ck_assert_int_eq(result.tests[i].passed, 0);
    }
    result_free(&result);
}
END_TEST

START_TEST(result_fills_up)
{
    struct grade_lab_result result;
    memset(&result, 0, sizeof result);
    for (int i = 0; i < GRADE_MAX_TESTS; i++)
        ck_assert_ptr_nonnull(result_add(&result, "t", 1, 1, 1, "ok"));
    ck_assert_ptr_null(result_add(&result, "one too many", 1, 1, 1, "ok"));
    result_free(&result);
}
END_TEST

Suite *result_suite(void)
{
    Suite *s = suite_create("result");
    TCase *tc = tcase_create("tests");
    tcase_add_test(tc, reasons_are_cleaned);
    tcase_add_test(tc, scores_are_finite);
    tcase_add_test(tc, result_fills_up);
    suite_add_tcase(s, tc);
    return s;
}
