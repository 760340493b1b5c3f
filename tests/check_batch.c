#include "suites.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *shell(const char *command, int timeout_s, int expected_status)
{
    char *output;
    int status = run_in_kit(command, timeout_s, &output);
    ck_assert_msg(status == expected_status, "%s: status %d\n%s", command, status, output);
    return output;
}

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
        /* alice keeps predictions: one the grader's launch confirms, one it cannot time under --quick */
        "printf '## Question 1\\npredict: 100,032\\nanswer: 1,563 groups\\n## Question 3\\npredict: 50%%\\n' "
        "> build/check-class/alice/lab1/answers.md && "
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
    ck_assert_msg(strstr(csv, "student,lab1,total,max,predicted,within,status\n"), "%s", csv);
    ck_assert_msg(strstr(csv, "alice,10.00,10.00,10.00,2,1,all passed\n"), "%s", csv);
    ck_assert_msg(strstr(csv, "\nbob,"), "%s", csv);
    ck_assert_msg(strstr(csv, "\ncarol,0.00,0.00,10.00,0,0,some failed\n"), "%s", csv);
    alice = read_file("build/check-results/alice.json");
    ck_assert_ptr_nonnull(strstr(alice, "\"score\":\t10,"));
    ck_assert_msg(strstr(alice, "\"predicted\":\t2,") && strstr(alice, "\"within\":\t1\n"), "%s", alice);
    ck_assert_msg(strstr(read_file("build/check-results/alice.txt"),
                         "question 1: predicted 100032; measured 100032, work-items"), "alice.txt lacks her prediction");
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
    ck_assert_msg(strstr(output, "local-id,0.00,0.00,12.00,0,0,some failed"), "%s", output);
    ck_assert_msg(strstr(output, "no-stride-loop,"), "%s", output);
    free(output);
}
END_TEST

/* Two workers side by side (here both on the CPU device) grade the class to the same CSV, row for row, as one
   worker does. Runs after grades_a_class_past_a_crash, whose class and results it reuses. */
START_TEST(side_by_side_grades_the_same)
{
    char *output, *one, *two;
    int status = run_in_kit("rm -rf build/check-results-2 && NO_COLOR=1 ./grade --quick --seed 11 --devices cpu,cpu "
                            "--submission build/check-class --results build/check-results-2 lab1 2>&1",
                            300, &output);
    ck_assert_msg(status == 0 && strstr(output, "2 workers side by side, one per device: cpu,cpu"), "status %d\n%s",
                  status, output);
    ck_assert_msg(strstr(output, "carol") && strstr(output, "alice") && strstr(output, "bob"), "%s", output);
    free(output);
    one = read_file("build/check-results/scores.csv");
    two = read_file("build/check-results-2/scores.csv");
    ck_assert_msg(strlen(one) > 40 && strcmp(one, two) == 0, "one at a time:\n%s\nside by side:\n%s", one, two);
    free(one);
    free(two);
    two = read_file("build/check-results-2/carol.txt");
    ck_assert_ptr_nonnull(strstr(two, "crashed with SIGSEGV"));
    free(two);
}
END_TEST

/* --jobs N takes the first N GPUs; without them it says so and names --devices, grading nobody. */
START_TEST(jobs_without_the_gpus_is_refused)
{
    char *output;
    int gpus = run_in_kit("./grade --list-devices 2>&1 | grep -c '\\[gpu\\]' | grep -q '^[01]$'", 30, &output);
    free(output);
    if (gpus != 0)
        return; /* a machine with two GPUs grades; the side-by-side test covers the workers */
    int status = run_in_kit("rm -rf build/check-results-3 && ./grade --quick --jobs 2 --submission build/check-class "
                            "--results build/check-results-3 lab1 2>&1", 60, &output);
    ck_assert_msg(status == 2 && strstr(output, "--jobs 2 needs 2 GPUs") && strstr(output, "--devices"), "%d\n%s",
                  status, output);
    free(output);
    status = run_in_kit("test ! -e build/check-results-3/alice.json", 10, &output);
    ck_assert_int_eq(status, 0);
    free(output);
}
END_TEST

/* A class whose names attack the files the grader writes: a formula name, a name with a line break and tabs, two
   names that clean to one ("bob smith", wrong, beside "bob_smith", right), a student named index, a 252-byte name,
   a stray file first; and a results folder with a planted link and a stale results file. Every right student gets
   their own full marks, the refused ones a row that says why, the CSV one line per entry, the report its pages. */
START_TEST(hostile_names_break_no_file)
{
    char *output, *csv, *index;
    free(shell("rm -rf build/check-hostile build/check-hostile-results build/check-hostile-report && "
               "sh tests/make_class.sh build/check-hostile 2 >/dev/null && cd build/check-hostile && "
               "cp -r s01 bob_smith && cp -r s02 'bob smith' && cp -r s01 index && cp -r s01 -- -lead && "
               "cp -r s01 \"$(printf 'x%.0s' $(seq 252))\" && cp -r s01 \"$(printf 'eve\\nfake\\tsolutions\\t')\" && "
               "touch 000stray && mkdir -p ../check-hostile-results && echo untouched > ../check-hostile-victim && "
               "ln -s ../check-hostile-victim ../check-hostile-results/s01.txt && "
               "cp ../../tests/fixtures/reports/ghost.record ../check-hostile-results/", 30, 0));
    free(shell("NO_COLOR=1 ./grade --quick --seed 5 --submission build/check-hostile --results "
               "build/check-hostile-results --html build/check-hostile-report lab1 >/dev/null 2>&1", 300, 0));
    /* Right students score 10 of 10, the wrong kernel 3.27: the rows are each student's own. */
    output = shell("awk -F, 'NR > 1 && $2 + 0 == 10 { print $1 }' build/check-hostile-results/scores.csv", 10, 0);
    ck_assert_str_eq(output, "\"'-lead\"\nbob_smith\nindex\ns01\n"
                             "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx-9007009e\n");
    free(output);
    csv = read_file("build/check-hostile-results/scores.csv");
    ck_assert_msg(strstr(csv, "'bob smith' has the file name bob_smith") &&
                  strstr(csv, "control characters ('eve\\nfake\\tsolutions\\t')") && !strstr(csv, "\nfake") &&
                  strstr(csv, "\ns02,3.27,"), "%s", csv);
    output = shell("awk 'END { print NR }' build/check-hostile-results/scores.csv; "
                   "cat build/check-hostile-victim; xmllint --noout build/check-hostile-report/index.html "
                   "build/check-hostile-report/students/*.html && echo well-formed", 30, 0);
    ck_assert_str_eq(output, "10\nuntouched\nwell-formed\n"); /* the header and nine entries */
    free(output);
    index = read_file("build/check-hostile-report/index.html");
    ck_assert_msg(strstr(index, "<h1>clkit: the class</h1>") && strstr(index, "<p>9 students.</p>") &&
                  strstr(index, "<tr><td>exact cases</td><td>5 of 6 (83%)</td></tr>") && !strstr(index, "ghost") &&
                  strstr(index, "href=\"students/index.html\""), "%s", index);
    free(index);
    free(csv);
}
END_TEST

/* Two workers side by side, each confining code as its own user: a student who looks for the other worker's
   scratch folder through /proc and fills the task cap in bursts reads nothing of a classmate's, and the classmate's
   right solution keeps its marks; with bubblewrap, then with Landlock alone. */
START_TEST(a_worker_neither_reads_nor_starves_another)
{
    char command[1024], *output, *mallory, *csv;
    int status;
    snprintf(command, sizeof command,
             "rm -rf build/check-neighbours build/check-neighbours-results && mkdir -p build/check-neighbours/alice "
             "build/check-neighbours/mallory && cp -r solutions/lab1 build/check-neighbours/alice/ && "
             "cp -r tests/fixtures/attacks/worker-neighbour/lab1 build/check-neighbours/mallory/ && "
             "%s NO_COLOR=1 ./grade --quick --seed 5 --devices cpu,cpu --submission build/check-neighbours "
             "--results build/check-neighbours-results lab1 2>&1", _i ? "CLKIT_BUBBLEWRAP=0" : "");
    status = run_in_kit(command, 300, &output);
    ck_assert_msg(status == 0 && strstr(output, "2 workers side by side"), "status %d\n%s", status, output);
    free(output);
    mallory = read_file("build/check-neighbours-results/mallory.txt");
    ck_assert_msg(strstr(mallory, "clkit-attack saw"), "the attack did not run:\n%s", mallory);
    ck_assert_msg(!strstr(mallory, "READ A CLASSMATE'S FILE"), "a worker read another's files:\n%s", mallory);
    free(mallory);
    csv = read_file("build/check-neighbours-results/scores.csv");
    output = read_file("build/check-neighbours-results/alice.txt");
    ck_assert_msg(strstr(csv, "\nalice,10.00,10.00,10.00,0,0,all passed\n"), "%s\n%s", csv, output);
    free(output);
    free(csv);
}
END_TEST

/* A class of more entries than one run grades is refused whole, not cut short. */
START_TEST(too_many_entries_are_refused)
{
    char *output;
    free(shell("rm -rf build/check-crowd && mkdir -p build/check-crowd/s0/lab1 && cd build/check-crowd && "
               "seq 1 1024 | sed 's/^/f/' | xargs touch", 30, 0));
    output = shell("./grade --quick --submission build/check-crowd --results build/check-crowd-results lab1 2>&1", 30, 2);
    ck_assert_msg(strstr(output, "more than 1024 entries"), "%s", output);
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
    tcase_add_test(tc, side_by_side_grades_the_same);
    tcase_add_test(tc, jobs_without_the_gpus_is_refused);
    tcase_add_loop_test(tc, a_worker_neither_reads_nor_starves_another, 0, 2);
    suite_add_tcase(s, tc);
    tc = tcase_create("hostile class");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, hostile_names_break_no_file);
    tcase_add_test(tc, too_many_entries_are_refused);
    suite_add_tcase(s, tc);
    return s;
}
