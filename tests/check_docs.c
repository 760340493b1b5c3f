/* docs/: the figures the handout and README quote are those of docs/results, its diagrams are drawn from
 * simulations that agree with the grader's counts and render, and every lab section has its five parts. */
#include "suites.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

START_TEST(figures_match_the_data)
{
    char *output;
    int status = run_in_kit("/usr/bin/python3 docs/numbers.py HANDOUT.md README.md 2>&1", 30, &output);
    ck_assert_msg(status == 0, "a figure differs from docs/results (make docs rewrites them):\n%s", output);
    free(output);
}
END_TEST

/* The check can fail: a figure edited by hand is caught, and make docs puts the data back. */
START_TEST(an_edited_figure_is_caught)
{
    char *output;
    int status = run_in_kit("cp HANDOUT.md build/check-docs.md && "
                            "sed -i '0,/speedup .2f-->[0-9.]*</s//speedup .2f-->9.99</' build/check-docs.md && "
                            "grep -q -- '-->9.99<' build/check-docs.md && "
                            "/usr/bin/python3 docs/numbers.py build/check-docs.md 2>&1; echo \"exit $?\"",
                            30, &output);
    ck_assert_msg(status == 0 && strstr(output, "says 9.99") && strstr(output, "exit 1"), "%s", output);
    free(output);
    status = run_in_kit("/usr/bin/python3 docs/numbers.py --write build/check-docs.md && "
                        "/usr/bin/python3 docs/numbers.py build/check-docs.md && ! grep -q -- '-->9.99<' build/check-docs.md",
                        30, &output);
    ck_assert_msg(status == 0, "%s", output);
    free(output);
}
END_TEST

/* A benchmark table copied into the README and then edited is caught too. */
START_TEST(an_edited_table_is_caught)
{
    char *output;
    int status = run_in_kit("cp README.md build/check-docs-readme.md && "
                            "sed -i '/<!--table h100-->/,\\%<!--/table-->%s# ms | [0-9]* GB/s# ms | 1 GB/s#' "
                            "build/check-docs-readme.md && ! cmp -s README.md build/check-docs-readme.md && "
                            "/usr/bin/python3 docs/numbers.py build/check-docs-readme.md 2>&1; echo \"exit $?\"",
                            30, &output);
    ck_assert_msg(status == 0 && strstr(output, "the table of h100 differs") && strstr(output, "exit 1"), "%s", output);
    free(output);
}
END_TEST

/* Renders every SVG in a folder with librsvg (what a Markdown viewer's browser would choke on, it refuses). */
#define RENDER_FIGURES(dir) \
    "set -e; command -v rsvg-convert >/dev/null || { echo 'rsvg-convert missing: apt-get install librsvg2-bin'; exit 3; }; " \
    "mkdir -p build/docs-png; n=0; for f in " dir "/*.svg; do xmllint --noout \"$f\"; " \
    "rsvg-convert -o build/docs-png/$(basename \"$f\" .svg).png \"$f\"; " \
    "test -s build/docs-png/$(basename \"$f\" .svg).png; n=$((n+1)); done; echo \"rendered $n\""

START_TEST(every_figure_renders)
{
    char *output;
    int status = run_in_kit(RENDER_FIGURES("docs/figures"), 60, &output);
    ck_assert_msg(status == 0 && strstr(output, "rendered 10"), "%s", output);
    free(output);
}
END_TEST

/* The charts of docs/results (roofline and matmul ladder per device, lab 12's timeline) are what docs/charts.py
   draws from the committed benchmark tables and timelines, and they render with the bench bars beside them. */
START_TEST(charts_match_the_data_and_render)
{
    char *output;
    int status = run_in_kit("/usr/bin/python3 docs/charts.py 2>&1", 30, &output);
    ck_assert_msg(status == 0, "a chart differs from docs/results (make docs redraws them):\n%s", output);
    free(output);
    status = run_in_kit(RENDER_FIGURES("docs/results"), 60, &output);
    ck_assert_msg(status == 0 && strstr(output, "rendered 10"), "%s", output);
    free(output);
}
END_TEST

/* The chart check can fail: a benchmark time changed without redrawing is caught, and names the chart. */
START_TEST(a_stale_chart_is_caught)
{
    char *output;
    int status = run_in_kit("rm -rf build/charts && cp -r docs/results build/charts && "
                            "sed -i 's/^\\(\"NVIDIA H100[^,]*\",lab8,matmul_reg,2048,\\)[0-9.]*/\\11.2345/' "
                            "build/charts/bench-nvidia-h100-80gb-hbm3.csv && "
                            "grep -q ',lab8,matmul_reg,2048,1.2345,' build/charts/bench-nvidia-h100-80gb-hbm3.csv && "
                            "/usr/bin/python3 docs/charts.py --results build/charts 2>&1; echo \"exit $?\"",
                            30, &output);
    ck_assert_msg(strstr(output, "-nvidia-h100-80gb-hbm3.svg differs") && strstr(output, "exit 1"), "%s",
                  output);
    ck_assert_int_eq(status, 0);
    free(output);
}
END_TEST

/* The render check can fail: a figure cut short is refused. */
START_TEST(a_broken_figure_is_caught)
{
    char *output;
    int status = run_in_kit("rm -rf build/docs-broken && mkdir -p build/docs-broken && "
                            "head -c 600 docs/figures/transpose-banks.svg > build/docs-broken/cut.svg", 10, &output);
    ck_assert_msg(status == 0, "%s", output);
    free(output);
    status = run_in_kit(RENDER_FIGURES("build/docs-broken"), 60, &output);
    ck_assert_msg(status != 0 && !strstr(output, "rendered"), "a truncated SVG rendered:\n%s", output);
    free(output);
}
END_TEST

/* The committed diagrams are what docs/figures.py draws, every one is shown in the handout, and what they show
 * (transactions, bank passes, loads per element) is what the grader counts for the solutions. */
START_TEST(figures_agree_with_the_grader)
{
    char *output;
    int status = run_in_kit("/usr/bin/python3 docs/figures.py 2>&1 && "
                            "for f in docs/figures/*.svg; do grep -q \"($f)\" HANDOUT.md || "
                            "{ echo \"$f is not shown in HANDOUT.md\"; exit 1; }; done",
                            60, &output);
    ck_assert_msg(status == 0, "%s", output);
    free(output);
    /* The solutions graded with the handout's seed, every case shown: the grading other tests share. */
    grade_once(GRADED_SOLUTIONS, 600, &output);
    FILE *graded = fopen("build/docs-grade.txt", "w");
    ck_assert_ptr_nonnull(graded);
    fputs(output, graded);
    fclose(graded);
    free(output);
    status = run_in_kit("/usr/bin/python3 docs/figures.py --claims build/docs-grade.txt 2>&1 && "
                        "/usr/bin/python3 docs/outputs.py --fresh build/docs-grade.txt HANDOUT.md 2>&1",
                        120, &output);
    ck_assert_msg(status == 0, "%s", output);
    free(output);
}
END_TEST

/* Each lab of the registry has a section with objectives, prerequisites, a time, the expected output of a real run,
   and questions. */
START_TEST(every_lab_has_its_five_parts)
{
    char *output;
    int status = run_in_kit("for n in $(ls grader/labs | sed -n 's/^lab\\([0-9]*\\)\\.c$/\\1/p'); do "
                            "s=$(sed -n \"/^## Lab $n:/,/^## Lab $((n+1)):/p\" HANDOUT.md); "
                            "[ -n \"$s\" ] || { echo \"lab $n has no section in HANDOUT.md\"; exit 1; }; "
                            "for part in '**Objectives.**' '**Prerequisites.**' '**Time.**' '**Expected output**' "
                            "'**Questions.**' '<!--output lab'$n'-->' '<summary>Answers</summary>'; do "
                            "printf '%s' \"$s\" | grep -qF -- \"$part\" || { echo \"lab $n lacks $part\"; exit 1; }; "
                            "done; done && /usr/bin/python3 docs/outputs.py HANDOUT.md 2>&1", 60, &output);
    ck_assert_msg(status == 0, "%s", output);
    free(output);
}
END_TEST

/* Each lab's answers file holds the handout's questions with the grader's labels (docs/answers.py), and a question
   edited in the handout alone is caught. */
START_TEST(answers_files_follow_the_handout)
{
    char *output;
    int status = run_in_kit("/usr/bin/python3 docs/answers.py 2>&1", 30, &output);
    ck_assert_msg(status == 0, "an answers file is out of step (make docs rewrites them):\n%s", output);
    free(output);
    status = run_in_kit("rm -rf build/check-answers && mkdir -p build/check-answers/docs build/check-answers/grader/judge && "
                        "cp -r labs build/check-answers/ && cp docs/answers.py build/check-answers/docs/ && "
                        "cp grader/judge/prediction_test.c build/check-answers/grader/judge/ && "
                        "sed 's/How many partial sums does the kernel write/How many partials/' HANDOUT.md "
                        "> build/check-answers/HANDOUT.md && "
                        "/usr/bin/python3 build/check-answers/docs/answers.py 2>&1; echo \"exit $?\"", 30, &output);
    ck_assert_msg(strstr(output, "labs/lab3/answers.md differs") && strstr(output, "exit 1"), "%s", output);
    free(output);
}
END_TEST

/* make docs makes an expected output again only where it is stale: a grader that prints the transcripts' reports
   (timings aside) leaves every lab alone, and one technique count changed marks that lab alone. */
START_TEST(only_a_stale_expected_output_is_made_again)
{
    char *output;
    int status = run_in_kit("mkdir -p build && cat docs/results/outputs/lab*.txt | "
                            "sed 's/[0-9.]*× the speed of/9.99× the speed of/' > build/check-stale-same.txt && "
                            "sed 's/local memory: 2032 stores/local memory: 2031 stores/' build/check-stale-same.txt "
                            "> build/check-stale-lab4.txt && "
                            "/usr/bin/python3 docs/outputs.py --stale build/check-stale-same.txt && echo '--' && "
                            "/usr/bin/python3 docs/outputs.py --stale build/check-stale-lab4.txt 2>&1", 30, &output);
    ck_assert_msg(status == 0 && strncmp(output, "--\nlab4: ", 9) == 0 && !strstr(output + 3, "\nlab"), "%s", output);
    free(output);
}
END_TEST

Suite *docs_suite(void)
{
    Suite *s = suite_create("docs");
    TCase *tc = tcase_create("figures");
    tcase_add_test(tc, figures_match_the_data);
    tcase_add_test(tc, an_edited_figure_is_caught);
    tcase_add_test(tc, an_edited_table_is_caught);
    tcase_add_test(tc, answers_files_follow_the_handout);
    tcase_add_test(tc, only_a_stale_expected_output_is_made_again);
    suite_add_tcase(s, tc);
    TCase *drawn = tcase_create("diagrams and labs");
    tcase_set_timeout(drawn, 900);
    tcase_add_test(drawn, every_figure_renders);
    tcase_add_test(drawn, a_broken_figure_is_caught);
    tcase_add_test(drawn, charts_match_the_data_and_render);
    tcase_add_test(drawn, a_stale_chart_is_caught);
    tcase_add_test(drawn, figures_agree_with_the_grader);
    tcase_add_test(drawn, every_lab_has_its_five_parts);
    suite_add_tcase(s, drawn);
    return s;
}
