#include "suites.h"

#include "data.h"
#include "histogram.h"
#include "scan.h"
#include "judge/host_probe.h"
#include "problem.h"

#include <stdlib.h>
#include <string.h>

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

/* The probes' references, the judge's alone: a - b s, the sum of a times s (with the host's bound), A times a B of
   s, and a copy times s; the secret changes every value, so that no reference made without it fits. */
START_TEST(probes_compute_what_the_probe_kernels_do)
{
    size_t n = 9, shape[2] = {3, 4}, dims[3] = {2, 3, 4};
    const float s = 1.75f;
    double *expected, *bound, *plain_expected, *plain_bound, *other, *other_bound;
    ck_assert_uint_eq(probe_reference(CLK_PROBLEM_VADD, &n, 3, s, &expected, &bound), 9);
    ck_assert_double_eq_tol(expected[4], (double)clk_real_at(3, 0, 4) - (double)clk_real_at(3, 1, 4) * s, 1e-12);
    ck_assert_uint_eq(probe_reference(CLK_PROBLEM_VADD, &n, 3, 2.5f, &other, &other_bound), 9);
    ck_assert_double_ne(other[4], expected[4]);
    free(expected);
    free(bound);
    free(other);
    free(other_bound);
    ck_assert_uint_eq(probe_reference(CLK_PROBLEM_DOT, &n, 3, s, &expected, &bound), 1);
    double sum = 0.0;
    for (size_t i = 0; i < n; i++)
        sum += clk_real_at(3, 0, i);
    ck_assert_double_eq_tol(expected[0], sum * s, 1e-9);
    ck_assert_uint_eq(clk_problem_reference(CLK_PROBLEM_DOT, &n, 3, &plain_expected, &plain_bound), 1);
    ck_assert_double_ne(plain_expected[0], expected[0]);
    free(expected);
    free(bound);
    free(plain_expected);
    free(plain_bound);
    ck_assert_uint_eq(probe_reference(CLK_PROBLEM_MATMUL, dims, 3, s, &expected, &bound), 6);
    sum = 0.0; /* row 1 of A, times s */
    for (size_t k = 0; k < 4; k++)
        sum += clk_real_at(3, 0, 4 + k);
    ck_assert_double_eq_tol(expected[3], sum * s, 1e-9);
    free(expected);
    free(bound);
    ck_assert_uint_eq(probe_reference(CLK_PROBLEM_TRANSPOSE, shape, 3, s, &expected, &bound), 12);
    ck_assert_double_eq(expected[5], (double)clk_real_at(3, 0, 5) * s); /* a copy, not a transpose */
    free(expected);
    free(bound);
    size_t image[3] = {3, 4, 2}; /* H, W, R: the conv2d probe copies the image times s too */
    ck_assert_uint_eq(probe_reference(CLK_PROBLEM_CONV2D, image, 3, s, &expected, &bound), 12);
    ck_assert_double_eq(expected[7], (double)clk_real_at(3, 0, 7) * s);
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
    float s = 1.25f + 100.0f * 1.5f / 4096.0f; /* bits 100: a shift of 300 */
    ck_assert_uint_eq(probe_reference(CLK_PROBLEM_HISTOGRAM, &n, 3, s, &probe, &bound), CLK_HIST_HOST_BINS);
    for (size_t v = 0; v < CLK_HIST_HOST_BINS; v++)
        ck_assert_double_eq(probe[CLK_HIST_HOST_BINS - 1 - (v + 300) % CLK_HIST_HOST_BINS], p.expected[v]);
    free(probe);
    free(bound);
    clk_problem_free(&p);
}
END_TEST

/* Lab 11's host problem: n 32-bit uint words from stream 0 and their exclusive scan modulo 2^32 (it wraps), exact;
   the probe's is the scan of each value plus the shift from the secret. */
START_TEST(scan_wraps_exactly_and_its_probe_shifts)
{
    struct clk_problem p;
    size_t n = 1001, wraps = 0;
    double *probe, *bound;
    ck_assert_int_eq(clk_problem_make(CLK_PROBLEM_SCAN, &n, 3, &p), 0);
    ck_assert_uint_eq(p.input_count, 1);
    ck_assert_uint_eq(p.length, n);
    const uint32_t *data = (const uint32_t *)(const void *)p.inputs[0];
    uint32_t running = 0, shifted = 0;
    float s = 1.25f + 100.0f * 1.5f / 4096.0f; /* bits 100: a shift of 300 */
    ck_assert_uint_eq(probe_reference(CLK_PROBLEM_SCAN, &n, 3, s, &probe, &bound), n);
    for (size_t i = 0; i < n; i++) {
        ck_assert_uint_eq(data[i], clk_scan_value(3, 0, i, 0));
        ck_assert_double_eq(p.expected[i], (double)running);
        ck_assert_double_eq(probe[i], (double)shifted);
        ck_assert_double_eq(p.bound[i], 0.0);
        wraps += running + data[i] < running;
        running += data[i];
        shifted += data[i] + 300;
    }
    ck_assert_uint_gt(wraps, 100);
    free(probe);
    free(bound);
    clk_problem_free(&p);
}
END_TEST

/* The staged probe says nothing of what it is: no comment, the lab's kernel name, the secret as a literal. */
START_TEST(staged_probe_is_the_labs_kernel_with_the_secret)
{
    char *source = probe_source("kernels/probe_vadd.cl", "vadd", 1.75f);
    ck_assert_ptr_nonnull(source);
    ck_assert_msg(strstr(source, "__kernel void vadd(") && strstr(source, "0x1.cp+0f") && !strstr(source, "PROBE") &&
                  !strstr(source, "probe") && !strstr(source, "/*"), "%s", source);
    free(source);
    float secret = probe_secret();
    ck_assert(secret >= 1.25f && secret < 2.75f);
}
END_TEST

Suite *problem_suite(void)
{
    Suite *s = suite_create("problem");
    TCase *tc = tcase_create("make");
    tcase_add_test(tc, inputs_are_the_seeded_streams);
    tcase_add_test(tc, probes_compute_what_the_probe_kernels_do);
    tcase_add_test(tc, histogram_counts_exactly_and_its_probe_reverses);
    tcase_add_test(tc, scan_wraps_exactly_and_its_probe_shifts);
    tcase_add_test(tc, staged_probe_is_the_labs_kernel_with_the_secret);
    suite_add_tcase(s, tc);
    return s;
}
