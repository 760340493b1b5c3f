#include "suites.h"

#include "conv2d.h"
#include "reference.h"

#include <float.h>
#include <math.h>

START_TEST(vadd_values)
{
    const float a[] = {1.0f, -2.5f, 1e30f}, b[] = {2.0f, 0.5f, 1e30f};
    double expected[3], bound[3];
    clk_ref_vadd(a, b, 3, expected, bound);
    ck_assert_double_eq(expected[0], 3.0);
    ck_assert_double_eq(expected[1], -2.0);
    ck_assert_double_eq_tol(expected[2], 2.0 * (double)1e30f, 1.0);
    ck_assert(bound[0] > 0.0 && bound[0] < 1e-6);
}
END_TEST

START_TEST(dot_partials_add_up_to_the_dot)
{
    float a[10], b[10];
    double partial[3], bound[3], dot, dot_bound;
    for (int i = 0; i < 10; i++)
        a[i] = (float)i, b[i] = (float)(i % 3);
    clk_ref_dot_partials(a, b, 10, 3, partial, bound);
    clk_ref_dot(a, b, 10, &dot, &dot_bound);
    /* Work-item 0 sums elements 0, 3, 6, 9. */
    ck_assert_double_eq(partial[0], 0 * 0 + 3 * 0 + 6 * 0 + 9 * 0);
    ck_assert_double_eq(partial[1], 1 * 1 + 4 * 1 + 7 * 1);
    ck_assert_double_eq(partial[0] + partial[1] + partial[2], dot);
}
END_TEST

START_TEST(dot_partials_past_n_are_zero)
{
    const float a[] = {2.0f}, b[] = {3.0f};
    double partial[4], bound[4];
    clk_ref_dot_partials(a, b, 1, 4, partial, bound);
    ck_assert_double_eq(partial[0], 6.0);
    ck_assert_double_eq(partial[3], 0.0);
    ck_assert_double_eq(bound[3], 0.0);
}
END_TEST

START_TEST(matmul_small)
{
    /* [1 2 3; 4 5 6] (2x3) times [1 0; 0 1; 1 1] (3x2) = [4 5; 10 11]. */
    const float A[] = {1, 2, 3, 4, 5, 6}, B[] = {1, 0, 0, 1, 1, 1};
    double C[4], bound[4];
    clk_ref_matmul(A, B, 2, 2, 3, C, bound);
    ck_assert_double_eq(C[0], 4.0);
    ck_assert_double_eq(C[1], 5.0);
    ck_assert_double_eq(C[2], 10.0);
    ck_assert_double_eq(C[3], 11.0);
}
END_TEST

START_TEST(transpose_small)
{
    const float in[] = {1, 2, 3, 4, 5, 6}; /* 2 x 3 */
    double out[6], bound[6];
    clk_ref_transpose(in, 2, 3, out, bound);
    ck_assert_double_eq(out[0], 1.0);
    ck_assert_double_eq(out[1], 4.0);
    ck_assert_double_eq(out[2], 2.0);
    ck_assert_double_eq(out[5], 6.0);
    ck_assert_double_eq(bound[3], 0.0);
}
END_TEST

/* common/conv2d.c: a box filter over 1..9 sums each 3 x 3 neighbourhood, zero outside the image, so a corner adds
   4 values and the centre all 9; a filter wider than the image sees only the image. */
START_TEST(conv2d_box_filter_zero_outside)
{
    const float in[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    float box[25];
    double expected[9], bound[9];
    for (int i = 0; i < 25; i++)
        box[i] = 1.0f;
    clk_ref_conv2d(in, 3, 3, box, 1, expected, bound);
    ck_assert_double_eq(expected[0], 1 + 2 + 4 + 5);
    ck_assert_double_eq(expected[4], 45);
    ck_assert_double_eq(expected[8], 5 + 6 + 8 + 9);
    ck_assert(bound[4] > 0.0);
    clk_ref_conv2d(in, 3, 3, box, 2, expected, bound);
    for (int i = 0; i < 9; i++)
        ck_assert_double_eq(expected[i], 45);
}
END_TEST

START_TEST(sum_bound_grows_like_sqrt)
{
    ck_assert_double_eq_tol(clk_sum_bound(100, 1.0) / clk_sum_bound(1, 1.0), 10.0, 1e-9);
    ck_assert_double_eq_tol(clk_sum_bound(1, 1.0), 2.0 * FLT_EPSILON, 1e-20);
    ck_assert_double_eq(clk_sum_bound(50, 0.0), 0.0);
}
END_TEST

Suite *reference_suite(void)
{
    Suite *s = suite_create("reference");
    TCase *tc = tcase_create("cpu");
    tcase_add_test(tc, vadd_values);
    tcase_add_test(tc, dot_partials_add_up_to_the_dot);
    tcase_add_test(tc, dot_partials_past_n_are_zero);
    tcase_add_test(tc, matmul_small);
    tcase_add_test(tc, transpose_small);
    tcase_add_test(tc, sum_bound_grows_like_sqrt);
    tcase_add_test(tc, conv2d_box_filter_zero_outside);
    suite_add_tcase(s, tc);
    return s;
}
