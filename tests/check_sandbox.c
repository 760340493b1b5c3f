#include "suites.h"

#include "sandbox.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int spins(void *context, int fd)
{
    (void)context, (void)fd;
    for (volatile int spin = 1; spin;)
        ;
    return 0;
}

static int crashes(void *context, int fd)
{
    (void)context, (void)fd;
    raise(SIGSEGV);
    return 0;
}

static int reports(void *context, int fd)
{
    const char *text = context;
    ssize_t written = write(fd, text, strlen(text));
    return written == (ssize_t)strlen(text) ? 7 : 1;
}

START_TEST(infinite_loop_times_out)
{
    struct sandbox_outcome outcome;
    char text[256];
    ck_assert_int_eq(sandbox_run(spins, NULL, 1, NULL, NULL, &outcome), 0);
    ck_assert_int_eq(outcome.end, SANDBOX_TIMED_OUT);
    sandbox_describe(&outcome, 1, text, sizeof text);
    ck_assert_ptr_nonnull(strstr(text, "timed out after 1 s"));
    sandbox_outcome_free(&outcome);
}
END_TEST

START_TEST(crash_is_named)
{
    struct sandbox_outcome outcome;
    char text[256];
    sandbox_run(crashes, NULL, 10, NULL, NULL, &outcome);
    ck_assert_int_eq(outcome.end, SANDBOX_SIGNALED);
    ck_assert_int_eq(outcome.code, SIGSEGV);
    sandbox_describe(&outcome, 10, text, sizeof text);
    ck_assert_ptr_nonnull(strstr(text, "crashed with SIGSEGV (probably an out-of-bounds access)"));
    sandbox_outcome_free(&outcome);
}
END_TEST

START_TEST(output_and_status_come_back)
{
    struct sandbox_outcome outcome;
    sandbox_run(reports, "hello from the child", 10, NULL, NULL, &outcome);
    ck_assert_int_eq(outcome.end, SANDBOX_EXITED);
    ck_assert_int_eq(outcome.code, 7);
    ck_assert_str_eq(outcome.output, "hello from the child");
    sandbox_outcome_free(&outcome);
}
END_TEST

START_TEST(exec_captures_output)
{
    struct sandbox_outcome outcome;
    char *argv[] = {"sh", "-c", "echo out; echo err >&2; exit 3", NULL};
    sandbox_exec(argv, 10, 1024, &outcome);
    ck_assert_int_eq(outcome.end, SANDBOX_EXITED);
    ck_assert_int_eq(outcome.code, 3);
    ck_assert_ptr_nonnull(strstr(outcome.output, "out"));
    ck_assert_ptr_nonnull(strstr(outcome.output, "err"));
    sandbox_outcome_free(&outcome);
}
END_TEST

START_TEST(exec_output_is_capped)
{
    struct sandbox_outcome outcome;
    char *argv[] = {"sh", "-c", "yes | head -c 100000", NULL};
    sandbox_exec(argv, 10, 1000, &outcome);
    ck_assert_uint_eq(outcome.output_length, 1000);
    sandbox_outcome_free(&outcome);
}
END_TEST

START_TEST(exec_of_missing_program)
{
    struct sandbox_outcome outcome;
    char *argv[] = {"/nonexistent/program", NULL};
    sandbox_exec(argv, 10, 1024, &outcome);
    ck_assert_int_eq(outcome.code, 127);
    ck_assert_ptr_nonnull(strstr(outcome.output, "cannot run /nonexistent/program"));
    sandbox_outcome_free(&outcome);
}
END_TEST

Suite *sandbox_suite(void)
{
    Suite *s = suite_create("sandbox");
    TCase *tc = tcase_create("isolation");
    tcase_set_timeout(tc, 20);
    tcase_add_test(tc, infinite_loop_times_out);
    tcase_add_test(tc, crash_is_named);
    tcase_add_test(tc, output_and_status_come_back);
    tcase_add_test(tc, exec_captures_output);
    tcase_add_test(tc, exec_output_is_capped);
    tcase_add_test(tc, exec_of_missing_program);
    suite_add_tcase(s, tc);
    return s;
}
