#include "suites.h"

#include "wire/compare.h"
#include "labs/contract.h"
#include "labs/families_hist.h"
#include "labs/spec.h"
#include "labs/registry.h"
#include "labs/technique.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX 512

/* The registry lists each lab once, in order, and each spec names a lab folder that exists with its kernel. */
START_TEST(every_lab_is_found)
{
    ck_assert_uint_gt(registry_count(), 0);
    for (size_t i = 0; i < registry_count(); i++) {
        const struct grade_lab_spec *lab = registry_lab(i);
        char path[256];
        ck_assert_ptr_eq(registry_find(lab->name), lab);
        ck_assert_uint_eq(registry_index(lab), i);
        ck_assert_ptr_nonnull(lab->family);
        ck_assert_uint_gt(lab->shapes->count, 0);
        snprintf(path, sizeof path, "labs/%s/%s", lab->name, lab->kernel_file);
        ck_assert_msg(access(path, R_OK) == 0, "%s names %s, which is missing", lab->name, path);
    }
    ck_assert_ptr_null(registry_lab(registry_count()));
    ck_assert_ptr_null(registry_find("lab0"));
    ck_assert_ptr_null(registry_find(NULL));
}
END_TEST

START_TEST(exact_cases_come_first_in_equal_number)
{
    static struct grade_case cases[MAX];
    size_t count = labs_expand_cases(registry_find("lab1"), 256, cases, MAX), exact = 0;
    for (size_t i = 0; i < count; i++) {
        ck_assert_int_eq(cases[i].data, i == exact ? cases[i].data : GRADE_REAL);
        exact += cases[i].data == GRADE_EXACT;
    }
    /* Every shape runs with exact data; all but the one past 2^24 also with real data. */
    ck_assert_uint_eq(exact, count - exact + 1);
    ck_assert_uint_eq(cases[exact - 1].dims[0], (1u << 24) + 3);
}
END_TEST

/* A lab's maximum is fixed by its spec: the same on every device, with every flag and install. */
START_TEST(maxima_are_fixed_by_the_spec)
{
    for (size_t i = 0; i < registry_count(); i++) {
        const struct grade_lab_spec *lab = registry_lab(i);
        const struct grade_points *p = &lab->points;
        double total = 0.0;
        for (int kind = 0; kind < GRADE_TEST_KINDS; kind++)
            total += labs_test_points(lab, (enum grade_test_kind)kind);
        ck_assert_msg(total == p->build + p->exact + p->real + p->memory + p->host + p->technique && total > 0,
                      "%s: %g", lab->name, total);
        ck_assert_double_eq(labs_test_points(lab, GRADE_TEST_SPEED), 0.0);
        ck_assert_int_eq(labs_test_name(lab, GRADE_TEST_TECHNIQUE) != NULL, p->technique > 0);
    }
}
END_TEST

START_TEST(lab4_sweeps_local_sizes_within_the_device_limit)
{
    static struct grade_case cases[MAX];
    const struct grade_lab_spec *lab = registry_find("lab4");
    size_t full = labs_expand_cases(lab, 1024, cases, MAX);
    size_t limited = labs_expand_cases(lab, 64, cases, MAX);
    ck_assert_uint_eq(full, 2 * lab->shapes->count * 9); /* 1, 2, 4, ..., 256 */
    ck_assert_uint_eq(limited, 2 * lab->shapes->count * 7);
    for (size_t i = 0; i < limited; i++)
        ck_assert_uint_le(cases[i].local[0], 64);
}
END_TEST

START_TEST(tiled_labs_use_tiles_of_8_16_and_32)
{
    static struct grade_case cases[MAX];
    const struct grade_lab_spec *lab = registry_find("lab6");
    size_t count = labs_expand_cases(lab, 1024, cases, MAX);
    int seen[33] = {0};
    ck_assert_uint_eq(count, 2 * lab->shapes->count * 3);
    for (size_t i = 0; i < count; i++) {
        ck_assert_uint_eq(cases[i].local[0], (size_t)cases[i].tile);
        seen[cases[i].tile]++;
    }
    ck_assert_int_eq(seen[8], (int)count / 3);
    ck_assert_int_eq(seen[16], (int)count / 3);
    ck_assert_int_eq(seen[32], (int)count / 3);
    /* A device that launches at most 256 work-items a group gets no 32 x 32 tile. */
    ck_assert_uint_eq(labs_expand_cases(lab, 256, cases, MAX), 2 * lab->shapes->count * 2);
}
END_TEST

/* Lab 9's second contract, for a kernel that never uses WPT: WPT 1 only, TILE 16 on a device and 32 more under the
   reference judge, timed and counted at TILE 16; the same shapes, tests and points as its own; the same lab. */
START_TEST(lab9_one_output_contract_builds_wpt_1_only)
{
    static struct grade_case cases[MAX];
    const struct grade_lab_spec *lab = registry_find("lab9"), *one = labs_under_contract(lab, 1);
    size_t device = labs_expand_cases(one, 256, cases, MAX);
    ck_assert_ptr_ne(one, lab);
    ck_assert_ptr_eq(labs_under_contract(lab, 1), one); /* made once */
    ck_assert_ptr_eq(labs_under_contract(one, 1), one);
    ck_assert_int_eq(labs_contract_index(one), 1);
    ck_assert_int_eq(labs_contract_index(lab), 0);
    ck_assert_int_eq(labs_contract_index(labs_under_contract(lab, 0)), 0);
    ck_assert_ptr_eq(labs_under_contract(lab, 2), lab);
    ck_assert_ptr_eq(labs_under_contract(registry_find("lab8"), 1), registry_find("lab8"));
    ck_assert_uint_eq(registry_index(one), registry_index(lab));
    ck_assert_uint_eq(device, 2 * lab->shapes->count);
    for (size_t i = 0; i < device; i++)
        ck_assert_msg(cases[i].tile == 16 && cases[i].wpt == 1 && cases[i].local[0] == 16, "case %zu", i);
    ck_assert_uint_eq(labs_expand_cases(one, 1024, cases, MAX), 4 * lab->shapes->count);
    ck_assert_int_eq(cases[1].tile, 32);
    ck_assert_int_eq(cases[1].wpt, 1);
    ck_assert_int_eq(one->technique->shape.tile, 16);
    ck_assert_int_eq(one->technique->shape.wpt, 1);
    ck_assert_int_eq(lab->technique->shape.tile, 64); /* the lab's own spec is untouched */
    ck_assert_int_eq(one->perf.tiling.tile, 16);
    ck_assert_int_eq(one->perf.tiling.wpt, 1);
    ck_assert_mem_eq(&one->points, &lab->points, sizeof lab->points);
    ck_assert_ptr_eq(one->shapes, lab->shapes);
}
END_TEST

START_TEST(lab2_grids_are_far_smaller_than_n)
{
    static struct grade_case cases[MAX];
    size_t count = labs_expand_cases(registry_find("lab2"), 256, cases, MAX), small_grids = 0;
    for (size_t i = 0; i < count; i++)
        small_grids += cases[i].groups * cases[i].local[0] * 10 < cases[i].dims[0];
    ck_assert_uint_ge(small_grids, 4);
}
END_TEST

START_TEST(prepare_binds_in_contract_order)
{
    struct grade_case c = {.data = GRADE_EXACT, .dims = {100}, .local = {32}};
    struct grade_launch launch;
    memset(&launch, 0, sizeof launch);
    ck_assert_int_eq(registry_find("lab4")->family->prepare(&c, 1, &launch), 0);
    ck_assert_int_eq(launch.buffer_count, 3);
    ck_assert_str_eq(launch.names[2], "partial");
    ck_assert_uint_eq(launch.local_bytes, 32 * sizeof(float));
    ck_assert_int_eq(launch.ints[0], 100);
    ck_assert_uint_eq(launch.global[0] % launch.local[0], 0);
    ck_assert_double_eq(launch.bound[0], 0.0); /* exact data: zero tolerance */
    labs_launch_free(&launch);
}
END_TEST

START_TEST(matmul_ndrange_covers_c)
{
    struct grade_case c = {.data = GRADE_REAL, .dims = {17, 13, 7}, .local = {16}, .tile = 8};
    struct grade_launch launch;
    memset(&launch, 0, sizeof launch);
    ck_assert_int_eq(registry_find("lab6")->family->prepare(&c, 1, &launch), 0);
    ck_assert_uint_eq(launch.work_dims, 2);
    ck_assert_uint_eq(launch.local[0], 8);
    ck_assert_uint_eq(launch.global[0], 16); /* N = 13 columns */
    ck_assert_uint_eq(launch.global[1], 24); /* M = 17 rows */
    ck_assert_uint_eq(launch.shape.rows, 17);
    ck_assert_uint_eq(launch.shape.cols, 13);
    ck_assert(launch.bound[0] > 0.0);
    labs_launch_free(&launch);
}
END_TEST

/* Lab 9: the filter is the second buffer, the halo tile a __local argument of (TILE + 2R)^2 floats, then H, W, R;
   the grid covers W columns and H rows with whole tiles, TILE / WPT work-items a side each. */
START_TEST(conv2d_binds_filter_and_halo_tile)
{
    struct grade_case c = {.data = GRADE_EXACT, .dims = {17, 40, 3}, .local = {16}, .tile = 8};
    struct grade_launch launch;
    memset(&launch, 0, sizeof launch);
    ck_assert_int_eq(registry_find("lab9")->family->prepare(&c, 1, &launch), 0);
    ck_assert_int_eq(launch.buffer_count, 3);
    ck_assert_str_eq(launch.names[1], "filter");
    ck_assert_uint_eq(launch.counts[1], 7 * 7);
    ck_assert_uint_eq(launch.local_bytes, 14 * 14 * sizeof(float));
    ck_assert_int_eq(launch.ints[2], 3);
    ck_assert_uint_eq(launch.global[0], 40);
    ck_assert_uint_eq(launch.global[1], 24);
    ck_assert_double_eq(launch.bound[0], 0.0);
    labs_launch_free(&launch);
    /* TILE 64, WPT 4: 16 x 16 work-items a 64 x 64 block of outputs, the halo tile (64 + 2R)^2 floats. */
    c.tile = 64, c.wpt = 4, c.dims[0] = 130, c.dims[1] = 65;
    memset(&launch, 0, sizeof launch);
    ck_assert_int_eq(registry_find("lab9")->family->prepare(&c, 1, &launch), 0);
    ck_assert_uint_eq(launch.local[0], 16);
    ck_assert_uint_eq(launch.local[1], 16);
    ck_assert_uint_eq(launch.global[0], 2 * 16);
    ck_assert_uint_eq(launch.global[1], 3 * 16);
    ck_assert_uint_eq(launch.local_bytes, 70 * 70 * sizeof(float));
    labs_launch_free(&launch);
}
END_TEST

/* Lab 10's data: values below nbins, skewed data with most in one bin and one-value data all in it, made again the
   same from the seed once dropped (the memory check compares with it); the result is what the kernel added to the
   poison the bins start at. */
START_TEST(histogram_data_follows_its_kind)
{
    for (int kind = CLK_HIST_UNIFORM; kind <= CLK_HIST_SAME; kind++) {
        struct grade_case c = {.data = GRADE_EXACT, .dims = {4096, 0, HIST_CASE(16, kind)}, .local = {64}, .groups = 4};
        struct grade_launch launch;
        float *made, output[16], result[16];
        size_t most = 0;
        memset(&launch, 0, sizeof launch);
        ck_assert_int_eq(registry_find("lab10")->family->prepare(&c, 5, &launch), 0);
        ck_assert_uint_eq(launch.local_bytes, 16 * sizeof(uint32_t));
        ck_assert_int_eq(launch.ints[1], 16);
        const uint32_t *data = (const uint32_t *)(const void *)launch.host[0];
        for (size_t i = 0; i < 4096; i++)
            ck_assert_uint_lt(data[i], 16);
        for (size_t v = 0; v < 16; v++)
            most = launch.expected[v] > most ? (size_t)launch.expected[v] : most;
        ck_assert_uint_ge(most, kind == CLK_HIST_SAME ? 4096 : kind == CLK_HIST_SKEWED ? 3072 : 0);
        ck_assert_uint_le(most, kind == CLK_HIST_UNIFORM ? 512 : 4096);
        ck_assert_ptr_nonnull(made = malloc(4096 * sizeof(float)));
        labs_fill_input(&(struct grade_launch){.counts = {4096}, .input_seed = 5, .input_exact = 1, .fill = launch.fill,
                                               .ints = {4096, 16}}, 0, made);
        ck_assert_int_eq(memcmp(made, launch.host[0], 4096 * sizeof(float)), 0);
        free(made);
        for (size_t v = 0; v < 16; v++) {
            uint32_t word = COMPARE_POISON_BITS + (uint32_t)launch.expected[v];
            memcpy(&output[v], &word, sizeof word);
        }
        registry_find("lab10")->family->finish(&launch, output, result);
        for (size_t v = 0; v < 16; v++)
            ck_assert_double_eq(compare_value(result, &launch.shape, v), launch.expected[v]);
        labs_launch_free(&launch);
    }
}
END_TEST

/* The judge drops a case's inputs once its reference is made and checks them later by digest: every input as made
   passes, a single changed word fails, and so does a swap of two words, whether of one NH pair, of one block, or at
   the same place in two blocks (whose compressions then swap). The runner makes the same inputs where it stages them
   (inputs_later). */
START_TEST(dropped_inputs_are_checked_by_digest)
{
    struct grade_case c = {.data = GRADE_EXACT, .dims = {100003}, .local = {64}}, later = c;
    struct grade_launch judged, run;
    memset(&judged, 0, sizeof judged);
    memset(&run, 0, sizeof run);
    later.inputs_later = later.no_reference = 1;
    ck_assert_int_eq(registry_find("lab1")->family->prepare(&c, 9, &judged), 0);
    ck_assert_int_eq(registry_find("lab1")->family->prepare(&later, 9, &run), 0);
    ck_assert_ptr_null(run.host[0]);
    float *a = malloc(100003 * sizeof(float)), t;
    ck_assert_ptr_nonnull(a);
    labs_fill_input(&run, 0, a);
    ck_assert_int_eq(memcmp(a, judged.host[0], 100003 * sizeof(float)), 0);
    labs_drop_inputs(&judged, 0x1234567890abcdefull);
    ck_assert_ptr_null(judged.host[0]);
    ck_assert(labs_input_unchanged(&judged, 0, a));
    size_t k = 1;
    while (k < 100 && a[k] == a[0])
        k++;
    ck_assert_uint_lt(k, 100);
    t = a[0], a[0] = a[k], a[k] = t;
    ck_assert(!labs_input_unchanged(&judged, 0, a));
    t = a[0], a[0] = a[k], a[k] = t;
    static const size_t apart[] = {1, 2, 255, 256, 512}; /* one NH pair, one block, two blocks */
    for (size_t d = 0; d < sizeof apart / sizeof apart[0]; d++) {
        for (k = 0; k < 100 && a[2 * k] == a[2 * k + apart[d]]; k++)
            ;
        ck_assert_uint_lt(k, 100);
        k *= 2;
        t = a[k], a[k] = a[k + apart[d]], a[k + apart[d]] = t;
        ck_assert_msg(!labs_input_unchanged(&judged, 0, a), "words %zu and %zu swapped", k, k + apart[d]);
        t = a[k], a[k] = a[k + apart[d]], a[k + apart[d]] = t;
    }
    ck_assert(labs_input_unchanged(&judged, 0, a));
    a[100002] += 1.0f;
    ck_assert(!labs_input_unchanged(&judged, 0, a));
    free(a);
    labs_launch_free(&judged);
    labs_launch_free(&run);
}
END_TEST

/* Lab 11's launch: three kernels in order (scan_blocks, snapshots of what it wrote, scan_sums on one work-group,
   add_offsets) over scratch buffers whose references agree with the result's: the scanned block totals are the
   result at each block's start. Exact data stays below 16; real data is any 32-bit word, and its sums wrap. */
START_TEST(scan_runs_three_kernels_over_its_intermediates)
{
    const struct grade_lab_spec *lab = registry_find("lab11");
    for (int data = GRADE_EXACT; data <= GRADE_REAL; data++) {
        struct grade_case c = {.data = (enum grade_data)data, .dims = {3001}, .local = {32}};
        struct grade_launch launch;
        size_t wraps = 0;
        memset(&launch, 0, sizeof launch);
        ck_assert_int_eq(lab->family->prepare(&c, 5, &launch), 0);
        ck_assert_int_eq(labs_kernel_count(lab), 3);
        ck_assert_int_eq(launch.step_count, 5);
        ck_assert_int_eq(launch.steps[0].kernel, 0);
        ck_assert_int_eq(launch.steps[1].kernel, GRADE_STEP_SNAPSHOT);
        ck_assert_int_eq(launch.steps[3].kernel, 1);
        ck_assert_uint_eq(launch.steps[3].global, 32); /* scan_sums: one work-group */
        ck_assert_int_eq(launch.steps[3].ints[0], 47);  /* ceil(3001 / 64) blocks */
        ck_assert_int_eq(launch.steps[4].kernel, 2);
        ck_assert_int_eq(launch.is_output[launch.buffer_count - 1], GRADE_OUTPUT);
        ck_assert_str_eq(launch.writer[launch.buffer_count - 1], "add_offsets");
        const uint32_t *in = (const uint32_t *)(const void *)launch.host[0];
        for (size_t i = 0; i < 3001; i++) {
            if (data == GRADE_EXACT)
                ck_assert_uint_lt(in[i], 16);
            wraps += i > 0 && launch.expected[i] < launch.expected[i - 1];
        }
        ck_assert(data == GRADE_EXACT ? wraps == 0 : wraps > 100);
        for (int b = 0; b < launch.buffer_count - 1; b++)
            if (launch.is_output[b] == GRADE_SCRATCH && launch.counts[b] == 47 && !strcmp(launch.writer[b], "scan_sums"))
                for (size_t g = 0; g < 47; g++)
                    ck_assert_double_eq(launch.checks[b][g], launch.expected[g * 64]);
        labs_launch_free(&launch);
    }
}
END_TEST

Suite *labs_suite(void)
{
    Suite *s = suite_create("labs");
    TCase *tc = tcase_create("specs");
    tcase_add_test(tc, every_lab_is_found);
    tcase_add_test(tc, exact_cases_come_first_in_equal_number);
    tcase_add_test(tc, maxima_are_fixed_by_the_spec);
    tcase_add_test(tc, lab4_sweeps_local_sizes_within_the_device_limit);
    tcase_add_test(tc, tiled_labs_use_tiles_of_8_16_and_32);
    tcase_add_test(tc, lab9_one_output_contract_builds_wpt_1_only);
    tcase_add_test(tc, lab2_grids_are_far_smaller_than_n);
    tcase_add_test(tc, prepare_binds_in_contract_order);
    tcase_add_test(tc, matmul_ndrange_covers_c);
    tcase_add_test(tc, conv2d_binds_filter_and_halo_tile);
    tcase_add_test(tc, histogram_data_follows_its_kind);
    tcase_add_test(tc, dropped_inputs_are_checked_by_digest);
    tcase_add_test(tc, scan_runs_three_kernels_over_its_intermediates);
    suite_add_tcase(s, tc);
    return s;
}
