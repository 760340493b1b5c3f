/* grader/wire/harness.c with buffers of int words: staged, launched, read back and judged as integers. */
#include "suites.h"

#include "context.h"
#include "judge/guard_check.h"
#include "wire/harness.h"
#include "labs/registry.h"
#include "program.h"

#include <stdlib.h>
#include <string.h>

#define N 100
#define GUARD 1024 /* floats: 4 KiB, a multiple of any device's sub-buffer alignment */

/* Runs kernel name of the typed fixture on int inputs and judges its int output against a + b. */
static struct case_verdict run_int_add(const char *name)
{
    struct clk_env env;
    struct grade_launch launch;
    struct grade_case c = {.data = GRADE_EXACT};
    struct grade_family family = {0};
    struct harness_raw raw;
    struct case_verdict verdict = {0};
    uint32_t bits[GRADE_MAX_BUFFERS] = {0x12345678u, 0x23456789u, 0x3456789au, 0x456789abu, 0x56789abcu, 0x6789abcdu};
    char *log = NULL;
    memset(&launch, 0, sizeof launch);
    ck_assert_int_eq(clk_env_create("cpu", &env), 0);
    cl_program program = clk_build_program(env.context, env.info.device, "tests/fixtures/typed/add_int.cl", "", &log);
    ck_assert_msg(program != NULL, "%s", log ? log : "");
    cl_kernel kernel = clCreateKernel(program, name, NULL);
    ck_assert_ptr_nonnull(kernel);
    ck_assert_int_eq(labs_add_typed_buffer(&launch, "a", N, 0, COMPARE_INT, &c, 5), 0);
    ck_assert_int_eq(labs_add_typed_buffer(&launch, "b", N, 0, COMPARE_INT, &c, 5), 0);
    ck_assert_int_eq(labs_add_typed_buffer(&launch, "c", N, 1, COMPARE_INT, &c, 5), 0);
    ck_assert_int_eq(launch.shape.type, COMPARE_INT);
    launch.shape.count = N;
    launch.ints[launch.int_count++] = N;
    launch.work_dims = 1;
    launch.global[0] = 128;
    launch.local[0] = 64;
    launch.expected = calloc(N, sizeof(double));
    launch.bound = calloc(N, sizeof(double));
    for (size_t i = 0; i < N; i++) {
        int32_t a, b;
        memcpy(&a, &launch.host[0][i], sizeof a);
        memcpy(&b, &launch.host[1][i], sizeof b);
        ck_assert(a >= -4 && a <= 4 && b >= -4 && b <= 4); /* integers, not float bits */
        launch.expected[i] = a + b;
    }
    float *area = calloc(harness_area_floats(&launch, GUARD), sizeof(float));
    ck_assert_int_eq(harness_launch(&env, &kernel, &launch, GUARD, bits, area, &raw), CL_SUCCESS);
    ck_assert_int_eq(guard_check(&family, &launch, GUARD, bits, &raw, &verdict), 0);
    free(area);
    labs_launch_free(&launch);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
    clk_env_release(&env);
    free(log);
    return verdict;
}

START_TEST(int_buffers_are_judged_as_integers)
{
    struct case_verdict right = run_int_add("add_int");
    ck_assert_msg(right.values_ok && right.memory_ok, "%s %s", right.values, right.memory);
    struct case_verdict wrong = run_int_add("add_int_off_by_one");
    ck_assert(!wrong.values_ok && wrong.memory_ok);
    ck_assert_msg(strstr(wrong.values, "1 of 100 elements wrong") && strstr(wrong.values, "index 99: expected "),
                  "%s", wrong.values);
    ck_assert_msg(!strstr(wrong.values, "e+") && !strstr(wrong.values, "e-"), "%s", wrong.values);
}
END_TEST

/* Runs kernel name of the file at path (kernels/file when path has no slash), of family, on case c, between guard
   zones; returns its verdict. */
static struct case_verdict run_kit_kernel(struct clk_env *env, const char *file, const char *name,
                                          const struct grade_family *family, const struct grade_case *c)
{
    struct grade_launch launch;
    struct harness_raw raw;
    struct case_verdict verdict = {0};
    uint32_t bits[GRADE_MAX_BUFFERS] = {0x12345678u, 0x23456789u, 0x3456789au, 0x456789abu, 0x56789abcu, 0x6789abcdu};
    char path[256], *log = NULL;
    memset(&launch, 0, sizeof launch);
    snprintf(path, sizeof path, "%s%s", strchr(file, '/') ? "" : "kernels/", file);
    cl_program program = clk_build_program(env->context, env->info.device, path, "", &log);
    ck_assert_msg(program != NULL, "%s: %s", path, log ? log : "");
    cl_kernel kernel = clCreateKernel(program, name, NULL);
    ck_assert_ptr_nonnull(kernel);
    ck_assert_int_eq(family->prepare(c, 11, &launch), 0);
    float *area = calloc(harness_area_floats(&launch, GUARD), sizeof(float));
    ck_assert_int_eq(harness_launch(env, &kernel, &launch, GUARD, bits, area, &raw), CL_SUCCESS);
    ck_assert_int_eq(guard_check(family, &launch, GUARD, bits, &raw, &verdict), 0);
    free(area);
    labs_launch_free(&launch);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
    free(log);
    return verdict;
}

/* The kit's own kernels that speed is measured against (baselines) or beside (going further) compute the lab's
   result, on the lab's shapes: a wrong baseline would make every speedup meaningless. */
START_TEST(baseline_and_further_kernels_are_right)
{
    const struct grade_lab_spec *lab = registry_lab((size_t)_i);
    const struct grade_perf *perf = &lab->perf;
    struct clk_env env;
    ck_assert_int_eq(clk_env_create("cpu", &env), 0);
    for (size_t s = 0; s < lab->shapes->count; s++) {
        struct grade_case c = lab->shapes->shapes[s];
        struct case_verdict v;
        if (c.exact_only || c.dims[0] * (c.dims[1] ? c.dims[1] : 1) > (1u << 20))
            continue;
        c.data = GRADE_EXACT;
        c.local[0] = c.local[1] = perf->local ? perf->local : c.local[0];
        c.groups = perf->groups ? perf->groups : c.groups;
        if (perf->baseline_file) {
            v = run_kit_kernel(&env, perf->baseline_file, perf->baseline_kernel, perf->baseline_family, &c);
            ck_assert_msg(v.values_ok && v.memory_ok, "%s, shape %zu: %s %s", perf->baseline_file, s, v.values, v.memory);
        }
        if (perf->further.file) {
            v = run_kit_kernel(&env, perf->further.file, perf->further.kernel, perf->further.family, &c);
            ck_assert_msg(v.values_ok && v.memory_ok, "%s, shape %zu: %s %s", perf->further.file, s, v.values, v.memory);
        }
    }
    clk_env_release(&env);
}
END_TEST

/* Lab 8's going-further kernel takes a path without edge code for whole, float4-aligned 128 x 256 blocks, which
   lab 8's shapes are too small to reach: blocks all whole, and whole blocks beside partial ones. */
START_TEST(warptile_whole_blocks_are_right)
{
    const struct grade_lab_spec *lab = registry_find("lab8");
    const size_t dims[][3] = {{256, 512, 64}, {300, 520, 76}};
    struct clk_env env;
    ck_assert_int_eq(clk_env_create("cpu", &env), 0);
    for (size_t d = 0; d < sizeof dims / sizeof dims[0]; d++) {
        struct grade_case c = {.dims = {dims[d][0], dims[d][1], dims[d][2]}, .local = {16}, .data = GRADE_REAL};
        struct case_verdict v = run_kit_kernel(&env, lab->perf.further.file, lab->perf.further.kernel,
                                               lab->perf.further.family, &c);
        ck_assert_msg(v.values_ok && v.memory_ok, "%zux%zux%zu: %s %s", dims[d][0], dims[d][1], dims[d][2], v.values,
                      v.memory);
    }
    clk_env_release(&env);
}
END_TEST

/* Lab 11's kernels of the file at path, run in their sequence on case c between guard zones; returns the verdict. */
static struct case_verdict run_scan(struct clk_env *env, const char *path, const struct grade_case *c)
{
    const struct grade_lab_spec *lab = registry_find("lab11");
    struct grade_launch launch;
    struct harness_raw raw;
    struct case_verdict verdict = {0};
    uint32_t bits[GRADE_MAX_BUFFERS] = {0x12345678u, 0x23456789u, 0x3456789au, 0x456789abu, 0x56789abcu, 0x6789abcdu};
    cl_kernel kernels[GRADE_MAX_KERNELS] = {NULL};
    cl_program program = clk_build_program(env->context, env->info.device, path, "", NULL);
    ck_assert_ptr_nonnull(program);
    for (int k = 0; k < labs_kernel_count(lab); k++)
        ck_assert_ptr_nonnull(kernels[k] = clCreateKernel(program, labs_kernel_name(lab, k), NULL));
    memset(&launch, 0, sizeof launch);
    ck_assert_int_eq(lab->family->prepare(c, 5, &launch), 0);
    float *area = calloc(harness_area_floats(&launch, GUARD), sizeof(float));
    ck_assert_int_eq(harness_launch(env, kernels, &launch, GUARD, bits, area, &raw), CL_SUCCESS);
    ck_assert_int_eq(guard_check(lab->family, &launch, GUARD, bits, &raw, &verdict), 0);
    free(area);
    labs_launch_free(&launch);
    for (int k = 0; k < labs_kernel_count(lab); k++)
        clReleaseKernel(kernels[k]);
    clReleaseProgram(program);
    return verdict;
}

/* A lab of several kernels runs them in its order, over its intermediate buffers: right, and with real data whose
   sums wrap; a wrong result is traced to the first kernel whose own output is wrong. */
START_TEST(several_kernels_run_in_order_and_a_failure_names_its_kernel)
{
    static const struct {
        const char *path, *kernel;
    } runs[] = {
        {"solutions/lab11/scan.cl", ""},
        {"tests/fixtures/lab11/inclusive/lab11/scan.cl", "scan_blocks"},
        {"tests/fixtures/lab11/edge-off-by-one/lab11/scan.cl", "scan_blocks"},
        {"tests/fixtures/lab11/no-offsets/lab11/scan.cl", "add_offsets"},
    };
    struct grade_case c = {.data = GRADE_REAL, .dims = {3001}, .local = {32}};
    struct clk_env env;
    ck_assert_int_eq(clk_env_create("cpu", &env), 0);
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        struct case_verdict v = run_scan(&env, runs[i].path, &c);
        ck_assert_msg(v.memory_ok && v.values_ok == !runs[i].kernel[0], "%s: %s", runs[i].path, v.values);
        ck_assert_msg(!strcmp(v.kernel, runs[i].kernel), "%s: traced to '%s'", runs[i].path, v.kernel);
    }
    clk_env_release(&env);
}
END_TEST

/* Lab 11's solution stays right in work-groups larger than scan_sums' tile has runs for: 512 work-items, of which
   the first 256 own runs, over 4,097 totals (two tiles). */
START_TEST(scan_solution_is_right_in_groups_past_its_tile)
{
    struct grade_case c = {.data = GRADE_REAL, .dims = {(1 << 22) + 3}, .local = {512}};
    struct clk_env env;
    ck_assert_int_eq(clk_env_create("cpu", &env), 0);
    struct case_verdict v = run_scan(&env, "solutions/lab11/scan.cl", &c);
    ck_assert_msg(v.memory_ok && v.values_ok, "%s %s (traced to '%s')", v.values, v.memory, v.kernel);
    clk_env_release(&env);
}
END_TEST

/* The judge's side alone, on buffers as a device would leave them: a transpose that wrapped columns into the next
   rows and wrote past the end of its output. Its values verdict holds the map of the matrix, with a row for the
   words past the end. */
START_TEST(a_write_past_the_end_is_mapped)
{
    struct grade_case c = {.data = GRADE_EXACT, .dims = {20, 13}, .local = {16}, .tile = 16};
    const struct grade_family *family = registry_find("lab7")->family;
    struct grade_launch launch;
    struct harness_raw raw;
    struct case_verdict v;
    uint32_t bits[GRADE_MAX_BUFFERS] = {0x12345678u, 0x23456789u, 0x3456789au, 0x456789abu, 0x56789abcu, 0x6789abcdu};
    memset(&launch, 0, sizeof launch);
    ck_assert_int_eq(family->prepare(&c, 11, &launch), 0);
    for (int i = 0; i < launch.buffer_count; i++) {
        size_t total = 2 * GUARD + launch.counts[i];
        raw.totals[i] = total;
        raw.data[i] = malloc(total * sizeof(float));
        for (size_t k = 0; k < total; k++)
            memcpy(&raw.data[i][k], &bits[i], sizeof bits[i]);
        if (!launch.is_output[i])
            memcpy(raw.data[i] + GUARD, launch.host[i], launch.counts[i] * sizeof(float));
    }
    float *out = raw.data[1] + GUARD; /* out is 13 x 20: right but for row 3, written one row down and beyond */
    for (size_t r = 0; r < 13; r++)
        for (size_t col = 0; col < 20; col++)
            out[r * 20 + col] = (float)launch.expected[r * 20 + col];
    out[13 * 20 + 5] = 1.0f; /* past the end: row 13, column 5 */
    out[3 * 20 + 7] = 99.0f;
    ck_assert_int_eq(guard_check(family, &launch, GUARD, bits, &raw, &v), 0);
    ck_assert_msg(!v.memory_ok && strstr(v.memory, "wrote 1 elements past the end of out"), "%s", v.memory);
    ck_assert_msg(!v.values_ok && strstr(v.values, "map of the 13 x 20 result"), "%s", v.values);
    ck_assert_msg(strstr(v.values, "map |.......X............|") &&
                  strstr(v.values, "map |     !              |  past the end"), "%s", v.values);
    for (int i = 0; i < launch.buffer_count; i++)
        free(raw.data[i]);
    labs_launch_free(&launch);
}
END_TEST

/* Lab 8's baseline is lab 6's solution, kept in kernels/ because a student release ships no solutions: the two must
   not drift apart (the first line, which says what each file is, aside). */
START_TEST(lab8_baseline_is_lab6_solution)
{
    char *output;
    int status = run_in_kit("tail -n +2 kernels/matmul_tiled.cl > build/baseline-lab8.cl && "
                            "tail -n +2 solutions/lab6/matmul_tiled.cl > build/solution-lab6.cl && "
                            "cmp build/baseline-lab8.cl build/solution-lab6.cl 2>&1", 10, &output);
    ck_assert_msg(status == 0, "kernels/matmul_tiled.cl and solutions/lab6/matmul_tiled.cl differ:\n%s", output);
    free(output);
}
END_TEST

Suite *harness_suite(void)
{
    Suite *s = suite_create("harness");
    TCase *tc = tcase_create("typed");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, int_buffers_are_judged_as_integers);
    tcase_add_loop_test(tc, baseline_and_further_kernels_are_right, 0, (int)registry_count());
    tcase_add_test(tc, lab8_baseline_is_lab6_solution);
    tcase_add_test(tc, warptile_whole_blocks_are_right);
    tcase_add_test(tc, several_kernels_run_in_order_and_a_failure_names_its_kernel);
    tcase_add_test(tc, scan_solution_is_right_in_groups_past_its_tile);
    tcase_add_test(tc, a_write_past_the_end_is_mapped);
    suite_add_tcase(s, tc);
    return s;
}
