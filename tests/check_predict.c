/* grader/judge/prediction_test.c: an answers file read back, each prediction beside the figure the grader measured. */
#include "suites.h"

#include "judge/prediction_test.h"
#include "labs/registry.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

START_TEST(reads_predictions_and_answers)
{
    struct predict_entry e[PREDICT_MAX_QUESTIONS];
    const char *text = "# Lab 1\n\n## Question 1\n\ntext with predict: in it\n\npredict (a count): about 1,563 groups\n"
                       "answer: 1,563\n## Question 2\npredict (in words: a colon in the label): the memory test fails\n"
                       "answer:   \n## Question 3\npredict (in words: nothing yet): \nanswer: saw 16%\n"
                       "## Question 4\npredict: 0.9x\n";
    ck_assert_int_eq(predict_parse(text, e, PREDICT_MAX_QUESTIONS), 4);
    ck_assert(e[0].question == 1 && e[0].predicted && e[0].numeric && e[0].prediction == 1563 && e[0].answered);
    ck_assert(e[1].question == 2 && e[1].predicted && !e[1].numeric && !e[1].answered);
    ck_assert(e[2].question == 3 && !e[2].predicted && !e[2].numeric && e[2].answered);
    ck_assert(e[3].question == 4 && e[3].numeric && e[3].prediction == 0.9 && !e[3].answered);
    ck_assert_int_eq(predict_parse("no headings\npredict: 3\n", e, PREDICT_MAX_QUESTIONS), 0);
}
END_TEST

/* Writes text to build/check-predict/lab4/answers.md, or links it to target when target is set. */
static void put_answers(const char *text, const char *target)
{
    mkdir("build/check-predict", 0755);
    mkdir("build/check-predict/lab4", 0755);
    unlink("build/check-predict/lab4/answers.md");
    if (target) {
        ck_assert_int_eq(symlink(target, "build/check-predict/lab4/answers.md"), 0);
        return;
    }
    FILE *f = fopen("build/check-predict/lab4/answers.md", "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

/* Lab 4 graded with its technique counted (2,032 local stores in 16 groups, 16 global stores) and timed (0.89x):
   127 and 16 are within their margins, 2.0x is not, and the counts reach the metrics the class report reads. */
START_TEST(sets_each_prediction_beside_its_figure)
{
    const struct grade_lab_spec *lab = registry_find("lab4");
    struct technique_counts counts = {.global_stores = 16, .local_stores = 2032, .local_loads = 1008,
                                      .global_loads = 4096};
    struct grade_lab_result result = {0};
    int predicted = 0, within = 0;
    ck_assert_ptr_nonnull(lab);
    put_answers("## Question 1\npredict: 127\nanswer: 64 then the tree\n## Question 2\npredict: 16 against 1024\n"
                "answer:\n## Question 3\npredict: 2x\nanswer:\n", NULL);
    struct grade_test *speed = result_add(&result, "speed", 0, 0, 0, "timed");
    snprintf(speed->metrics, sizeof speed->metrics, "size=1;ms=1;rate=2.0;unit=GB/s;speedup=0.890;threshold=0");
    prediction_test_run("build/check-predict", lab, &counts, 1, &result);
    ck_assert_int_eq(result.test_count, 2);
    const struct grade_test *t = &result.tests[1];
    ck_assert_str_eq(t->name, PREDICT_TEST);
    ck_assert(t->informational && t->max == 0 && t->noted);
    ck_assert_msg(strstr(t->reason, "question 1: predicted 127; measured 127") &&
                  strstr(t->reason, "question 2: predicted 16; measured 16") &&
                  strstr(t->reason, "question 3: predicted 2; measured 0.89") &&
                  strstr(t->reason, "3 of 3 questions predicted, 1 answered; 2 of 3 predictions within"), "%s",
                  t->reason);
    ck_assert_str_eq(t->metrics, "questions=3;predicted=3;answered=1;measured=3;within=2");
    predict_tally(&result, &predicted, &within);
    ck_assert(predicted == 3 && within == 2);
    result_free(&result);
}
END_TEST

/* Untimed (--quick) and uncounted runs measure nothing, and say so; no answers file adds no test; a link is not
   followed (it could show another file's contents in the report). */
START_TEST(says_what_was_not_measured)
{
    const struct grade_lab_spec *lab = registry_find("lab4");
    struct technique_counts counts = {0};
    struct grade_lab_result result = {0};
    put_answers("## Question 1\npredict: 127\n## Question 3\npredict: 1\n", NULL);
    prediction_test_run("build/check-predict", lab, &counts, 0, &result);
    ck_assert_int_eq(result.test_count, 1);
    ck_assert_msg(strstr(result.tests[0].reason, "not measured: the reference judge did not count") &&
                  strstr(result.tests[0].reason, "not measured: the speed test did not time") &&
                  strstr(result.tests[0].reason, "0 of 0 predictions within"), "%s", result.tests[0].reason);
    result_free(&result);
    memset(&result, 0, sizeof result);
    prediction_test_run("build/check-predict-none", lab, &counts, 0, &result);
    ck_assert_int_eq(result.test_count, 0);
    put_answers(NULL, "../../../README.md");
    prediction_test_run("build/check-predict", lab, &counts, 0, &result);
    ck_assert_int_eq(result.test_count, 0);
    unlink("build/check-predict/lab4/answers.md");
}
END_TEST

/* Every label the answers files show names its margin as the grader applies it. */
START_TEST(labels_state_their_margin)
{
    for (size_t i = 0; i < registry_count(); i++)
        for (int q = 1; q <= PREDICT_MAX_QUESTIONS; q++) {
            const char *what = predict_figure_of(registry_lab(i)->name, q);
            ck_assert_msg(!what || strstr(what, "within 10%") || strstr(what, "within 25%"), "%s", what);
            ck_assert_msg(!what || !strchr(what, ':'), "a label with a colon ends the predict line early: %s", what);
        }
    ck_assert_ptr_null(predict_figure_of("lab1", 2));
    ck_assert_ptr_nonnull(predict_figure_of("lab5", 1));
}
END_TEST

Suite *predict_suite(void)
{
    Suite *s = suite_create("predict");
    TCase *tc = tcase_create("answers");
    tcase_add_test(tc, reads_predictions_and_answers);
    tcase_add_test(tc, sets_each_prediction_beside_its_figure);
    tcase_add_test(tc, says_what_was_not_measured);
    tcase_add_test(tc, labels_state_their_margin);
    suite_add_tcase(s, tc);
    return s;
}
