#include "suites.h"

#include "judge/session.h"
#include "timing.h"

#include <stdio.h>
#include <string.h>

/* A runner that answers WIRE_HELLO (an empty one) after doing what script says first. */
static int ask_hello(const char *script, int cpu_paced, double limit_s, int timeout_s, int *late)
{
    char command[512];
    snprintf(command, sizeof command, "%s; printf '\\002\\000\\000\\000\\000\\000\\000\\000\\000\\000\\000\\000' >&3",
             script);
    char *argv[] = {"/bin/sh", "-c", command, NULL};
    struct sandbox_policy policy = {.timeout_s = timeout_s, .output_limit = 4096, .wire = 1};
    struct wire_job job;
    struct wire_message reply;
    struct session s;
    struct sandbox_outcome outcome;
    int rc;
    memset(&job, 0, sizeof job);
    memset(&s, 0, sizeof s);
    s.cpu_paced = cpu_paced;
    ck_assert_int_eq(session_start(&s, argv, &policy, &job), 0);
    s.ask_limit_s = limit_s;
    rc = session_ask(&s, 0, NULL, 0, WIRE_HELLO, 64, &reply);
    *late = s.late;
    wire_message_free(&reply);
    session_end(&s, &outcome);
    sandbox_outcome_free(&outcome);
    return rc;
}

/* A runner the machine kept waiting (asleep here: no CPU time) is not late for the reference judge or a CPU
   device: the wait stretches; without pacing (a GPU's runner) it is late. */
START_TEST(starved_runner_is_waited_for)
{
    int late;
    ck_assert_int_eq(ask_hello("sleep 1.5", 1, 0.5, 30, &late), 0);
    ck_assert_int_eq(late, 0);
    ck_assert_int_eq(ask_hello("sleep 1.5", 0, 0.5, 30, &late), -1);
    ck_assert_int_eq(late, 1);
}
END_TEST

/* A runner that spends its CPU time and does not answer is late all the same, within the stretch. */
START_TEST(busy_runner_is_late)
{
    int late;
    double start = clk_now_s();
    ck_assert_int_eq(ask_hello("while :; do :; done", 1, 0.4, 30, &late), -1);
    ck_assert_int_eq(late, 1);
    ck_assert(clk_now_s() - start < SESSION_STRETCH * 0.4 + 5.0);
}
END_TEST

/* The run's own deadline, with no limit on the question (a timing), stretches the same way for a starved run. */
START_TEST(starved_run_outlives_its_deadline)
{
    int late;
    ck_assert_int_eq(ask_hello("sleep 2.5", 1, 0, 1, &late), 0);
    ck_assert_int_eq(ask_hello("sleep 2.5", 0, 0, 1, &late), -1);
    ck_assert_int_eq(late, 0);
}
END_TEST

Suite *session_suite(void)
{
    Suite *s = suite_create("session");
    TCase *tc = tcase_create("pacing");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, starved_runner_is_waited_for);
    tcase_add_test(tc, busy_runner_is_late);
    tcase_add_test(tc, starved_run_outlives_its_deadline);
    suite_add_tcase(s, tc);
    return s;
}
