#include "suites.h"

#include "commands/bench.h"

#include <stdlib.h>
#include <string.h>

START_TEST(metrics_are_read_by_key)
{
    const char *m = "size=2048;ms=2.6560;rate=6469.00;unit=GFLOP/s;speedup=1.180;threshold=1.08";
    ck_assert_double_eq(bench_metric(m, "size"), 2048.0);
    ck_assert_double_eq(bench_metric(m, "ms"), 2.656);
    ck_assert_double_eq(bench_metric(m, "threshold"), 1.08);
    ck_assert_double_eq(bench_metric(m, "speed"), 0.0); /* a prefix of a key is not the key */
    ck_assert_double_eq(bench_metric(m, "missing"), 0.0);
    ck_assert_double_eq(bench_metric("", "ms"), 0.0);
}
END_TEST

START_TEST(table_has_a_row_per_timed_lab)
{
    struct grade_lab_result results[2];
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    memset(results, 0, sizeof results);
    strcpy(results[0].lab, "lab6");
    strcpy(result_add(&results[0], "speed", 2, 2, 1, "1.18x faster")->metrics,
           "size=2048;ms=2.656;rate=6469;unit=GFLOP/s;peak=54000;fraction=0.12;baseline_ms=3.136;speedup=1.18;"
           "threshold=1.08");
    strcpy(results[1].lab, "lab7");
    result_add(&results[1], "speed", 0, 2, 0, "not timed"); /* no metrics: not timed, no row */
    bench_table(out, "Test GPU", results, 2);
    fclose(out);
    ck_assert_ptr_nonnull(strstr(text, "| lab6 | matmul_tiled | 2048 | 2.656 ms | 6469 GFLOP/s | 12% of FMA peak | "
                                       "1.18x over naive matmul (3.136 ms) | 1.08x |"));
    ck_assert_ptr_null(strstr(text, "| lab7 |"));
    ck_assert_ptr_null(strstr(text, "going further")); /* lab 6 has no going-further kernel */
    free(text);
    result_free(&results[0]);
    result_free(&results[1]);
}
END_TEST

/* A lab with a going-further kernel gets a second row, its rate and share of the peak from the solution's by the
   ratio of times (the same work). */
START_TEST(going_further_row_follows_the_solution)
{
    struct grade_lab_result result;
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    memset(&result, 0, sizeof result);
    strcpy(result.lab, "lab7");
    strcpy(result_add(&result, "speed", 0, 0, 1, "2.1x")->metrics,
           "size=8192;ms=0.300;rate=1800;unit=GB/s;peak=2700;fraction=0.6667;baseline_ms=0.6;speedup=2.0;"
           "threshold=1.44;further_ms=0.200");
    bench_table(out, "Test GPU", &result, 1);
    fclose(out);
    ck_assert_msg(strstr(text, "| lab7 | transpose_wide (going further) | 8192 | 0.200 ms | 2700 GB/s | 100% of copy | "
                               "1.50x over the solution | not graded |"), "%s", text);
    free(text);
    result_free(&result);
}
END_TEST

/* A speedup timed in interleaved pairs shows its confidence interval and how many pairs gave it, in the table and
   the CSV. */
START_TEST(speedup_shows_its_interval)
{
    struct grade_lab_result result;
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    memset(&result, 0, sizeof result);
    strcpy(result.lab, "lab4");
    strcpy(result_add(&result, "speed", 0, 0, 1, "0.98x")->metrics,
           "size=16777216;ms=0.050;rate=2684;unit=GB/s;peak=2700;fraction=0.99;baseline_ms=0.049;speedup=0.98;"
           "threshold=0;low=0.970;high=0.990;pairs=12");
    bench_table(out, "Test GPU", &result, 1);
    fclose(out);
    ck_assert_msg(strstr(text, "| 0.98x (95% interval 0.97-0.99x, 12 pairs) over naive dot (0.049 ms) | none |"), "%s",
                  text);
    free(text);
    result_free(&result);
}
END_TEST

Suite *bench_suite(void)
{
    Suite *s = suite_create("bench");
    TCase *tc = tcase_create("report");
    tcase_add_test(tc, speedup_shows_its_interval);
    tcase_add_test(tc, metrics_are_read_by_key);
    tcase_add_test(tc, table_has_a_row_per_timed_lab);
    tcase_add_test(tc, going_further_row_follows_the_solution);
    suite_add_tcase(s, tc);
    return s;
}
