#include "suites.h"

#include "data.h"
#include "histogram.h"
#include "problem.h"

#include <stdlib.h>

/* Inputs are clk_fill_real's streams 0 and 1, so that a host program and the grader make the same problem. */
START_TEST(inputs_are_the_seeded_streams)
{
    struct clk_problem p;
    const size_t dims[3] = {5, 3, 4};
    ck_assert_int_eq(clk_problem_make(CLK_PROBLEM_MATMUL, dims, 7, &p), 0);
    ck_assert_uint_eq(p.input_lengths[0], 20);
    ck_assert_uint_eq(p.input_lengths[1], 12);
    ck_assert_uint_eq(p.length, 15);
    for (size_t i = 0; i < 20; i++)
        ck_assert_float_eq(p.inputs[0][i], clk_real_at(7, 0, i));
    for (size_t i = 0; i < 12; i++)
        ck_assert_float_eq(p.inputs[1][i], clk_real_at(7, 1, i));
    double c01 = 0.0; /* row 0, column 1 of A B, by hand */
    for (size_t k = 0; k < 4; k++)
        c01 += (double)p.inputs[0][k] * p.inputs[1][k * 3 + 1];
    ck_assert_double_eq_tol(p.expected[1], c01, 1e-12);
    clk_problem_free(&p);
    ck_assert_ptr_null(p.expected);
}
END_TEST

/* The probes: a - b, the sum of a (with the host's bound), and a copy. */
START_TEST(probes_compute_what_the_probe_kernels_do)
{
    size_t n = 9, shape[2] = {3, 4};
    double *expected, *bound, *plain_expected, *plain_bound;
    ck_assert_uint_eq(clk_problem_reference(CLK_PROBLEM_VADD, &n, 3, 1, &expected, &bound), 9);
    ck_assert_double_eq_tol(expected[4], (double)clk_real_at(3, 0, 4) - clk_real_at(3, 1, 4), 1e-12);
    free(expected);
    free(bound);
    ck_assert_uint_eq(clk_problem_reference(CLK_PROBLEM_DOT, &n, 3, 1, &expected, &bound), 1);
    double sum = 0.0;
    for (size_t i = 0; i < n; i++)
        sum += clk_real_at(3, 0, i);
    ck_assert_double_eq_tol(expected[0], sum, 1e-9);
    ck_assert_uint_eq(clk_problem_reference(CLK_PROBLEM_DOT, &n, 3, 0, &plain_expected, &plain_bound), 1);
    ck_assert_double_ne(plain_expected[0], expected[0]);
    free(expected);
    free(bound);
    free(plain_expected);
    free(plain_bound);
    ck_assert_uint_eq(clk_problem_reference(CLK_PROBLEM_TRANSPOSE, shape, 3, 1, &expected, &bound), 12);
    ck_assert_double_eq(expected[5], clk_real_at(3, 0, 5)); /* a copy, not a transpose */
    ck_assert_double_eq(bound[5], 0.0);
    free(expected);
    free(bound);
    size_t image[3] = {3, 4, 2}; /* H, W, R: the conv2d probe copies the image too */
    ck_assert_uint_eq(clk_problem_reference(CLK_PROBLEM_CONV2D, image, 3, 1, &expected, &bound), 12);
    ck_assert_double_eq(expected[7], clk_real_at(3, 0, 7));
    free(expected);
    free(bound);
}
END_TEST

/* Lab 10's host problem: n uint words below 256 from stream 0, their exact counts, and the probe's bins reversed. */
START_TEST(histogram_counts_exactly_and_its_probe_reverses)
{
    struct clk_problem p;
    size_t n = 1001;
    double *probe, *bound, total = 0.0;
    ck_assert_int_eq(clk_problem_make(CLK_PROBLEM_HISTOGRAM, &n, 3, &p), 0);
    ck_assert_uint_eq(p.input_count, 1);
    ck_assert_uint_eq(p.length, CLK_HIST_HOST_BINS);
    const uint32_t *data = (const uint32_t *)(const void *)p.inputs[0];
    for (size_t i = 0; i < n; i++)
        ck_assert_uint_eq(data[i], clk_hist_value(3, 0, i, CLK_HIST_HOST_BINS, CLK_HIST_UNIFORM));
    for (size_t v = 0; v < CLK_HIST_HOST_BINS; v++) {
        total += p.expected[v];
        ck_assert_double_eq(p.bound[v], 0.0);
    }
    ck_assert_double_eq(total, (double)n);
    ck_assert_uint_eq(clk_problem_reference(CLK_PROBLEM_HISTOGRAM, &n, 3, 1, &probe, &bound), CLK_HIST_HOST_BINS);
    for (size_t v = 0; v < CLK_HIST_HOST_BINS; v++)
        ck_assert_double_eq(probe[v], p.expected[CLK_HIST_HOST_BINS - 1 - v]);
    free(probe);
    free(bound);
    clk_problem_free(&p);
}
END_TEST

Suite *problem_suite(void)
{
    Suite *s = suite_create("problem");
    TCase *tc = tcase_create("make");
    tcase_add_test(tc, inputs_are_the_seeded_streams);
    tcase_add_test(tc, probes_compute_what_the_probe_kernels_do);
    tcase_add_test(tc, histogram_counts_exactly_and_its_probe_reverses);
    suite_add_tcase(s, tc);
    return s;
}
