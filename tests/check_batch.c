#include "suites.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *read_file(const char *path)
{
    char *text = NULL, command[512];
    snprintf(command, sizeof command, "cat '%s'", path);
    run_in_kit(command, 10, &text);
    return text;
}

START_TEST(grades_a_class_past_a_crash)
{
    char *output, *csv, *carol, *alice;
    int status = run_in_kit(
        "rm -rf build/check-class build/check-results && mkdir -p build/check-class/alice/lab1 "
        "build/check-class/bob/lab1 build/check-class/carol/lab1 && "
        "cp solutions/lab1/vadd.cl solutions/lab1/host.c build/check-class/alice/lab1/ && "
        "cp tests/fixtures/lab1/local-id/lab1/vadd.cl solutions/lab1/host.c build/check-class/bob/lab1/ && "
        "cp tests/fixtures/lab1/crash/lab1/vadd.cl labs/lab1/host.c build/check-class/carol/lab1/",
        30, &output);
    free(output);
    ck_assert_int_eq(status, 0);
    status = run_in_kit("NO_COLOR=1 ./grade --quick --seed 11 --submission build/check-class "
                        "--results build/check-results lab1 2>&1",
                        300, &output);
    ck_assert_msg(status == 0, "status %d\n%s", status, output);
    ck_assert_ptr_nonnull(strstr(output, "grading 3 submissions"));
    free(output);

    csv = read_file("build/check-results/scores.csv");
    ck_assert_msg(strstr(csv, "student,lab1,total,max,status\n"), "%s", csv);
    ck_assert_msg(strstr(csv, "alice,10.00,10.00,10.00,all passed\n"), "%s", csv);
    ck_assert_msg(strstr(csv, "\nbob,"), "%s", csv);
    ck_assert_msg(strstr(csv, "\ncarol,0.00,0.00,10.00,some failed\n"), "%s", csv);
    alice = read_file("build/check-results/alice.json");
    ck_assert_ptr_nonnull(strstr(alice, "\"max_score\":\t10"));
    carol = read_file("build/check-results/carol.txt");
    ck_assert_ptr_nonnull(strstr(carol, "crashed with SIGSEGV"));
    ck_assert_ptr_nonnull(strstr(read_file("build/check-results/bob.txt"), "only the first work-group"));
    free(csv);
    free(alice);
    free(carol);
}
END_TEST

START_TEST(several_submission_folders)
{
    char *output;
    int status = run_in_kit("NO_COLOR=1 ./grade --quick --submission tests/fixtures/lab2/no-stride-loop "
                            "--submission tests/fixtures/lab1/local-id --results build/check-results2 lab2 2>&1",
                            300, &output);
    ck_assert_msg(status == 0 && strstr(output, "grading 2 submissions"), "status %d\n%s", status, output);
    free(output);
    /* local-id has no lab2 folder: that lab fails with its full points, and the batch goes on. */
    output = read_file("build/check-results2/scores.csv");
    ck_assert_msg(strstr(output, "local-id,0.00,0.00,12.00,some failed"), "%s", output);
    ck_assert_msg(strstr(output, "no-stride-loop,"), "%s", output);
    free(output);
}
END_TEST

Suite *batch_suite(void)
{
    Suite *s = suite_create("batch");
    TCase *tc = tcase_create("class");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, grades_a_class_past_a_crash);
    tcase_add_test(tc, several_submission_folders);
    suite_add_tcase(s, tc);
    return s;
}
