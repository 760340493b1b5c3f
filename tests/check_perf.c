#include "suites.h"

#include "perf/perf.h"

START_TEST(spread_of_steady_ratios_is_small)
{
    const double ratios[] = {2.0, 2.01, 1.99, 2.0, 2.02, 1.98, 2.0};
    ck_assert_double_lt(perf_spread(ratios, 7), 0.03);
}
END_TEST

START_TEST(spread_of_noisy_ratios_is_large)
{
    const double ratios[] = {1.0, 2.0, 1.5, 3.0, 1.2, 2.5, 1.8};
    ck_assert_double_gt(perf_spread(ratios, 7), 0.3);
}
END_TEST

START_TEST(spread_ignores_one_outlier)
{
    const double ratios[] = {2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 50.0};
    ck_assert_double_eq(perf_spread(ratios, 7), 0.0);
}
END_TEST

START_TEST(spread_of_too_few)
{
    const double ratios[] = {2.0};
    ck_assert_double_eq(perf_spread(ratios, 1), 0.0);
}
END_TEST

Suite *perf_suite(void)
{
    Suite *s = suite_create("perf");
    TCase *tc = tcase_create("statistics");
    tcase_add_test(tc, spread_of_steady_ratios_is_small);
    tcase_add_test(tc, spread_of_noisy_ratios_is_large);
    tcase_add_test(tc, spread_ignores_one_outlier);
    tcase_add_test(tc, spread_of_too_few);
    suite_add_tcase(s, tc);
    return s;
}
