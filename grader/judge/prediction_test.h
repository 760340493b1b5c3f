/* Predictions kept: a lab's answers file (labs/labN/answers.md, the handout's questions with a "predict:" and an
   "answer:" line each) read back, and each prediction set beside the figure the grader measured on this device. */
#ifndef CLKIT_GRADER_PREDICT_H
#define CLKIT_GRADER_PREDICT_H

#include "judge/oclgrind_counts.h"
#include "judge/result.h"
#include "labs/spec.h"

#define PREDICT_FILE "answers.md"
#define PREDICT_MAX_QUESTIONS 8
#define PREDICT_TEST "predictions"

/* One question of an answers file. */
struct predict_entry {
    int question;      /* its number in the handout, from "## Question N" */
    int predicted;     /* the predict: line holds text */
    int numeric;       /* and a number: the first on the line is the prediction */
    double prediction;
    int answered;      /* the answer: line holds text */
};

/* Reads the questions of an answers file's text into entries (at most max); returns how many. */
int predict_parse(const char *text, struct predict_entry *entries, int max);

/* The figure the grader measures for question of lab ("lab4"), as "what it is, unit" (NULL when it measures none):
   what the answers file asks the student to predict on the predict: line. */
const char *predict_figure_of(const char *lab, int question);

/* Adds the informational "predictions" test to result when dir/lab/answers.md exists: each prediction beside
   what was measured (from counts, the technique case's, when counted is set, and from the speed test already in
   result), and how many fall within the figure's stated margin; its metrics hold questions=, predicted=,
   answered=, measured= and within= for the class report. */
void prediction_test_run(const char *dir, const struct grade_lab_spec *lab, const struct technique_counts *counts,
                         int counted, struct grade_lab_result *result);

/* Adds to *predicted and *within the counts of result's predictions test (nothing when it has none): what the class
   report shows per student. */
void predict_tally(const struct grade_lab_result *result, int *predicted, int *within);

#endif
