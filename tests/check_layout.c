/* The grader's folders: modules depend on each other one way only, and includes point down the layers. */
#include "suites.h"

#include <stdlib.h>
#include <string.h>

START_TEST(no_include_cycles)
{
    char *output;
    int status = run_in_kit("/usr/bin/python3 tests/include_cycles.py", 30, &output);
    ck_assert_msg(status == 0, "%s", output);
    free(output);
    /* The check can fail: a cycle written out is caught. */
    status = run_in_kit("printf 'grader/a -> grader/b\\ngrader/b -> grader/c\\ngrader/c -> grader/a\\n' > "
                        "build/check-cycle.txt && /usr/bin/python3 tests/include_cycles.py build/check-cycle.txt",
                        30, &output);
    ck_assert_msg(status == 1 && strstr(output, "include cycle: grader/a -> grader/b -> grader/c -> grader/a"),
                  "%s", output);
    free(output);
}
END_TEST

/* The tree keeps the layers (tested above); an include up the layers (the judge reading the command line or the
   report among them, the report a command), across them, from the runner into the sandbox, or into a folder the layers
   do not name is caught, and one down them is not. */
START_TEST(includes_point_down_the_layers)
{
    char *output;
    int status = run_in_kit("printf 'grader/labs/spec -> grader/judge/verdict\\ngrader/runner/runner -> "
                            "grader/sandbox/sandbox\\ngrader/wire/harness -> grader/sandbox/scratch\\n"
                            "grader/judge/lab_run -> grader/wire/harness\\ngrader/runner/runner -> grader/wire/spot\\n"
                            "grader/judge/job -> grader/cli/cli\\ngrader/judge/job -> grader/report/report\\n"
                            "grader/report/html -> grader/commands/calibrate\\ngrader/judge/x -> grader/perf/y\\n"
                            "grader/commands/batch -> grader/pipeline\\n' > build/check-layers.txt && "
                            "/usr/bin/python3 tests/include_cycles.py build/check-layers.txt",
                            30, &output);
    ck_assert_msg(status == 1, "%s", output);
    ck_assert_msg(strstr(output, "include against the layers: grader/labs/spec -> grader/judge/verdict"), "%s", output);
    ck_assert_msg(strstr(output, "include against the layers: grader/runner/runner -> grader/sandbox/sandbox"),
                  "%s", output);
    ck_assert_msg(strstr(output, "include against the layers: grader/wire/harness -> grader/sandbox/scratch"),
                  "%s", output);
    ck_assert_msg(strstr(output, "include against the layers: grader/judge/job -> grader/cli/cli"), "%s", output);
    ck_assert_msg(strstr(output, "include against the layers: grader/judge/job -> grader/report/report"), "%s", output);
    ck_assert_msg(strstr(output, "include against the layers: grader/report/html -> grader/commands/calibrate"), "%s",
                  output);
    ck_assert_msg(strstr(output, "include against the layers: grader/judge/x -> grader/perf/y"), "%s", output);
    ck_assert_msg(!strstr(output, "grader/judge/lab_run -> grader/wire/harness") &&
                  !strstr(output, "grader/runner/runner -> grader/wire/spot") &&
                  !strstr(output, "grader/commands/batch -> grader/pipeline"), "%s", output);
    free(output);
}
END_TEST

Suite *layout_suite(void)
{
    Suite *s = suite_create("layout");
    TCase *tc = tcase_create("includes");
    tcase_add_test(tc, no_include_cycles);
    tcase_add_test(tc, includes_point_down_the_layers);
    suite_add_tcase(s, tc);
    return s;
}
