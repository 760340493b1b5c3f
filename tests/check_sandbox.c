#include "suites.h"

#include "runner/landlock.h"
#include "runner/sandbox.h"
#include "timing.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>
#include <unistd.h>

static struct sandbox_outcome run(const char *script, int untrusted, int timeout_s, size_t limit)
{
    struct sandbox_outcome outcome;
    struct sandbox_policy policy = {.untrusted = untrusted, .timeout_s = timeout_s, .output_limit = limit,
                                    .writable = "/tmp"};
    char *argv[] = {"/bin/sh", "-c", (char *)script, NULL};
    sandbox_exec(argv, &policy, &outcome);
    return outcome;
}

START_TEST(infinite_loop_times_out)
{
    struct sandbox_outcome outcome = run("while :; do :; done", 1, 1, 1024);
    char text[256];
    ck_assert_int_eq(outcome.end, SANDBOX_TIMED_OUT);
    sandbox_describe(&outcome, 1, text, sizeof text);
    ck_assert_ptr_nonnull(strstr(text, "timed out after 1 s"));
    sandbox_outcome_free(&outcome);
}
END_TEST

START_TEST(crash_is_named)
{
    struct sandbox_outcome outcome = run("kill -SEGV $$", 1, 10, 1024);
    char text[256];
    ck_assert_int_eq(outcome.end, SANDBOX_SIGNALED);
    ck_assert_int_eq(outcome.code, SIGSEGV);
    sandbox_describe(&outcome, 10, text, sizeof text);
    ck_assert_ptr_nonnull(strstr(text, "crashed with SIGSEGV (probably an out-of-bounds access)"));
    sandbox_outcome_free(&outcome);
}
END_TEST

START_TEST(exec_captures_output)
{
    struct sandbox_outcome outcome = run("echo out; echo err >&2; exit 3", 0, 10, 1024);
    ck_assert_int_eq(outcome.end, SANDBOX_EXITED);
    ck_assert_int_eq(outcome.code, 3);
    ck_assert_ptr_nonnull(strstr(outcome.output, "out"));
    ck_assert_ptr_nonnull(strstr(outcome.output, "err"));
    sandbox_outcome_free(&outcome);
}
END_TEST

START_TEST(output_is_capped_and_drained)
{
    struct sandbox_outcome outcome = run("yes | head -c 3000000", 1, 10, 1000);
    ck_assert_int_eq(outcome.end, SANDBOX_EXITED);
    ck_assert_uint_eq(outcome.output_length, 1000);
    ck_assert_uint_ge(outcome.output_dropped, 3000000 - 1000);
    sandbox_outcome_free(&outcome);
}
END_TEST

START_TEST(exec_of_missing_program)
{
    struct sandbox_outcome outcome;
    struct sandbox_policy policy = {.timeout_s = 10, .output_limit = 1024};
    char *argv[] = {"/nonexistent/program", NULL};
    sandbox_exec(argv, &policy, &outcome);
    ck_assert_int_eq(outcome.code, 127);
    ck_assert_ptr_nonnull(strstr(outcome.output, "cannot run /nonexistent/program"));
    sandbox_outcome_free(&outcome);
}
END_TEST

/* A child that closes its output and waits forever still meets the deadline. */
START_TEST(deadline_holds_after_output_closes)
{
    double start = clk_now_s();
    struct sandbox_outcome outcome = run("exec >&- 2>&-; sleep 60", 1, 2, 1024);
    ck_assert_int_eq(outcome.end, SANDBOX_TIMED_OUT);
    ck_assert(clk_now_s() - start < 5.0);
    sandbox_outcome_free(&outcome);
}
END_TEST

/* A child that the judge gives up on (it broke the protocol) is stopped at once, not at its deadline. */
START_TEST(misbehaving_child_is_stopped_at_once)
{
    struct sandbox_policy policy = {.untrusted = 1, .timeout_s = 30, .output_limit = 1024, .writable = "/tmp"};
    struct sandbox_child child;
    struct sandbox_outcome outcome;
    char *argv[] = {"/bin/sh", "-c", "sleep 60", NULL};
    double start = clk_now_s();
    char text[256];
    ck_assert_int_eq(sandbox_spawn(argv, &policy, &child), 0);
    child.stop_soon = 1;
    sandbox_finish(&child, &outcome);
    ck_assert_int_eq(outcome.end, SANDBOX_STOPPED);
    ck_assert(clk_now_s() - start < 5.0);
    sandbox_describe(&outcome, 30, text, sizeof text);
    ck_assert_ptr_nonnull(strstr(text, "protocol"));
    sandbox_outcome_free(&outcome);
}
END_TEST

/* Without bubblewrap, Landlock stops writes outside the run's folder even where the file's mode allows them. */
START_TEST(landlock_keeps_writes_in_the_run_folder)
{
    char target[] = "/tmp/clkit-landlock-XXXXXX", folder[] = "/tmp/clkit-run-XXXXXX", script[256];
    struct sandbox_outcome outcome;
    struct sandbox_policy policy = {.untrusted = 1, .timeout_s = 10, .output_limit = 4096, .writable = folder};
    char *argv[] = {"/bin/sh", "-c", script, NULL};
    int fd = mkstemp(target);
    if (landlock_abi() == 0)
        return; /* no Landlock in this kernel: nothing to check */
    setenv("CLKIT_BUBBLEWRAP", "0", 1);
    ck_assert_int_ge(fd, 0);
    close(fd);
    chmod(target, 0666);
    ck_assert_ptr_nonnull(mkdtemp(folder));
    chmod(folder, 0777);
    snprintf(script, sizeof script, "echo inside > %s/ok; cat %s/ok; echo outside > %s", folder, folder, target);
    sandbox_exec(argv, &policy, &outcome);
    ck_assert_msg(outcome.output && strstr(outcome.output, "inside"), "no write in the run folder: %s",
                  outcome.output ? outcome.output : "");
    ck_assert_msg(outcome.end == SANDBOX_EXITED && outcome.code != 0, "the write outside was allowed");
    sandbox_outcome_free(&outcome);
    unlink(target);
    snprintf(script, sizeof script, "rm -rf %s", folder);
    ck_assert_int_eq(system(script), 0);
}
END_TEST

/* A daemon in a session of its own does not outlive the run. */
START_TEST(daemons_do_not_outlive_the_run)
{
    char path[] = "/tmp/clkit-daemon-XXXXXX", script[256], pid_text[32] = "";
    int fd = mkstemp(path);
    FILE *f;
    long pid = 0;
    sandbox_init(); /* as the grader does: orphans come back to it */
    setenv("CLKIT_BUBBLEWRAP", "0", 1); /* the layers that must hold without bubblewrap's process namespace */
    ck_assert_int_ge(fd, 0);
    close(fd);
    chmod(path, 0666);
    snprintf(script, sizeof script, "setsid sh -c 'echo $$ > %s; exec sleep 60' & sleep 1; exit 0", path);
    struct sandbox_outcome outcome = run(script, 1, 10, 1024);
    sandbox_outcome_free(&outcome);
    f = fopen(path, "r");
    ck_assert_ptr_nonnull(f);
    ck_assert_ptr_nonnull(fgets(pid_text, sizeof pid_text, f));
    fclose(f);
    unlink(path);
    pid = atol(pid_text);
    ck_assert_int_gt(pid, 1);
    ck_assert_msg(kill((pid_t)pid, 0) != 0, "process %ld outlived the run", pid);
}
END_TEST

/* Untrusted code gets stdin, stdout and stderr only, a clean environment, and no root. */
START_TEST(untrusted_code_is_confined)
{
    int leaked = open("/dev/null", O_RDONLY); /* not close-on-exec */
    struct sandbox_outcome outcome;
    setenv("CLKIT_SECRET_FOR_TEST", "visible", 1);
    outcome = run("ls /proc/self/fd | wc -l; env; id -u", 1, 10, 65536);
    ck_assert_int_eq(outcome.end, SANDBOX_EXITED);
    ck_assert_ptr_null(strstr(outcome.output, "CLKIT_SECRET_FOR_TEST"));
    ck_assert_msg(atoi(outcome.output) <= 4, "descriptors open in the child: %s", outcome.output); /* + ls's own */
    if (geteuid() == 0)
        ck_assert_msg(!strstr(outcome.output, "\n0\n"), "untrusted code ran as root:\n%s", outcome.output);
    sandbox_outcome_free(&outcome);
    close(leaked);
}
END_TEST

Suite *sandbox_suite(void)
{
    Suite *s = suite_create("sandbox");
    TCase *tc = tcase_create("confinement");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, infinite_loop_times_out);
    tcase_add_test(tc, crash_is_named);
    tcase_add_test(tc, exec_captures_output);
    tcase_add_test(tc, output_is_capped_and_drained);
    tcase_add_test(tc, exec_of_missing_program);
    tcase_add_test(tc, deadline_holds_after_output_closes);
    tcase_add_test(tc, misbehaving_child_is_stopped_at_once);
    tcase_add_test(tc, landlock_keeps_writes_in_the_run_folder);
    tcase_add_test(tc, daemons_do_not_outlive_the_run);
    tcase_add_test(tc, untrusted_code_is_confined);
    suite_add_tcase(s, tc);
    return s;
}
