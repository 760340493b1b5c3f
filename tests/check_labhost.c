#include "suites.h"

#include "labhost.h"

#include <stdlib.h>

START_TEST(round_up)
{
    ck_assert_uint_eq(clk_round_up(1, 64), 64);
    ck_assert_uint_eq(clk_round_up(64, 64), 64);
    ck_assert_uint_eq(clk_round_up(65, 64), 128);
    ck_assert_uint_eq(clk_round_up(517, 16), 528);
}
END_TEST

START_TEST(alloc_is_zeroed)
{
    float *values = clk_lab_alloc(1000, sizeof *values, "test");
    ck_assert_ptr_nonnull(values);
    for (int i = 0; i < 1000; i++)
        ck_assert(values[i] == 0.0f);
    free(values);
}
END_TEST

START_TEST(verdict_passes_and_fails)
{
    const float right[] = {1.0f, 2.0f}, wrong[] = {1.0f, 3.0f};
    const double expected[] = {1.0, 2.0}, bound[] = {0.0, 0.0};
    struct clk_options opts = {0};
    ck_assert_int_eq(clk_lab_verdict("test", &opts, right, expected, bound, 2, 1.0, 1.0, "GB/s"), 0);
    ck_assert_int_eq(clk_lab_verdict("test", &opts, wrong, expected, bound, 2, 1.0, 1.0, "GB/s"), 1);
}
END_TEST

Suite *labhost_suite(void)
{
    Suite *s = suite_create("labhost");
    TCase *tc = tcase_create("helpers");
    tcase_add_test(tc, round_up);
    tcase_add_test(tc, alloc_is_zeroed);
    tcase_add_test(tc, verdict_passes_and_fails);
    suite_add_tcase(s, tc);
    return s;
}
