#include "suites.h"

#include "report/report.h"

#include <stdlib.h>
#include <string.h>

static char *render(const struct grade_lab_result *result, int verbose)
{
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    struct report_style style;
    report_style_for(out, verbose, &style);
    report_lab(&style, "vector add", result);
    report_total(&style, result, 1);
    fclose(out);
    return text;
}

static void fill(struct grade_lab_result *result)
{
    memset(result, 0, sizeof *result);
    strcpy(result->lab, "lab1");
    result_add(result, "exact cases", 3, 3, 1, "all 8 exact cases right\ncase 0: ok");
    result_add(result, "real cases", 0.5, 2, 0, "3 of 4 real cases wrong\ncase 5 (n=65): 1 of 65 elements wrong");
    result_add(result, "speed", 0, 4, 0, "too slow")->informational = 1;
}

START_TEST(marks_points_and_reasons)
{
    struct grade_lab_result result;
    char *text;
    fill(&result);
    text = render(&result, 0);
    ck_assert_ptr_nonnull(strstr(text, "\u2713 exact cases"));
    ck_assert_ptr_nonnull(strstr(text, "\u2717 real cases"));
    ck_assert_ptr_nonnull(strstr(text, "3 of 4 real cases wrong"));
    ck_assert_ptr_nonnull(strstr(text, "case 5 (n=65)")); /* a failure shows its details */
    ck_assert_ptr_null(strstr(text, "case 0: ok"));      /* a pass does not, unless verbose */
    ck_assert_ptr_null(strstr(text, "\033["));           /* no colour into a file */
    free(text);
    result_free(&result);
}
END_TEST

START_TEST(informational_tests_do_not_count)
{
    struct grade_lab_result result;
    double score, max;
    char *text;
    fill(&result);
    report_score(&result, &score, &max);
    ck_assert_double_eq(score, 3.5);
    ck_assert_double_eq(max, 5.0);
    text = render(&result, 0);
    ck_assert_ptr_nonnull(strstr(text, "lab1 score: 3.5 / 5"));
    /* A test worth nothing reports: it is neither a failure nor counted among the tests. */
    ck_assert_ptr_nonnull(strstr(text, "\u00b7 speed"));
    ck_assert_ptr_null(strstr(text, "\u2717 speed"));
    ck_assert_ptr_nonnull(strstr(text, "reported, not scored"));
    ck_assert_ptr_nonnull(strstr(text, "total: 3.5 / 5 points, 1 of 2 tests passed"));
    free(text);
    result_free(&result);
}
END_TEST

START_TEST(verbose_shows_passed_details)
{
    struct grade_lab_result result;
    char *text;
    fill(&result);
    text = render(&result, 1);
    ck_assert_ptr_nonnull(strstr(text, "case 0: ok"));
    free(text);
    result_free(&result);
}
END_TEST

START_TEST(setup_error_is_shown)
{
    struct grade_lab_result result;
    char *text;
    memset(&result, 0, sizeof result);
    strcpy(result.lab, "lab2");
    result.setup_error = strdup("cannot grade lab2: labs/lab2/vadd_stride.cl is missing");
    text = render(&result, 0);
    ck_assert_ptr_nonnull(strstr(text, "vadd_stride.cl is missing"));
    free(text);
    result_free(&result);
}
END_TEST

Suite *report_suite(void)
{
    Suite *s = suite_create("report");
    TCase *tc = tcase_create("terminal");
    tcase_add_test(tc, marks_points_and_reasons);
    tcase_add_test(tc, informational_tests_do_not_count);
    tcase_add_test(tc, verbose_shows_passed_details);
    tcase_add_test(tc, setup_error_is_shown);
    suite_add_tcase(s, tc);
    return s;
}
