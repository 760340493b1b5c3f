#include "suites.h"

#include "files.h"
#include "report/contest.h"
#include "report/report.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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


/* A pending speed test keeps its points in the maximum, scores none yet, and is not a failed test. */
START_TEST(pending_points_stay_in_the_maximum)
{
    struct grade_lab_result result;
    double score, max;
    char *text;
    memset(&result, 0, sizeof result);
    snprintf(result.lab, sizeof result.lab, "lab7");
    result_add(&result, "exact cases", 4, 4, 1, "all right");
    struct grade_test *speed = result_add(&result, "speed", 0, 2, 0, "2 points, graded on NVIDIA H100 80GB HBM3");
    speed->pending = 1;
    report_score(&result, &score, &max);
    ck_assert_double_eq(score, 4.0);
    ck_assert_double_eq(max, 6.0);
    ck_assert_double_eq(report_pending(&result, 1), 2.0);
    text = render(&result, 0);
    ck_assert_msg(strstr(text, "1 of 1 tests passed") && strstr(text, "2 points pending"), "%s", text);
    free(text);
    result_free(&result);
}
END_TEST

/* The contest places each right kernel against the fastest right one of its lab and device; a wrong one, however
   fast, is not placed, and devices are not compared. */
START_TEST(contest_places_within_the_tiers)
{
    const struct course_tier tiers[] = {{1.05, 2}, {1.20, 1}};
    struct contest_entry e[] = {
        {.student = "a", .lab = "lab7", .device = "H100", .rate = 1000, .correct = 1},
        {.student = "b", .lab = "lab7", .device = "H100", .rate = 960, .correct = 1},  /* 1.04x */
        {.student = "c", .lab = "lab7", .device = "H100", .rate = 900, .correct = 1},  /* 1.11x */
        {.student = "d", .lab = "lab7", .device = "H100", .rate = 500, .correct = 1},  /* 2x */
        {.student = "e", .lab = "lab7", .device = "H100", .rate = 5000, .correct = 0}, /* wrong */
        {.student = "f", .lab = "lab7", .device = "PoCL", .rate = 10, .correct = 1},   /* alone on its device */
    };
    const double extra[] = {2, 2, 1, 0, 0, 2};
    contest_place(e, 6, tiers, 2);
    for (int i = 0; i < 6; i++)
        ck_assert_msg(e[i].extra == extra[i], "%s: %g extra points", e[i].student, e[i].extra);
    ck_assert_double_eq(e[0].ratio, 1.0);
    ck_assert_double_eq(e[4].ratio, 0.0);
}
END_TEST

/* contest.csv from a class's records: the right kernels placed, fastest first. */
START_TEST(contest_file_from_results)
{
    char dir[] = "/tmp/clkit-contest-XXXXXX", path[128], *text;
    const char *names[] = {"slow", "fast", "wrong"};
    const char *files[] = {
        "{\"record\":\"clkit\",\"labs\":[{\"lab\":\"lab7\",\"device\":\"H100\",\"unit\":\"GB/s\",\"tests\":["
        "{\"name\":\"exact cases\",\"passed\":1},{\"name\":\"bandwidth\",\"metrics\":\"rate=100;speedup=1.1\"}]}]}",
        "{\"record\":\"clkit\",\"labs\":[{\"lab\":\"lab7\",\"device\":\"H100\",\"unit\":\"GB/s\",\"tests\":["
        "{\"name\":\"exact cases\",\"passed\":1},{\"name\":\"bandwidth\",\"metrics\":\"rate=200\"}]}]}",
        "{\"record\":\"clkit\",\"labs\":[{\"lab\":\"lab7\",\"device\":\"H100\",\"unit\":\"GB/s\",\"tests\":["
        "{\"name\":\"exact cases\",\"passed\":0},{\"name\":\"bandwidth\",\"metrics\":\"rate=900\"}]}]}",
    };
    struct course course = {.contest = 1, .tiers = {{1.05, 2}, {1.20, 1}}, .tier_count = 2};
    ck_assert_ptr_nonnull(mkdtemp(dir));
    for (int i = 0; i < 3; i++) {
        FILE *f;
        snprintf(path, sizeof path, "%s/%s.record", dir, names[i]);
        ck_assert_ptr_nonnull(f = fopen(path, "w"));
        fputs(files[i], f);
        fclose(f);
    }
    ck_assert_int_eq(contest_write(dir, names, 3, &course), 0);
    snprintf(path, sizeof path, "%s/contest.csv", dir);
    ck_assert_ptr_nonnull(text = clk_read_text(path, NULL));
    ck_assert_msg(strstr(text, "lab7,H100,fast,200.00,1.000,2\nlab7,H100,slow,100.00,2.000,0\n"
                               "lab7,H100,wrong,900.00,,0\n"), "%s", text);
    free(text);
    snprintf(path, sizeof path, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(path), 0);
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
    tcase_add_test(tc, pending_points_stay_in_the_maximum);
    tcase_add_test(tc, contest_places_within_the_tiers);
    tcase_add_test(tc, contest_file_from_results);
    suite_add_tcase(s, tc);
    return s;
}
