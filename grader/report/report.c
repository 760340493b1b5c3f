#include "report/report.h"

#include "judge/mismatch.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define GREEN "\033[32m"
#define RED "\033[31m"
#define DIM "\033[2m"
#define BOLD "\033[1m"
#define YELLOW "\033[33m"
#define MAGENTA "\033[35m"
#define RESET "\033[0m"

void report_style_for(FILE *out, int verbose, struct report_style *style)
{
    const char *no_colour = getenv("NO_COLOR");
    style->out = out;
    style->verbose = verbose;
    style->colour = isatty(fileno(out)) && !(no_colour && no_colour[0]);
}

static const char *paint(const struct report_style *style, const char *code)
{
    return style->colour ? code : "";
}

/* A row of a mismatch map, each cell in its colour (plain characters without colour). */
static void print_map_row(const struct report_style *style, const char *line, int length)
{
    fputs("        ", style->out);
    for (int i = 0; i < length; i++) {
        const char *colour = line[i] == MISMATCH_RIGHT ? GREEN : line[i] == MISMATCH_WRONG ? RED
                             : line[i] == MISMATCH_NEVER ? YELLOW : line[i] == MISMATCH_OUTSIDE ? MAGENTA : DIM;
        fprintf(style->out, "%s%c", paint(style, colour), line[i]);
    }
    fprintf(style->out, "%s\n", paint(style, RESET));
}

/* Prints text after its first line, each line indented under the test. */
static void print_details(const struct report_style *style, const char *details)
{
    const char *line = details;
    while (line && *line) {
        const char *end = strchr(line, '\n');
        int length = end ? (int)(end - line) : (int)strlen(line);
        const char *map = strstr(line, MISMATCH_ROW);
        if (map && (!end || map < end) && style->colour)
            print_map_row(style, line, length);
        else if (length > 0)
            fprintf(style->out, "        %s%.*s%s\n", paint(style, DIM), length, line, paint(style, RESET));
        line = end ? end + 1 : NULL;
    }
}

static void print_test(const struct report_style *style, const struct grade_test *test)
{
    const char *reason = test->reason ? test->reason : "";
    const char *newline = strchr(reason, '\n');
    int first = newline ? (int)(newline - reason) : (int)strlen(reason);
    /* A test worth no points anywhere informs, and one pending on the course's device waits: neither shows as a
       failure. */
    const char *mark = test->informational ? "\u00b7" : test->pending ? "\u2026" : test->passed ? "\u2713" : "\u2717";
    const char *colour = test->informational || test->pending ? DIM : test->passed ? GREEN : RED;
    /* Rounded down when failed: 1.97 of 2 must not read as full marks beside a cross. */
    double shown = test->passed ? test->score : floor(test->score * 10.0 + 1e-9) / 10.0;
    fprintf(style->out, "  %s%s%s %-14s %5.1f/%-4g %.*s%s\n", paint(style, colour), mark, paint(style, RESET),
            test->name, shown, test->max, first, reason,
            test->informational ? " (reported, not scored)" : test->pending ? " (pending)" : "");
    if (newline && ((!test->passed && !test->informational) || test->noted || style->verbose))
        print_details(style, newline + 1);
}

void report_score(const struct grade_lab_result *result, double *score, double *max)
{
    *score = *max = 0.0;
    for (int i = 0; i < result->test_count; i++) {
        if (result->tests[i].informational)
            continue;
        *score += result->tests[i].score;
        *max += result->tests[i].max;
    }
}

void report_lab(const struct report_style *style, const char *title, const struct grade_lab_result *result)
{
    double score, max;
    fprintf(style->out, "%s%s: %s%s%s%s%s\n", paint(style, BOLD), result->lab, title, paint(style, RESET),
            result->device[0] ? " (on " : "", result->device, result->device[0] ? ")" : "");
    if (result->setup_error)
        fprintf(style->out, "  %s%s%s\n", paint(style, RED), result->setup_error, paint(style, RESET));
    for (int i = 0; i < result->test_count; i++)
        print_test(style, &result->tests[i]);
    report_score(result, &score, &max);
    fprintf(style->out, "  %s score: %.1f / %g%s\n\n", result->lab, score, max, "");
}

double report_pending(const struct grade_lab_result *results, int count)
{
    double pending = 0.0;
    for (int l = 0; l < count; l++)
        for (int t = 0; t < results[l].test_count; t++)
            pending += results[l].tests[t].pending ? results[l].tests[t].max : 0.0;
    return pending;
}

void report_total(const struct report_style *style, const struct grade_lab_result *results, int count)
{
    double total = 0.0, total_max = 0.0, pending = report_pending(results, count);
    int passed = 0, tests = 0;
    for (int l = 0; l < count; l++) {
        double score, max;
        report_score(&results[l], &score, &max);
        total += score;
        total_max += max;
        for (int t = 0; t < results[l].test_count; t++) {
            tests += !results[l].tests[t].informational && !results[l].tests[t].pending;
            passed += results[l].tests[t].passed && !results[l].tests[t].informational;
        }
    }
    fprintf(style->out, "%stotal: %.1f / %g points, %d of %d tests passed%s\n", paint(style, BOLD), total, total_max,
            passed, tests, paint(style, RESET));
    if (pending > 0)
        fprintf(style->out, "%g points pending: speed is graded on the course's device (see each speed test)\n",
                pending);
}
