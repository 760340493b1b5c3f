/* Gradescope's run_autograder: every upload shape gets a results.json with the right score, and exit 0. */
#include "suites.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
    const char *shape;
    const char *prepare; /* shell commands that fill build/gs/submission (run in the kit) */
    const char *score;   /* "score max_score" as the results file gives them */
} uploads[] = {
    {"nested", "mkdir -p build/gs/submission/clkit/labs/lab1 && cp solutions/lab1/* build/gs/submission/clkit/labs/lab1/",
     "10 88"},
    {"flat", "cp solutions/lab1/* build/gs/submission/", "10 88"},
    {"stale copy beside", "mkdir -p build/gs/submission/lab1 build/gs/submission/v1/lab1 && "
                          "cp solutions/lab1/* build/gs/submission/lab1/ && "
                          "cp tests/fixtures/lab1/local-id/lab1/vadd.cl build/gs/submission/v1/lab1/",
     "10 88"},
    {"empty", "true", "0 88"},
    {"broken kit", "rm build/gs/source", "0 None"},
};

START_TEST(every_upload_gets_results)
{
    char command[2048], *output;
    int status;
    snprintf(command, sizeof command,
             "rm -rf build/gs && mkdir -p build/gs/submission && ln -s \"$PWD\" build/gs/source && %s && "
             "AUTOGRADER=\"$PWD/build/gs\" GRADE_OPTIONS=--quick grader/gradescope/run_autograder >/dev/null 2>&1 && "
             "python3 -c 'import json; d = json.load(open(\"build/gs/results/results.json\")); "
             "print(\"%%g %%s\" %% (d[\"score\"], d.get(\"max_score\")))'",
             uploads[_i].prepare);
    status = run_in_kit(command, 300, &output);
    ck_assert_msg(status == 0, "%s: status %d\n%s", uploads[_i].shape, status, output);
    ck_assert_msg(strncmp(output, uploads[_i].score, strlen(uploads[_i].score)) == 0, "%s: expected %s, got %s",
                  uploads[_i].shape, uploads[_i].score, output);
    free(output);
}
END_TEST

Suite *gradescope_suite(void)
{
    Suite *s = suite_create("gradescope");
    TCase *tc = tcase_create("uploads");
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, every_upload_gets_results, 0, (int)(sizeof uploads / sizeof uploads[0]));
    suite_add_tcase(s, tc);
    return s;
}
