#include "suites.h"

#include "runner/measure.h"
#include "program.h"

#include <stdlib.h>
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

Suite *perf_suite(void)
{
    Suite *s = suite_create("perf");
    TCase *tc = tcase_create("statistics");
    tcase_add_test(tc, spread_of_steady_ratios_is_small);
    tcase_add_test(tc, spread_of_noisy_ratios_is_large);
    tcase_add_test(tc, spread_ignores_one_outlier);
    tcase_add_test(tc, spread_of_too_few);
    tcase_add_test(tc, every_timed_launch_starts_from_poison);
    suite_add_tcase(s, tc);
    return s;
}
