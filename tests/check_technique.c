#include "suites.h"

#include "sanitize.h"
#include "technique.h"

#include <stdlib.h>
#include <string.h>

static const char *counts_log = "grading solutions with seed 1\n"
                                "Instructions executed for kernel 'matmul_tiled':\n"
                                "           11264 - br\n"
                                "            8192 - load local (32768 bytes)\n"
                                "           32768 - load global (131072 bytes)\n"
                                "            8192 - store local (32768 bytes)\n"
                                "            4096 - store global (16384 bytes)\n"
                                "lab6: tiled matmul (on Oclgrind Simulator)\n";

START_TEST(counts_are_read_per_kernel)
{
    struct technique_counts c;
    ck_assert_int_eq(technique_parse(counts_log, "matmul_tiled", &c), 0);
    ck_assert_double_eq(c.global_loads, 32768);
    ck_assert_double_eq(c.global_stores, 4096);
    ck_assert_double_eq(c.local_loads, 8192);
    ck_assert_double_eq(c.local_stores, 8192);
    ck_assert_int_eq(technique_parse(counts_log, "matmul_naive", &c), -1);
}
END_TEST

START_TEST(tile_reuse_budget)
{
    const struct grade_lab_spec *lab = grade_find_lab("lab6");
    struct technique_counts tiled = {.global_loads = 8.0 * 64 * 64}, naive = {.global_loads = 128.0 * 64 * 64};
    char text[512];
    ck_assert_int_eq(technique_judge(lab, &tiled, text, sizeof text), 1);
    ck_assert_ptr_nonnull(strstr(text, "global loads: 8.00 per output element (naive: 128, budget: <= 10.0"));
    ck_assert_int_eq(technique_judge(lab, &naive, text, sizeof text), 0);
}
END_TEST

START_TEST(group_partials_and_staging)
{
    struct technique_counts one_per_group = {.global_stores = 16, .local_stores = 64, .local_loads = 64};
    struct technique_counts one_per_item = {.global_stores = 1024, .local_stores = 64, .local_loads = 64};
    struct technique_counts direct = {.global_loads = 3072, .global_stores = 3072};
    char text[512];
    ck_assert_int_eq(technique_judge(grade_find_lab("lab4"), &one_per_group, text, sizeof text), 1);
    ck_assert_int_eq(technique_judge(grade_find_lab("lab4"), &one_per_item, text, sizeof text), 0);
    ck_assert_int_eq(technique_judge(grade_find_lab("lab7"), &direct, text, sizeof text), 0);
    ck_assert_ptr_nonnull(strstr(text, "local memory: 0 stores and 0 loads for 3072 elements"));
}
END_TEST

/* Through Oclgrind, on any host: the solutions pass, the naive fixtures fail, with the same figure 5 times.
   This runs the inner command that the technique test runs, without the timing around it. */
static const struct {
    const char *lab;
    const char *source;
    const char *figure;
    int passes;
} runs[] = {
    {"lab6", "--solutions", "global loads: 8.00 per output element", 1},
    {"lab6", "--submission tests/fixtures/lab6/naive-in-tiled", "global loads: 128.00 per output element", 0},
    {"lab7", "--solutions", "local memory: 3072 stores and 3072 loads", 1},
    {"lab7", "--submission tests/fixtures/lab7/naive-in-tiled", "local memory: 0 stores and 0 loads", 0},
    {"lab4", "--solutions", "global stores: 16 for 16 work-groups", 1},
    {"lab4", "--submission tests/fixtures/lab4/no-local-memory", "local memory: 0 stores, 0 loads", 0},
    {"lab5", "--solutions", "reads 1.0, writes 2.0", 1},
    {"lab5", "--submission tests/fixtures/lab5/swapped-mapping", "reads 4.5, writes 16.0", 0},
};

START_TEST(technique_verdicts_are_deterministic)
{
    const struct grade_lab_spec *lab = grade_find_lab(runs[_i].lab);
    for (int run = 0; run < 5; run++) {
        char *output, text[512], why[2048] = "";
        struct technique_counts counts;
        struct cli cli = {.timeout_s = 60, .only_case = -1, .solutions = strcmp(runs[_i].source, "--solutions") == 0};
        struct grading g = {.cli = &cli, .seed = (uint64_t)run};
        ck_assert_int_eq(grading_open(&g), 0);
        ck_assert_int_eq(grading_set_source(&g, cli.solutions ? NULL : runs[_i].source + strlen("--submission ")), 0);
        output = sanitize_exec(&g, lab, "--inst-counts", RUNLAB_TECHNIQUE, -1, 120, why, sizeof why);
        grading_close(&g);
        ck_assert_msg(output != NULL, "Oclgrind did not run: %s", why);
        ck_assert_msg(technique_parse(output, lab->kernel_name, &counts) == 0, "no counts:\n%s", output);
        ck_assert_int_eq(technique_judge(lab, &counts, text, sizeof text), runs[_i].passes);
        ck_assert_msg(strstr(text, runs[_i].figure), "run %d: %s", run, text);
        free(output);
    }
}
END_TEST

START_TEST(plugin_counts_known_strides)
{
    /* One warp reading floats 1, 2 and 32 apart, and all from one address: 1, 2, 32 and 1 segments. */
    const char *kernels[] = {"stride_1", "stride_2", "stride_32", "same_address"};
    const int expected[] = {1, 2, 32, 1};
    char *output;
    int status = run_in_kit("oclgrind --plugins build/grader/oclgrind/libclkit-coalesce.so build/tests/stride_probe",
                            60, &output);
    ck_assert_msg(status == 0, "%s", output);
    for (int k = 0; k < 4; k++) {
        char name[32];
        const char *line;
        int requests = 0, transactions = 0, stores = 0;
        snprintf(name, sizeof name, "%s\n", kernels[k]);
        line = strstr(output, name);
        ck_assert_msg(line && (line = strstr(line, "clkit-coalescing ")), "no line for %s:\n%s", kernels[k], output);
        sscanf(line, "clkit-coalescing load_requests=%d load_transactions=%d store_requests=%*d store_transactions=%d",
               &requests, &transactions, &stores);
        ck_assert_int_eq(requests, 1);
        ck_assert_msg(transactions == expected[k], "%s: %d transactions, expected %d", kernels[k], transactions,
                      expected[k]);
        ck_assert_int_eq(stores, 1); /* out[i]: consecutive writes */
    }
    free(output);
}
END_TEST

START_TEST(report_shows_the_figure)
{
    char *output;
    int status = run_in_kit("NO_COLOR=1 ./grade --submission tests/fixtures/lab7/naive-in-tiled lab7 2>&1", 300,
                            &output);
    ck_assert_msg(status == 1 && strstr(output, "\u2717 technique") && strstr(output, "local memory: 0 stores"),
                  "status %d\n%s", status, output);
    free(output);
}
END_TEST

Suite *technique_suite(void)
{
    Suite *s = suite_create("technique");
    TCase *unit = tcase_create("counts"), *end_to_end = tcase_create("oclgrind");
    tcase_add_test(unit, counts_are_read_per_kernel);
    tcase_add_test(unit, tile_reuse_budget);
    tcase_add_test(unit, group_partials_and_staging);
    tcase_set_timeout(end_to_end, 1200);
    tcase_add_loop_test(end_to_end, technique_verdicts_are_deterministic, 0, 8);
    tcase_add_test(end_to_end, plugin_counts_known_strides);
    tcase_add_test(end_to_end, report_shows_the_figure);
    suite_add_tcase(s, unit);
    suite_add_tcase(s, end_to_end);
    return s;
}
