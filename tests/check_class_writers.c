/* grader/report/class_writers.c and scores.c: a class's files written through the table from its records. */
#include "suites.h"

#include "report/class_writers.h"
#include "report/record.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DIR "build/check-class-writers"

static char *read_all(const char *path)
{
    FILE *in = fopen(path, "r");
    static char text[8192];
    size_t n = in ? fread(text, 1, sizeof text - 1, in) : 0;
    if (in)
        fclose(in);
    text[n] = '\0';
    return text;
}

/* scores.csv has a row per student in the class's order: a graded one's scores from their record, a not graded
   one's zeros and why, one with no record "grading stopped"; the HTML report is written only when asked for. */
START_TEST(scores_come_from_the_records)
{
    static struct grade_lab_result results[1];
    const char *units[] = {"GB/s"}, *names[] = {"zoe", "amy", "bob"};
    struct export_run run = {.results = results, .units = units, .count = 1};
    struct judge_config config = {.labs = {"lab1"}, .lab_count = 1};
    struct class_run class = {.results_dir = DIR, .names = names, .count = 3, .config = &config, .said = stdout};
    FILE *out;
    memset(results, 0, sizeof results);
    strcpy(results[0].lab, "lab1");
    result_add(&results[0], "exact cases", 3, 3, 1, "right");
    result_add(&results[0], "real cases", 0.5, 2, 0, "wrong");
    ck_assert_int_eq(system("rm -rf " DIR " && mkdir -p " DIR), 0);
    ck_assert_int_eq(result_writer_file(&result_writer_record, DIR "/zoe.record", &run), 0);
    out = fopen(DIR "/amy.record", "w");
    record_write_not_graded(out, "not graded: its folder has control characters");
    fclose(out);
    ck_assert_int_eq(class_writers_write(&class), 0);
    ck_assert_str_eq(read_all(DIR "/scores.csv"),
                     "student,lab1,total,max,predicted,within,status\nzoe,3.50,3.50,5.00,0,0,some failed\n"
                     "amy,0.00,0.00,,,,not graded: its folder has control characters\n"
                     "bob,0.00,0.00,,,,grading stopped before it wrote a result\n");
    ck_assert_int_ne(system("test -e " DIR "/index.html"), 0);
    result_free(&results[0]);
}
END_TEST

Suite *class_writers_suite(void)
{
    Suite *s = suite_create("class_writers");
    TCase *tc = tcase_create("class writers");
    tcase_add_test(tc, scores_come_from_the_records);
    suite_add_tcase(s, tc);
    return s;
}
