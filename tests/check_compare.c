#include "suites.h"

#include "wire/compare.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#define N 256

static float got[N];
static double expected[N], bound[N];

static void setup(void)
{
    for (int i = 0; i < N; i++) {
        expected[i] = i % 7 - 3.0 + 0.5;
        bound[i] = 0.0;
        got[i] = (float)expected[i];
    }
}

static struct compare_summary compare_1d(size_t block, size_t grid)
{
    struct compare_shape shape = {.count = N, .block = block, .grid = grid};
    struct compare_summary summary;
    compare_result(got, expected, bound, &shape, &summary);
    return summary;
}

START_TEST(right_result_has_no_pattern)
{
    struct compare_summary s = compare_1d(64, 0);
    ck_assert_uint_eq(s.wrong, 0);
    ck_assert_str_eq(s.pattern, "");
}
END_TEST

START_TEST(poison_means_never_written)
{
    for (int i = 0; i < N; i++)
        got[i] = compare_poison();
    struct compare_summary s = compare_1d(64, 0);
    ck_assert_uint_eq(s.wrong, N);
    ck_assert_uint_eq(s.never_written, N);
    ck_assert_ptr_nonnull(strstr(s.pattern, "wrote no element"));
    ck_assert(isnan(compare_poison()) && compare_is_poison(compare_poison()) && !compare_is_poison(NAN));
}
END_TEST

START_TEST(all_zeros)
{
    memset(got, 0, sizeof got);
    ck_assert_ptr_nonnull(strstr(compare_1d(64, 0).pattern, "every element is zero"));
}
END_TEST

START_TEST(only_first_work_group)
{
    for (int i = 64; i < N; i++)
        got[i] = compare_poison();
    ck_assert_ptr_nonnull(strstr(compare_1d(64, 0).pattern, "only the first work-group"));
}
END_TEST

START_TEST(missing_stride_loop)
{
    for (int i = 128; i < N; i++)
        got[i] = compare_poison();
    ck_assert_ptr_nonnull(strstr(compare_1d(64, 128).pattern, "grid-stride loop missing"));
}
END_TEST

START_TEST(tail_past_last_full_group)
{
    struct compare_shape shape = {.count = 250, .block = 64};
    struct compare_summary s;
    for (int i = 192; i < 250; i++)
        got[i] = 0.0f;
    compare_result(got, expected, bound, &shape, &s);
    ck_assert_ptr_nonnull(strstr(s.pattern, "tail past it"));
}
END_TEST

START_TEST(transposed)
{
    /* A 16 x 16 result written as its transpose. */
    struct compare_shape shape = {.count = N, .rows = 16, .cols = 16};
    struct compare_summary s;
    for (int r = 0; r < 16; r++)
        for (int c = 0; c < 16; c++) {
            expected[r * 16 + c] = r * 100 + c;
            got[c * 16 + r] = (float)(r * 100 + c);
        }
    compare_result(got, expected, bound, &shape, &s);
    ck_assert_ptr_nonnull(strstr(s.pattern, "transpose"));
}
END_TEST

START_TEST(constant_factor)
{
    for (int i = 0; i < N; i++)
        got[i] = (float)(2.0 * expected[i]);
    ck_assert_ptr_nonnull(strstr(compare_1d(0, 0).pattern, "factor, 2"));
}
END_TEST

START_TEST(one_element_has_no_factor)
{
    struct compare_shape shape = {.count = 1};
    struct compare_summary s;
    got[0] = (float)(3.0 * expected[0]);
    compare_result(got, expected, bound, &shape, &s);
    ck_assert_uint_eq(s.wrong, 1);
    ck_assert_ptr_null(strstr(s.pattern, "factor"));
}
END_TEST

START_TEST(format_lists_first_wrong_elements)
{
    struct compare_shape shape = {.count = N, .rows = 16, .cols = 16};
    struct compare_summary s;
    char text[1024];
    got[17] = 99.0f;
    got[200] = compare_poison();
    compare_result(got, expected, bound, &shape, &s);
    compare_format(&s, got, expected, &shape, text, sizeof text);
    ck_assert_ptr_nonnull(strstr(text, "2 of 256 elements wrong"));
    ck_assert_ptr_nonnull(strstr(text, "row 1, col 1: expected"));
    ck_assert_ptr_nonnull(strstr(text, "got 99"));
    ck_assert_ptr_nonnull(strstr(text, "never written"));
}
END_TEST

START_TEST(tolerance_is_respected)
{
    bound[3] = 0.25;
    got[3] = (float)(expected[3] + 0.25);
    ck_assert_uint_eq(compare_1d(0, 0).wrong, 0);
    got[3] = (float)(expected[3] + 0.26);
    ck_assert_uint_eq(compare_1d(0, 0).wrong, 1);
}
END_TEST

/* Results of int and uint words: compared as integers (exactly, past 2^24 too), never read as floats. */
START_TEST(integer_results_are_compared_as_integers)
{
    int32_t ints[4] = {-7, 16777217, 0, 5};
    uint32_t uints[2] = {4294967295u, 3};
    double want_ints[4] = {-7, 16777217, 0, 6}, want_uints[2] = {4294967295.0, 3}, zero[4] = {0};
    float words[4];
    char text[512];
    struct compare_shape int_shape = {.type = COMPARE_INT, .count = 4};
    struct compare_shape uint_shape = {.type = COMPARE_UINT, .count = 2};
    struct compare_summary s;
    memcpy(words, ints, sizeof ints);
    compare_result(words, want_ints, zero, &int_shape, &s);
    ck_assert_uint_eq(s.wrong, 1);
    ck_assert_uint_eq(s.shown[0], 3);
    compare_format(&s, words, want_ints, &int_shape, text, sizeof text);
    ck_assert_msg(strstr(text, "index 3: expected 6, got 5"), "%s", text);
    uint32_t poison = COMPARE_POISON_BITS;
    memcpy(&words[0], &poison, sizeof poison);
    compare_result(words, want_ints, zero, &int_shape, &s);
    ck_assert_uint_eq(s.never_written, 1);
    ck_assert_uint_eq(s.other_nans, 0);
    memcpy(words, uints, sizeof uints);
    compare_result(words, want_uints, zero, &uint_shape, &s);
    ck_assert_uint_eq(s.wrong, 0);
    ck_assert_double_eq(compare_value(words, &uint_shape, 0), 4294967295.0);
    /* A right sum whose bits are the poison's (a scan's wrapping sums reach it once in 2^32): right. */
    memcpy(&words[0], &poison, sizeof poison);
    want_uints[0] = (double)COMPARE_POISON_BITS;
    compare_result(words, want_uints, zero, &uint_shape, &s);
    ck_assert_uint_eq(s.wrong, 0);
}
END_TEST

/* A NaN that carries the bits the grader put around an input (quietened by the arithmetic) is a read outside
   that input, not an output read before it was set; any other NaN names no such cause. */
START_TEST(a_nan_from_around_an_input_is_a_read_outside)
{
    float values[4] = {1, 2, 3, 4};
    double want[4] = {1, 2, 3, 4}, bounds[4] = {0, 0, 0, 0};
    uint32_t guard = 0x7fa01234u, quiet = guard | 0x00400000u, other = 0x7fc01234u;
    struct compare_shape shape = {.count = 4, .around_inputs = {0x7fa0abcdu, guard}};
    struct compare_summary summary;
    memcpy(&values[2], &quiet, sizeof quiet);
    compare_result(values, want, bounds, &shape, &summary);
    ck_assert_ptr_nonnull(summary.cause);
    ck_assert_str_eq(summary.cause, COMPARE_CAUSE_OUT_OF_BOUNDS_READ);
    memcpy(&values[2], &other, sizeof other);
    compare_result(values, want, bounds, &shape, &summary);
    ck_assert_ptr_null(summary.cause);
}
END_TEST

Suite *compare_suite(void)
{
    Suite *s = suite_create("compare");
    TCase *tc = tcase_create("patterns");
    tcase_add_checked_fixture(tc, setup, NULL);
    tcase_add_test(tc, right_result_has_no_pattern);
    tcase_add_test(tc, poison_means_never_written);
    tcase_add_test(tc, all_zeros);
    tcase_add_test(tc, only_first_work_group);
    tcase_add_test(tc, missing_stride_loop);
    tcase_add_test(tc, tail_past_last_full_group);
    tcase_add_test(tc, transposed);
    tcase_add_test(tc, constant_factor);
    tcase_add_test(tc, one_element_has_no_factor);
    tcase_add_test(tc, format_lists_first_wrong_elements);
    tcase_add_test(tc, tolerance_is_respected);
    tcase_add_test(tc, integer_results_are_compared_as_integers);
    tcase_add_test(tc, a_nan_from_around_an_input_is_a_read_outside);
    suite_add_tcase(s, tc);
    return s;
}
