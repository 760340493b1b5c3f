#include "suites.h"

#include "result.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Writes records through a pipe, as the lab's child does, and parses what arrives. */
static size_t through_pipe(void (*write_records)(int fd), char *buffer, size_t size)
{
    int fds[2];
    ssize_t got;
    ck_assert_int_eq(pipe(fds), 0);
    write_records(fds[1]);
    close(fds[1]);
    got = read(fds[0], buffer, size);
    close(fds[0]);
    return got > 0 ? (size_t)got : 0;
}

static void some_records(int fd)
{
    struct grade_test test = {.score = 1.5, .max = 3, .passed = 0, .informational = 1,
                              .reason = "line one\nline two with \x1e and \x1f inside"};
    strcpy(test.name, "exact cases");
    strcpy(test.metrics, "ms=1.5;speedup=2.25");
    record_device(fd, "Test Device");
    record_begin(fd, "exact cases");
    record_progress(fd, "case 3 of 9");
    record_test(fd, &test);
    record_begin(fd, "real cases");
}

START_TEST(records_round_trip)
{
    char buffer[4096];
    struct grade_lab_result result;
    size_t length = through_pipe(some_records, buffer, sizeof buffer);
    memset(&result, 0, sizeof result);
    ck_assert_int_eq(record_parse(buffer, length, &result), 5);
    ck_assert_int_eq(result.test_count, 1);
    ck_assert_str_eq(result.tests[0].name, "exact cases");
    ck_assert_double_eq(result.tests[0].score, 1.5);
    ck_assert_double_eq(result.tests[0].max, 3.0);
    ck_assert_int_eq(result.tests[0].passed, 0);
    ck_assert_int_eq(result.tests[0].informational, 1);
    ck_assert_str_eq(result.tests[0].reason, "line one\nline two with ? and ? inside");
    ck_assert_str_eq(result.tests[0].metrics, "ms=1.5;speedup=2.25");
    ck_assert_str_eq(result.device, "Test Device");
    ck_assert_str_eq(result.progress, "case 3 of 9");
    ck_assert_str_eq(result.running, "real cases"); /* begun, never finished: blamed on a crash */
    result_free(&result);
}
END_TEST

START_TEST(truncated_record_is_ignored)
{
    char buffer[4096];
    struct grade_lab_result result;
    size_t length = through_pipe(some_records, buffer, sizeof buffer);
    memset(&result, 0, sizeof result);
    /* A child killed mid-write leaves half a record: the complete ones still count. */
    ck_assert_int_eq(record_parse(buffer, length - 3, &result), 4);
    ck_assert_str_eq(result.running, "");
    result_free(&result);
}
END_TEST

static void setup_error(int fd)
{
    record_setup_error(fd, "no device");
}

START_TEST(setup_error_is_kept)
{
    char buffer[256];
    struct grade_lab_result result;
    size_t length = through_pipe(setup_error, buffer, sizeof buffer);
    memset(&result, 0, sizeof result);
    record_parse(buffer, length, &result);
    ck_assert_str_eq(result.setup_error, "no device");
    result_free(&result);
}
END_TEST

START_TEST(result_fills_up)
{
    struct grade_lab_result result;
    memset(&result, 0, sizeof result);
    for (int i = 0; i < GRADE_MAX_TESTS; i++)
        ck_assert_ptr_nonnull(result_add(&result, "t", 1, 1, 1, "ok"));
    ck_assert_ptr_null(result_add(&result, "one too many", 1, 1, 1, "ok"));
    result_free(&result);
}
END_TEST

Suite *result_suite(void)
{
    Suite *s = suite_create("result");
    TCase *tc = tcase_create("records");
    tcase_add_test(tc, records_round_trip);
    tcase_add_test(tc, truncated_record_is_ignored);
    tcase_add_test(tc, setup_error_is_kept);
    tcase_add_test(tc, result_fills_up);
    suite_add_tcase(s, tc);
    return s;
}
