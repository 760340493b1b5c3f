/* grader/report/record.c: the kit's own result record, written and read back field for field. */
#include "suites.h"

#include "report/record.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DIR "build/check-record"

/* Writes run as DIR/NAME.record with the record's writer. */
static void write_run(const char *name, const struct export_run *run)
{
    char path[256];
    snprintf(path, sizeof path, DIR "/%s.record", name);
    ck_assert_int_eq(system("mkdir -p " DIR), 0);
    ck_assert_int_eq(result_writer_file(&result_writer_record, path, run), 0);
}

/* Every field of every test, a set-up error, a unit and a device come back exactly (thirds and all). */
START_TEST(a_record_reads_back_exactly)
{
    static struct grade_lab_result results[2];
    static struct record r;
    const char *units[] = {"GB/s", "GFLOP/s"};
    struct export_run run = {.results = results, .units = units, .count = 2, .version = "9"};
    struct grade_test *t;
    int dirfd;
    memset(results, 0, sizeof results);
    strcpy(results[0].lab, "lab1");
    strcpy(results[0].device, "pthread \"cpu\"");
    t = result_add(&results[0], "exact cases", 1.0 / 3.0, 3, 0, "2 of 8 wrong\nline two <b>");
    t->noted = 1;
    strcpy(t->cause, "miscompiled");
    t = result_add(&results[0], "speed", 0, 2, 0, "not timed");
    t->pending = 1;
    strcpy(t->metrics, "rate=12.5;speedup=3");
    strcpy(results[1].lab, "lab6");
    results[1].setup_error = strdup("no OpenCL device");
    write_run("one", &run);
    dirfd = open(DIR, O_RDONLY | O_DIRECTORY);
    ck_assert_int_eq(record_read(dirfd, "one", &r), 0);
    ck_assert_int_eq(r.count, 2);
    ck_assert_str_eq(r.results[0].device, "pthread \"cpu\"");
    ck_assert_str_eq(r.units[1], "GFLOP/s");
    ck_assert_int_eq(r.results[0].test_count, 2);
    ck_assert(r.results[0].tests[0].score == 1.0 / 3.0 && r.results[0].tests[0].noted);
    ck_assert_str_eq(r.results[0].tests[0].reason, "2 of 8 wrong\nline two <b>");
    ck_assert_str_eq(r.results[0].tests[0].cause, "miscompiled");
    ck_assert(r.results[0].tests[1].pending && !r.results[0].tests[1].passed);
    ck_assert(record_rate(&r.results[0]) == 12.5);
    ck_assert_str_eq(r.results[1].setup_error, "no OpenCL device");
    ck_assert_int_eq(record_status(r.results, r.count), 2);
    ck_assert_int_eq(record_status(r.results, 1), 1);
    ck_assert_str_eq(r.why, "");
    record_free(&r);
    ck_assert_int_eq(record_read(dirfd, "none", &r), -1);
    close(dirfd);
    result_free(&results[0]);
    result_free(&results[1]);
}
END_TEST

/* A student not graded has a record that says why, with no labs; a file that is not a record is not read as one. */
START_TEST(not_graded_and_not_a_record)
{
    static struct record r;
    FILE *out;
    int dirfd;
    ck_assert_int_eq(system("mkdir -p " DIR " && echo '{\"score\": 3, \"tests\": []}' > " DIR "/gs.record"), 0);
    out = fopen(DIR "/late.record", "w");
    ck_assert_int_eq(record_write_not_graded(out, "did not finish within its budget"), 0);
    fclose(out);
    dirfd = open(DIR, O_RDONLY | O_DIRECTORY);
    ck_assert_int_eq(record_read(dirfd, "late", &r), 0);
    ck_assert_str_eq(r.why, "did not finish within its budget");
    ck_assert_int_eq(r.count, 0);
    record_free(&r);
    ck_assert_int_eq(record_read(dirfd, "gs", &r), -1);
    close(dirfd);
}
END_TEST

Suite *record_suite(void)
{
    Suite *s = suite_create("record");
    TCase *tc = tcase_create("record");
    tcase_add_test(tc, a_record_reads_back_exactly);
    tcase_add_test(tc, not_graded_and_not_a_record);
    suite_add_tcase(s, tc);
    return s;
}
