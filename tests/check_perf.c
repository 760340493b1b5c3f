#include "suites.h"

#include "judge/device_busy.h"
#include "runner/measure.h"
#include "wire/speed.h"
#include "program.h"

#include <stdlib.h>
#include <unistd.h>
#include <string.h>

#define MEMO_N 1000

START_TEST(spread_of_steady_ratios_is_small)
{
    const double ratios[] = {2.0, 2.01, 1.99, 2.0, 2.02, 1.98, 2.0};
    ck_assert_double_lt(perf_spread(ratios, 7), 0.03);
}
END_TEST

START_TEST(spread_of_noisy_ratios_is_large)
{
    const double ratios[] = {1.0, 2.0, 1.5, 3.0, 1.2, 2.5, 1.8};
    ck_assert_double_gt(perf_spread(ratios, 7), 0.3);
}
END_TEST

START_TEST(spread_ignores_one_outlier)
{
    const double ratios[] = {2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 50.0};
    ck_assert_double_eq(perf_spread(ratios, 7), 0.0);
}
END_TEST

START_TEST(spread_of_too_few)
{
    const double ratios[] = {2.0};
    ck_assert_double_eq(perf_spread(ratios, 1), 0.0);
}
END_TEST

/* The memo fixture, ready to time on the CPU device: its input i, its output poisoned once. */
static void setup_memo(const struct clk_env *env, cl_program program, struct perf_kernel *k)
{
    memset(k, 0, sizeof *k);
    k->kernel = clCreateKernel(program, "memo", NULL);
    ck_assert_ptr_nonnull(k->kernel);
    for (int b = 0; b < 2; b++) {
        k->launch.host[b] = calloc(MEMO_N, sizeof(float));
        k->launch.counts[b] = MEMO_N;
        k->launch.is_output[b] = b == 1;
    }
    for (int i = 0; i < MEMO_N; i++)
        k->launch.host[0][i] = (float)i;
    k->launch.buffer_count = 2;
    k->launch.ints[k->launch.int_count++] = MEMO_N;
    k->launch.work_dims = 1;
    k->launch.global[0] = 1024;
    k->launch.local[0] = 64;
    ck_assert_int_eq(perf_setup(env, k), CL_SUCCESS);
}

/* Elements of k's output that its last launch found already computed (-1), or that are not in + 1. */
static int memo_wrong(const struct clk_env *env, struct perf_kernel *k)
{
    static float out[MEMO_N];
    int wrong = 0;
    ck_assert_int_eq(clEnqueueReadBuffer(env->queue, k->buffers[1], CL_TRUE, 0, sizeof out, out, 0, NULL, NULL),
                     CL_SUCCESS);
    for (int i = 0; i < MEMO_N; i++)
        wrong += out[i] != (float)i + 1.0f;
    return wrong;
}

/* Every timed launch, alone or beside the baseline, starts from poisoned outputs: a kernel that keeps its answer
   in the output between launches (and could skip its work) finds none there. */
START_TEST(every_timed_launch_starts_from_poison)
{
    struct clk_env env;
    struct perf_kernel student, baseline;
    struct perf_comparison comparison;
    char *log = NULL;
    double ms = 0.0;
    ck_assert_int_eq(clk_env_create("cpu", &env), 0);
    cl_program program = clk_build_program(env.context, env.info.device, "tests/fixtures/perf/memo.cl", "", &log);
    ck_assert_msg(program != NULL, "%s", log ? log : "");
    setup_memo(&env, program, &student);
    setup_memo(&env, program, &baseline);
    ck_assert_int_eq(perf_time(&env, &student, 5, &ms), CL_SUCCESS);
    ck_assert_msg(memo_wrong(&env, &student) == 0, "a launch timed alone found the last launch's answer");
    ck_assert_int_eq(perf_compare(&env, &student, &baseline, 0.05, 0.0, &comparison), CL_SUCCESS);
    ck_assert_int_ge(comparison.pairs, 7);
    ck_assert_msg(memo_wrong(&env, &student) == 0, "a launch timed beside the baseline found the last answer");
    ck_assert_msg(memo_wrong(&env, &baseline) == 0, "a baseline launch found the last answer");
    perf_release(&student);
    perf_release(&baseline);
    clReleaseKernel(student.kernel);
    clReleaseKernel(baseline.kernel);
    clReleaseProgram(program);
    free(log);
    clk_env_release(&env);
}
END_TEST


/* The decision is a function of the samples alone: fed measured ratios here, never timed. */
START_TEST(interval_brackets_the_median)
{
    const double ratios[] = {1.9, 2.0, 2.1, 2.0, 1.95, 2.05, 2.0, 1.98, 2.02, 2.01, 1.99};
    struct speed_estimate e;
    speed_estimate(ratios, 11, &e);
    ck_assert_double_eq(e.median, 2.0);
    ck_assert_double_le(e.low, 2.0);
    ck_assert_double_ge(e.high, 2.0);
    ck_assert_double_gt(e.low, 1.9); /* 11 samples: the interval drops the extremes */
    ck_assert_double_lt(e.high, 2.1);
    speed_estimate(ratios, 3, &e); /* too few to drop any: the extremes */
    ck_assert_double_eq(e.low, 1.9);
    ck_assert_double_eq(e.high, 2.1);
}
END_TEST

START_TEST(clear_results_are_decided)
{
    const double fast[] = {3.1, 3.0, 3.2, 2.9, 3.0, 3.1, 3.0}, slow[] = {0.03, 0.02, 0.03, 0.04, 0.03, 0.02, 0.03};
    struct speed_estimate e;
    speed_estimate(fast, 7, &e);
    ck_assert_int_eq(speed_decide(&e, 0.5), SPEED_MET);
    ck_assert_int_eq(speed_awarded(speed_decide(&e, 0.5)), 1);
    ck_assert_int_eq(speed_decide(&e, 0.0), SPEED_NO_THRESHOLD);
    speed_estimate(slow, 7, &e);
    ck_assert_int_eq(speed_decide(&e, 0.5), SPEED_NOT_MET);
    ck_assert_int_eq(speed_awarded(speed_decide(&e, 0.5)), 0);
}
END_TEST

/* A threshold inside the noise is close: timed again (twice the time allowed), then given the benefit of the doubt
   on either side of the median. */
START_TEST(close_results_are_timed_again_then_awarded)
{
    const double noisy[] = {1.02, 1.10, 0.98, 1.12, 1.05, 0.96, 1.08, 1.00, 1.11};
    struct speed_estimate e;
    speed_estimate(noisy, 9, &e);
    ck_assert_int_eq(speed_decide(&e, 1.06), SPEED_CLOSE);
    ck_assert_int_eq(speed_decide(&e, 1.03), SPEED_CLOSE);
    ck_assert_int_eq(speed_awarded(SPEED_CLOSE), 1);
    ck_assert_int_eq(speed_may_stop(&e, 1.06, 0.05, 7, 5.0, 4.0), 0); /* past the budget, but close */
    ck_assert_int_eq(speed_may_stop(&e, 1.06, 0.05, 7, 8.5, 4.0), 1); /* past twice the budget */
    ck_assert_int_eq(speed_may_stop(&e, 2.00, 0.05, 7, 5.0, 4.0), 1); /* clear of the threshold: the budget */
}
END_TEST

START_TEST(narrow_and_clear_stops_early)
{
    const double steady[] = {2.00, 2.01, 1.99, 2.00, 2.02, 1.99, 2.00};
    struct speed_estimate e;
    speed_estimate(steady, 7, &e);
    ck_assert_int_eq(speed_may_stop(&e, 1.5, 0.05, 7, 0.1, 4.0), 1);
    ck_assert_int_eq(speed_may_stop(&e, 2.0, 0.05, 7, 0.1, 4.0), 0); /* the threshold inside: more pairs */
    speed_estimate(steady, 6, &e);
    ck_assert_int_eq(speed_may_stop(&e, 1.5, 0.05, 7, 0.1, 4.0), 0); /* too few pairs yet */
}
END_TEST

/* On a busy device a near miss waits for a free one; a kernel many times too slow, or a met threshold, stands. */
START_TEST(busy_device_decides_only_clear_results)
{
    const double near[] = {1.00, 1.01, 0.99, 1.00, 1.02, 0.99, 1.00}, far[] = {0.1, 0.11, 0.09, 0.1, 0.1, 0.1, 0.1};
    const double fast[] = {3.0, 3.1, 2.9, 3.0, 3.0, 3.1, 2.9};
    struct speed_estimate e;
    speed_estimate(near, 7, &e);
    ck_assert_int_eq(speed_decide(&e, 1.2), SPEED_NOT_MET);
    ck_assert_int_eq(speed_stands_when_busy(&e, 1.2), 0);
    speed_estimate(far, 7, &e);
    ck_assert_int_eq(speed_stands_when_busy(&e, 1.2), 1);
    speed_estimate(fast, 7, &e);
    ck_assert_int_eq(speed_stands_when_busy(&e, 1.2), 1);
}
END_TEST

START_TEST(busy_cpu_needs_half_the_cores_throughout)
{
    const int steady[] = {2, 3, 2}, passing[] = {4, 0, 3}, one[] = {1, 1, 1};
    ck_assert_int_eq(busy_cpu_verdict(steady, 3, 4), 1);
    ck_assert_int_eq(busy_cpu_verdict(passing, 3, 4), 0); /* a moment's load is not a busy machine */
    ck_assert_int_eq(busy_cpu_verdict(one, 3, 2), 1);
    ck_assert_int_eq(busy_cpu_verdict(one, 3, 16), 0);
}
END_TEST

START_TEST(the_grader_and_its_children_are_its_own)
{
    unsetenv(BUSY_ROOT_ENV);
    ck_assert_int_eq(busy_is_ours(getpid()), 1); /* no root recorded: this process is the root */
    ck_assert_int_eq(busy_is_ours(1), 0);
}
END_TEST

Suite *perf_suite(void)
{
    Suite *s = suite_create("perf");
    TCase *tc = tcase_create("statistics");
    tcase_add_test(tc, spread_of_steady_ratios_is_small);
    tcase_add_test(tc, spread_of_noisy_ratios_is_large);
    tcase_add_test(tc, spread_ignores_one_outlier);
    tcase_add_test(tc, spread_of_too_few);
    tcase_add_test(tc, every_timed_launch_starts_from_poison);
    tcase_add_test(tc, interval_brackets_the_median);
    tcase_add_test(tc, clear_results_are_decided);
    tcase_add_test(tc, close_results_are_timed_again_then_awarded);
    tcase_add_test(tc, narrow_and_clear_stops_early);
    tcase_add_test(tc, busy_device_decides_only_clear_results);
    tcase_add_test(tc, busy_cpu_needs_half_the_cores_throughout);
    tcase_add_test(tc, the_grader_and_its_children_are_its_own);
    suite_add_tcase(s, tc);
    return s;
}
