#include "suites.h"

#include "labs/registry.h"
#include "commands/calibrate.h"

#include <math.h>
#include <string.h>

START_TEST(threshold_is_the_geometric_midpoint)
{
    const double speedups[] = {2.10, 2.02, 1.69, 2.25, 2.00}; /* lowest 1.69 */
    struct perf_rule rule;
    calibrate_rule(speedups, 5, NULL, &rule);
    ck_assert_double_eq_tol(rule.min_speedup, floor(sqrt(1.69) * 100) / 100, 1e-12);
    ck_assert_double_eq_tol(rule.min_speedup, 1.30, 1e-12);
    ck_assert_int_eq(rule.informational, 0);
    ck_assert_double_eq(rule.points, CALIBRATE_POINTS);
}
END_TEST

START_TEST(one_slow_run_makes_it_informational)
{
    const double speedups[] = {1.9, 1.8, 1.1, 2.0}; /* the effect is not reliable on this device */
    struct perf_rule rule;
    calibrate_rule(speedups, 4, NULL, &rule);
    ck_assert_int_eq(rule.informational, 1);
}
END_TEST

START_TEST(small_effect_is_informational)
{
    const double speedups[] = {1.01, 0.99, 1.03};
    struct perf_rule rule;
    calibrate_rule(speedups, 3, "on CPUs, coalescing makes little difference; try a GPU", &rule);
    ck_assert_int_eq(rule.informational, 1);
    ck_assert_double_eq(rule.min_speedup, 0.0);
    ck_assert_str_eq(rule.note, "on CPUs, coalescing makes little difference; try a GPU");
    calibrate_rule(speedups, 3, NULL, &rule);
    ck_assert_ptr_nonnull(strstr(rule.note, "1.01x the speed of the baseline"));
}
END_TEST

START_TEST(formatted_lines_parse_back)
{
    const double speedups[] = {1.9, 2.1, 2.0};
    struct perf_rule rule;
    struct profile p;
    char text[1024], error[128];
    calibrate_rule(speedups, 3, NULL, &rule);
    calibrate_format("lab6", "the solution's speedup over naive matmul", speedups, 3, &rule, text, sizeof text);
    ck_assert_ptr_nonnull(strstr(text, "# lab6: the solution's speedup over naive matmul, 3 runs: 1.900 2.100 2.000"));
    profile_defaults(0, &p);
    ck_assert_int_eq(profile_parse(text, &p, error, sizeof error), 0);
    ck_assert_double_eq(p.labs[LAB(6)].min_speedup, rule.min_speedup);
    ck_assert_int_eq(p.labs[LAB(6)].informational, 0);
}
END_TEST


/* Kattis-style: a threshold is kept only where it separates the solution from the known-slow submissions, and sits
   between them, recorded in the profile. */
START_TEST(threshold_separates_the_known_slow)
{
    const double solution[] = {2.10, 2.02, 1.96, 2.25, 2.00}, slow[] = {1.02, 1.04, 1.01}, close[] = {1.80, 1.70};
    struct perf_rule rule;
    calibrate_separate(solution, 5, slow, 3, NULL, &rule);
    ck_assert_int_eq(rule.informational, 0);
    ck_assert_double_eq_tol(rule.min_speedup, floor(sqrt(1.96 * 1.04) * 100) / 100, 1e-12);
    ck_assert_double_gt(rule.min_speedup, 1.04);
    ck_assert_double_lt(rule.min_speedup, 1.96);
    ck_assert_double_eq(rule.solution_low, 1.96);
    ck_assert_double_eq(rule.slow_high, 1.04);
    ck_assert_double_ge(profile_margin(&rule), PROFILE_MIN_MARGIN);
    /* A slow submission within 1.15 times of the solution: nothing to grade. */
    calibrate_separate(solution, 5, close, 2, NULL, &rule);
    ck_assert_int_eq(rule.informational, 1);
    ck_assert_ptr_nonnull(strstr(rule.note, "known-slow submission ran at 1.80x"));
}
END_TEST

START_TEST(records_parse_back_and_are_checked)
{
    const double solution[] = {1.9, 2.1, 2.0}, slow[] = {0.98, 1.01};
    struct perf_rule rule;
    struct profile p;
    char text[1024], error[256];
    calibrate_separate(solution, 3, slow, 2, NULL, &rule);
    calibrate_format("lab6", "the solution's speedup over naive matmul", solution, 3, &rule, text, sizeof text);
    profile_defaults(1, &p);
    ck_assert_msg(profile_parse(text, &p, error, sizeof error) == 0, "%s", error);
    ck_assert_double_eq_tol(p.labs[LAB(6)].solution_low, 1.9, 1e-9);
    ck_assert_double_eq_tol(p.labs[LAB(6)].slow_high, 1.01, 1e-9);
    ck_assert_double_eq(p.labs[LAB(6)].points, CALIBRATE_POINTS);
    /* A threshold edited past a record is refused. */
    profile_defaults(1, &p);
    ck_assert_int_eq(profile_parse("lab6.min_speedup = 1.95\nlab6.solution_low = 1.9\nlab6.points = 2\n"
                                   "lab6.mode = scored\n", &p, error, sizeof error), -1);
    ck_assert_ptr_nonnull(strstr(error, "lab6"));
    profile_defaults(1, &p);
    ck_assert_int_eq(profile_parse("lab6.min_speedup = 1.2\nlab6.slow_high = 1.19\nlab6.points = 2\n"
                                   "lab6.mode = scored\n", &p, error, sizeof error), -1);
}
END_TEST

Suite *calibrate_suite(void)
{
    Suite *s = suite_create("calibrate");
    TCase *tc = tcase_create("arithmetic");
    tcase_add_test(tc, threshold_is_the_geometric_midpoint);
    tcase_add_test(tc, one_slow_run_makes_it_informational);
    tcase_add_test(tc, small_effect_is_informational);
    tcase_add_test(tc, formatted_lines_parse_back);
    tcase_add_test(tc, threshold_separates_the_known_slow);
    tcase_add_test(tc, records_parse_back_and_are_checked);
    suite_add_tcase(s, tc);
    return s;
}
