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

/* The confined runner is built from runner/, wire/ and labs/ (the Makefile's rule over its folders): each of those
   objects but runner.o defines a symbol some object of the runner calls, so the runner links no code it never runs
   (the course, which only the judge reads, once was one). */
START_TEST(the_runner_links_nothing_it_never_calls)
{
    char *output;
    int status = run_in_kit("objs=$(for c in grader/runner/*.c grader/wire/*.c grader/labs/*.c grader/labs/*/*.c; do "
                            "echo build/${c%.c}.o; done) && nm -u $objs build/libclkit.a 2>/dev/null | "
                            "awk 'NF == 2 { print $2 }' > build/check-runner-calls.txt && nm -A --defined-only -g $objs | "
                            "awk 'NR == FNR { called[$1] = 1; next } { split($1, at, \":\"); seen[at[1]] = 1; "
                            "if ($3 in called) used[at[1]] = 1 } END { for (o in seen) if (!used[o] && "
                            "o !~ /runner\\/runner.o$/) print \"never called: \" o; print \"checked\" }' "
                            "build/check-runner-calls.txt -",
                            60, &output);
    ck_assert_msg(status == 0 && !strstr(output, "never called") && strstr(output, "checked"), "%s", output);
    free(output);
}
END_TEST

Suite *layout_suite(void)
{
    Suite *s = suite_create("layout");
    TCase *tc = tcase_create("includes");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, no_include_cycles);
    tcase_add_test(tc, includes_point_down_the_layers);
    tcase_add_test(tc, the_runner_links_nothing_it_never_calls);
    suite_add_tcase(s, tc);
    return s;
}
