#include "suites.h"

#include "verify.h"

#include <math.h>

START_TEST(within_bounds)
{
    ck_assert_int_eq(clk_within(1.0f, 1.0, 0.0), 1);
    ck_assert_int_eq(clk_within(1.5f, 1.0, 0.5), 1);
    ck_assert_int_eq(clk_within(1.5f, 1.0, 0.49), 0);
}
END_TEST

START_TEST(nan_and_infinity_are_wrong)
{
    ck_assert_int_eq(clk_within(NAN, 1.0, 1e30), 0);
    ck_assert_int_eq(clk_within(INFINITY, 1.0, 1e30), 0);
    ck_assert_int_eq(clk_within(-INFINITY, -1e300, 1e300), 0);
}
END_TEST

START_TEST(counts_and_finds_the_first)
{
    const float got[] = {1.0f, 2.0f, 9.0f, 4.0f, NAN};
    const double expected[] = {1.0, 2.0, 3.0, 4.0, 5.0}, bound[] = {0, 0, 0, 0, 0};
    size_t first = 99;
    ck_assert_uint_eq(clk_count_wrong(got, expected, bound, 5, &first), 2);
    ck_assert_uint_eq(first, 2);
    ck_assert_uint_eq(clk_count_wrong(got, expected, bound, 2, NULL), 0);
}
END_TEST

Suite *verify_suite(void)
{
    Suite *s = suite_create("verify");
    TCase *tc = tcase_create("tolerance");
    tcase_add_test(tc, within_bounds);
    tcase_add_test(tc, nan_and_infinity_are_wrong);
    tcase_add_test(tc, counts_and_finds_the_first);
    suite_add_tcase(s, tc);
    return s;
}
