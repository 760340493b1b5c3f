#include "suites.h"

#include "labs/contract.h"
#include "labs/registry.h"
#include "judge/reference_judge.h"
#include "judge/technique_test.h"

#include <stdlib.h>
#include <string.h>

START_TEST(tile_reuse_budget)
{
    const struct grade_lab_spec *lab = registry_find("lab6");
    struct technique_counts tiled = {.global_loads = 4.0 * 32 * 32}, naive = {.global_loads = 64.0 * 32 * 32};
    struct technique_counts none = {0};
    char text[512];
    ck_assert_int_eq(technique_judge(lab, &tiled, text, sizeof text), 1);
    ck_assert_ptr_nonnull(strstr(text, "global loads: 4.00 per output element (naive: 64, budget: <= 5.0"));
    ck_assert_int_eq(technique_judge(lab, &naive, text, sizeof text), 0);
    ck_assert_int_eq(technique_judge(lab, &none, text, sizeof text), -1); /* zero counts: not measured */
}
END_TEST

/* Lab 9: the halo tile's budget on 128 x 72 with TILE 64 and R 2 is 68^2 / 64^2 = 1.13 loads per output, and the
   filter must come through __constant; without a count of __constant loads only the halo is judged. */
START_TEST(halo_tile_budget)
{
    const struct grade_lab_spec *lab = registry_find("lab9");
    const double outputs = 128.0 * 72;
    struct technique_counts tiled = {.global_loads = 1.1 * outputs, .constant_loads = 25 * outputs};
    struct technique_counts global_filter = {.global_loads = 26.1 * outputs, .constant_loads = 0};
    struct technique_counts untiled = {.global_loads = 24 * outputs, .constant_loads = 25 * outputs};
    struct technique_counts unknown = {.global_loads = 1.1 * outputs, .constant_loads = -1};
    char text[1024];
    ck_assert_int_eq(technique_judge(lab, &tiled, text, sizeof text), 1);
    ck_assert_ptr_nonnull(strstr(text, "budget: <= 1.13"));
    tiled.global_loads = 1.2 * outputs; /* a tile of 64 with more than its halo */
    ck_assert_int_eq(technique_judge(lab, &tiled, text, sizeof text), 0);
    ck_assert_int_eq(technique_judge(lab, &global_filter, text, sizeof text), 0);
    ck_assert_int_eq(technique_judge(lab, &untiled, text, sizeof text), 0);
    /* Without the count, the filter's loads are among the global ones: the halo is judged, the filter's space not. */
    unknown.global_loads = 26.1 * outputs;
    ck_assert_int_eq(technique_judge(lab, &unknown, text, sizeof text), 1);
    ck_assert_ptr_nonnull(strstr(text, "not told apart"));
    unknown.global_loads = 49 * outputs;
    ck_assert_int_eq(technique_judge(lab, &unknown, text, sizeof text), 0);
}
END_TEST

/* Lab 9 under its one-output contract (a kernel that never uses WPT) is counted at TILE 16, WPT 1: the budget is
   20^2 / 16^2 = 1.56 loads per output, which a one-output halo tile meets (1.49 on 128 x 72, whose edge tiles load
   only the halo inside the image: lab9/one-output) and a kernel re-reading the image per tap does not. */
START_TEST(halo_tile_budget_for_one_output)
{
    const struct grade_lab_spec *lab = labs_under_contract(registry_find("lab9"), 1);
    const double outputs = 128.0 * 72;
    struct technique_counts halo = {.global_loads = 1.49 * outputs, .constant_loads = 25 * outputs};
    char text[1024];
    ck_assert_int_eq(technique_judge(lab, &halo, text, sizeof text), 1);
    ck_assert_ptr_nonnull(strstr(text, "budget: <= 1.56"));
    ck_assert_ptr_nonnull(strstr(text, "with TILE 16, R 2"));
    halo.global_loads = 1.6 * outputs; /* more than the tile and its halo */
    ck_assert_int_eq(technique_judge(lab, &halo, text, sizeof text), 0);
    halo.global_loads = 24 * outputs;
    ck_assert_int_eq(technique_judge(lab, &halo, text, sizeof text), 0);
}
END_TEST

START_TEST(group_partials_and_staging)
{
    struct technique_counts one_per_group = {.global_stores = 16, .local_stores = 64, .local_loads = 64};
    struct technique_counts one_per_item = {.global_stores = 1024, .local_stores = 64, .local_loads = 64};
    struct technique_counts direct = {.global_loads = 3072, .global_stores = 3072};
    struct technique_counts unpadded = {.global_loads = 3072, .global_stores = 3072, .local_loads = 3072,
                                        .local_stores = 3072, .store_requests = 96, .store_transactions = 192,
                                        .local_requests = 192, .local_wavefronts = 864};
    struct technique_counts padded = unpadded;
    padded.local_wavefronts = 384;
    char text[512];
    ck_assert_int_eq(technique_judge(registry_find("lab4"), &one_per_group, text, sizeof text), 1);
    ck_assert_int_eq(technique_judge(registry_find("lab4"), &one_per_item, text, sizeof text), 0);
    ck_assert_int_eq(technique_judge(registry_find("lab7"), &direct, text, sizeof text), 0);
    ck_assert_ptr_nonnull(strstr(text, "local memory: 0 stores and 0 loads for 3072 elements"));
    ck_assert_int_eq(technique_judge(registry_find("lab7"), &unpadded, text, sizeof text), 0);
    ck_assert_int_eq(technique_judge(registry_find("lab7"), &padded, text, sizeof text), 1);
}
END_TEST

/* Lab 10: at most one global atomic per bin per work-group (8 x 64 in its case), with local memory used; atomics
   not counted at all (a plugin older than lab 10) are not measured. */
START_TEST(private_bins_budget)
{
    const struct grade_lab_spec *lab = registry_find("lab10");
    struct technique_counts merged = {.global_loads = 16384, .global_atomics = 512, .local_atomics = 16384,
                                      .local_stores = 512};
    struct technique_counts direct = {.global_loads = 16384, .global_atomics = 16384};
    struct technique_counts no_local = {.global_loads = 16384, .global_atomics = 512};
    struct technique_counts none = {0};
    char text[512];
    ck_assert_int_eq(technique_judge(lab, &merged, text, sizeof text), 1);
    ck_assert_int_eq(technique_judge(lab, &direct, text, sizeof text), 0);
    ck_assert_int_eq(technique_judge(lab, &no_local, text, sizeof text), 0);
    ck_assert_int_eq(technique_judge(lab, &none, text, sizeof text), -1);
}
END_TEST

/* Lab 11 (8 blocks of 512): Blelloch's 1.5 to 3 additions per element pass; Hillis-Steele's 9 fail, and so do its 4
   over the pairs' sums (NVIDIA's oclScan: log2(256) / 2) and a serial loop in one work-item, work-efficient but not
   parallel. Where additions were not counted (a plugin without
   LLVM's headers) local loads stand in; with no global access counted, nothing was measured. */
START_TEST(work_efficient_budget)
{
    const struct grade_lab_spec *lab = registry_find("lab11");
    struct technique_counts sweeps = {.global_loads = 4096, .local_adds = 12280, .item_adds = 20};
    struct technique_counts doubling = {.global_loads = 4096, .local_adds = 36864, .item_adds = 19};
    struct technique_counts doubling_pairs = {.global_loads = 4096, .local_adds = 16384, .item_adds = 8};
    struct technique_counts serial = {.global_loads = 4096, .local_adds = 4096, .item_adds = 512};
    struct technique_counts by_loads = {.global_loads = 4096, .local_loads = 24000, .local_adds = -1, .item_adds = -1};
    struct technique_counts doubling_loads = {.global_loads = 4096, .local_loads = 77000, .local_adds = -1};
    struct technique_counts unmeasured = {.local_adds = -1, .item_adds = -1};
    char text[1024];
    ck_assert_int_eq(technique_judge(lab, &sweeps, text, sizeof text), 1);
    ck_assert_msg(strstr(text, "3.00 additions of local values per element"), "%s", text);
    ck_assert_int_eq(technique_judge(lab, &doubling, text, sizeof text), 0);
    ck_assert_int_eq(technique_judge(lab, &doubling_pairs, text, sizeof text), 0);
    ck_assert_int_eq(technique_judge(lab, &serial, text, sizeof text), 0);
    ck_assert_int_eq(technique_judge(lab, &by_loads, text, sizeof text), 1);
    ck_assert_int_eq(technique_judge(lab, &doubling_loads, text, sizeof text), 0);
    ck_assert_int_eq(technique_judge(lab, &unmeasured, text, sizeof text), -1);
}
END_TEST

/* Through Oclgrind, on any host: the solutions pass, the fixtures that miss the technique fail, with the same
   figure 3 times. This runs the reference judge alone, without the device's cases around it. */
static const struct {
    const char *lab;
    const char *source;
    const char *figure;
    int passes;
} runs[] = {
    {"lab6", "--solutions", "global loads: 4.00 per output element", 1},
    {"lab6", "--submission tests/fixtures/lab6/naive-in-tiled", "global loads: 64.00 per output element", 0},
    {"lab7", "--solutions", "local memory: 2.0 bank passes", 1},
    {"lab7", "--submission tests/fixtures/lab7/naive-in-tiled", "local memory: 0 stores and 0 loads", 0},
    {"lab7", "--submission tests/fixtures/lab7/unpadded-tile", "local memory: 4.5 bank passes", 0},
    {"lab7", "--submission tests/fixtures/lab7/naive-writes", "writes: 16.0 128-byte transactions", 0},
    {"lab7", "--submission tests/fixtures/lab7/async-copy", "local memory: 3072 stores", 1},
    {"lab4", "--solutions", "global stores: 16 for 16 work-groups", 1},
    {"lab4", "--submission tests/fixtures/lab4/no-local-memory", "local memory: 0 stores, 0 loads", 0},
    {"lab4", "--submission tests/fixtures/lab4/printf-counts", "local memory: 0 stores, 0 loads", 0},
    {"lab5", "--solutions", "reads 1.0, writes 2.0", 1},
    {"lab5", "--submission tests/fixtures/lab5/swapped-mapping", "reads 4.5, writes 16.0", 0},
    {"lab2", "--solutions", "global stores: 4096 for 4096 elements", 1},
    {"lab8", "--solutions", "local memory: 0.50 loads per multiply-add", 1},
    {"lab8", "--submission tests/fixtures/lab8/no-register-blocking", "local memory: 1.25 loads per multiply-add", 0},
    {"lab8", "--submission tests/fixtures/lab8/lab6-kernel", "local memory: 2.00 loads per multiply-add", 0},
    {"lab2", "--submission tests/fixtures/lab2/group-stride", "global stores: 16384 for 4096 elements", 0},
    {"lab9", "--solutions", "__constant loads: 2.8 per output", 1},
    {"lab9", "--submission tests/fixtures/lab9/global-filter", "global loads: 26.09 per output", 0},
    {"lab9", "--submission tests/fixtures/lab9/naive-constant", "global loads: 24.35 per output", 0},
    {"lab10", "--solutions", "global atomics: 512 for 16384 elements", 1},
    {"lab10", "--submission tests/fixtures/lab10/global-atomics", "global atomics: 16384 for 16384 elements", 0},
};

START_TEST(technique_verdicts_are_deterministic)
{
    const struct grade_lab_spec *lab = registry_find(runs[_i].lab);
    for (int run = 0; run < 2; run++) { /* two seeds: the same figure */
        char text[1024];
        struct reference ref;
        static struct grading g;
        memset(&g, 0, sizeof g);
        g.config = (struct judge_config){.timeout_s = 60, .only_case = -1,
                                         .solutions = strcmp(runs[_i].source, "--solutions") == 0};
        g.seed = (uint64_t)run;
        ck_assert_int_eq(grading_open(&g), 0);
        ck_assert_int_eq(grading_set_source(&g, g.config.solutions ? NULL : runs[_i].source + strlen("--submission ")), 0);
        reference_judge_run(&g, lab, g.seed, 256, RUNLAB_NO_CASE, &ref);
        grading_close(&g);
        ck_assert_msg(ref.ran && ref.counted, "Oclgrind did not count: %s", ref.why);
        ck_assert_msg(technique_judge(lab, &ref.counts, text, sizeof text) == runs[_i].passes, "%s: %s (%s)", runs[_i].source, text, ref.why);
        ck_assert_msg(strstr(text, runs[_i].figure), "run %d: %s", run, text);
        /* the technique case alone: no checker's run, and no word of one */
        ck_assert_msg(!strstr(ref.why, "uninitialised"), "%s", ref.why);
        sanitize_free(&ref);
    }
}
END_TEST

START_TEST(plugin_counts_known_strides)
{
    /* One warp reading floats 1, 2 and 32 apart, and all from one address: 1, 2, 32 and 1 segments. */
    const char *kernels[] = {"stride_1", "stride_2", "stride_32", "same_address"};
    const int expected[] = {1, 2, 32, 1};
    char *output;
    /* The plugin writes its counts file in the working directory: a fresh one, with the fixtures beside it. */
    int status = run_in_kit("kit=$PWD; d=$(mktemp -d) && cd $d && ln -s $kit/tests tests && oclgrind --plugins "
                            "$kit/build/grader/oclgrind/libclkit-coalesce.so $kit/build/tests/stride_probe >/dev/null "
                            "&& cat clkit-counts.txt; s=$?; rm -rf $d; exit $s",
                            60, &output);
    ck_assert_msg(status == 0, "%s", output);
    for (int k = 0; k < 4; k++) {
        char name[32];
        const char *line;
        int requests = 0, transactions = 0, stores = 0;
        snprintf(name, sizeof name, "launch=%d ", k + 1);
        line = strstr(output, name);
        ck_assert_msg(line && (line = strstr(line, "load_requests=")), "no line for %s:\n%s", kernels[k], output);
        sscanf(line, "load_requests=%d load_transactions=%d store_requests=%*d store_transactions=%d",
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

/* A technique Oclgrind counted must agree with the device's speed where a GPU profile separates the solution from
   the baseline; a CPU device or a speed that was not measured leaves Oclgrind's counts to decide. */
static const struct {
    int gpu;
    const char *metrics;
    int passes;
} speeds[] = {
    {1, "size=2048;speedup=1.000;threshold=1.08", 0}, /* tiled under Oclgrind, naive on the GPU */
    {1, "size=2048;speedup=1.180;threshold=1.08", 1},
    {0, "size=2048;speedup=1.000;threshold=1.08", 1}, /* a CPU's speed decides nothing */
    {1, "", 1},                                       /* not timed (--quick) */
    {1, "size=2048;speedup=0.900;threshold=0.00", 1}, /* an informational profile */
};

START_TEST(device_speed_must_agree_on_a_gpu)
{
    const struct grade_lab_spec *lab = registry_find("lab6");
    static struct reference ref;
    static struct case_log log;
    struct grade_lab_result result;
    memset(&result, 0, sizeof result);
    memset(&ref, 0, sizeof ref);
    ref.ran = ref.counted = 1;
    ref.log = &log;
    ref.counts.global_loads = 4.0 * 32 * 32; /* within the budget of lab 6's technique case */
    struct grade_test *speed = result_add(&result, labs_test_name(lab, GRADE_TEST_SPEED), 0, 0, 0, "timed");
    snprintf(speed->metrics, sizeof speed->metrics, "%s", speeds[_i].metrics);
    technique_test(lab, &ref, 1, speeds[_i].gpu, &result);
    ck_assert_int_eq(result.test_count, 2);
    ck_assert_msg(result.tests[1].passed == speeds[_i].passes, "%s: %s", speeds[_i].metrics, result.tests[1].reason);
    ck_assert(result.tests[1].score == (speeds[_i].passes ? result.tests[1].max : 0.0));
    result_free(&result);
}
END_TEST

/* Lab 9's H100 threshold (2.08x) is calibrated with the register-blocked solution: a one-output halo tile (1.28x
   there) keeps the technique its counts show, while a kernel of the lab's own contract at that speed does not. */
START_TEST(another_contract_is_not_held_to_the_solution_speed)
{
    static struct reference ref;
    static struct case_log log;
    for (int contract = 0; contract < 2; contract++) {
        const struct grade_lab_spec *lab = labs_under_contract(registry_find("lab9"), contract);
        struct grade_lab_result result;
        memset(&result, 0, sizeof result);
        memset(&ref, 0, sizeof ref);
        ref.ran = ref.counted = 1;
        ref.log = &log;
        ref.counts.global_loads = 1.0 * 128 * 72; /* within both contracts' budgets */
        ref.counts.constant_loads = 25.0 * 128 * 72;
        struct grade_test *speed = result_add(&result, labs_test_name(lab, GRADE_TEST_SPEED), 0, 0, 0, "timed");
        snprintf(speed->metrics, sizeof speed->metrics, "size=8192;speedup=1.280;threshold=2.08;high=1.300");
        technique_test(lab, &ref, 1, 1, &result);
        ck_assert_int_eq(result.test_count, 2);
        ck_assert_msg(result.tests[1].passed == contract, "contract %d: %s", contract, result.tests[1].reason);
        result_free(&result);
    }
}
END_TEST

/* Every technique record is whole (a name, the counts it needs, a judge, a case, an explanation), and counts
   without what it needs are never judged: the kernel is not held to a figure the plugin did not measure. */
START_TEST(every_technique_record_is_whole)
{
    const struct technique_counts none = {.constant_loads = -1};
    char text[2048];
    size_t with_technique = 0;
    for (size_t i = 0; i < registry_count(); i++) {
        const struct grade_lab_spec *lab = registry_lab(i);
        const struct grade_technique *t = lab->technique;
        if (!t) {
            ck_assert_ptr_null(labs_test_name(lab, GRADE_TEST_TECHNIQUE));
            continue;
        }
        with_technique++;
        if (t->host_schedule) { /* lab 12: judged from the host program's commands, no judge or counts */
            ck_assert_msg(t->name && t->name[0] && !t->judge && t->explanation && t->explanation[0] &&
                          lab->points.technique > 0, "%s", lab->name);
            ck_assert_msg(technique_judge(lab, &none, text, sizeof text) == -1, "%s judged on counts", lab->name);
            continue;
        }
        ck_assert_msg(t->name && t->name[0] && t->judge && t->needs && t->explanation && t->explanation[0], "%s",
                      lab->name);
        ck_assert_msg(t->shape.dims[0] > 0 && lab->points.technique > 0, "%s", lab->name);
        ck_assert_msg(technique_judge(lab, &none, text, sizeof text) == -1, "%s judged nothing counted", lab->name);
    }
    ck_assert_uint_ge(with_technique, 8); /* labs 2 and 4 to 10 at least */
}
END_TEST

Suite *technique_suite(void)
{
    Suite *s = suite_create("technique");
    TCase *unit = tcase_create("counts"), *end_to_end = tcase_create("oclgrind");
    tcase_add_test(unit, tile_reuse_budget);
    tcase_add_test(unit, group_partials_and_staging);
    tcase_add_test(unit, halo_tile_budget);
    tcase_add_test(unit, halo_tile_budget_for_one_output);
    tcase_add_test(unit, another_contract_is_not_held_to_the_solution_speed);
    tcase_add_loop_test(unit, device_speed_must_agree_on_a_gpu, 0, (int)(sizeof speeds / sizeof speeds[0]));
    tcase_add_test(unit, private_bins_budget);
    tcase_add_test(unit, work_efficient_budget);
    tcase_add_test(unit, every_technique_record_is_whole);
    tcase_set_timeout(end_to_end, 1200);
    tcase_add_loop_test(end_to_end, technique_verdicts_are_deterministic, 0, (int)(sizeof runs / sizeof runs[0]));
    tcase_add_test(end_to_end, plugin_counts_known_strides);
    tcase_add_test(end_to_end, report_shows_the_figure);
    suite_add_tcase(s, unit);
    suite_add_tcase(s, end_to_end);
    return s;
}
