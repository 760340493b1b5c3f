#include "suites.h"

#include "timing.h"

START_TEST(median_of_odd_count)
{
    const double v[] = {5.0, 1.0, 3.0};
    ck_assert_double_eq(clk_median(v, 3), 3.0);
}
END_TEST

START_TEST(median_of_even_count)
{
    const double v[] = {4.0, 1.0, 3.0, 100.0};
    ck_assert_double_eq(clk_median(v, 4), 3.5);
}
END_TEST

START_TEST(median_ignores_one_outlier)
{
    const double v[] = {1.0, 1.1, 0.9, 1.0, 1000.0};
    ck_assert_double_eq(clk_median(v, 5), 1.0);
}
END_TEST

START_TEST(median_leaves_input_alone)
{
    double v[] = {3.0, 1.0, 2.0};
    clk_median(v, 3);
    ck_assert_double_eq(v[0], 3.0);
    ck_assert_double_eq(v[1], 1.0);
    ck_assert_double_eq(v[2], 2.0);
}
END_TEST

START_TEST(median_of_nothing_and_one)
{
    const double v[] = {7.0};
    ck_assert_double_eq(clk_median(v, 0), 0.0);
    ck_assert_double_eq(clk_median(v, 1), 7.0);
}
END_TEST

START_TEST(bandwidth)
{
    ck_assert_double_eq_tol(clk_gbps(2e9, 1000.0), 2.0, 1e-12);
    ck_assert_double_eq_tol(clk_gbps(12e6, 1.0), 12.0, 1e-12);
    ck_assert_double_eq(clk_gbps(1e9, 0.0), 0.0);
}
END_TEST

Suite *timing_suite(void)
{
    Suite *s = suite_create("timing");
    TCase *tc = tcase_create("median");
    tcase_add_test(tc, median_of_odd_count);
    tcase_add_test(tc, median_of_even_count);
    tcase_add_test(tc, median_ignores_one_outlier);
    tcase_add_test(tc, median_leaves_input_alone);
    tcase_add_test(tc, median_of_nothing_and_one);
    tcase_add_test(tc, bandwidth);
    suite_add_tcase(s, tc);
    return s;
}
