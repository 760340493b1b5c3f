/* grader/report/lab_csv.c: --lab-csv FILE, a row per lab with its score and maximum as the report adds them. */
#include "suites.h"

#include "report/writers.h"

#include <stdlib.h>
#include <string.h>

/* Two labs, one with a scored, an informational and a failed test on a device whose name needs quoting, one that
   could not be graded: each is one row, its score and maximum those of the report, its device one field. */
START_TEST(a_row_per_lab)
{
    static struct grade_lab_result results[2];
    int writer = result_writer_index("lab-csv");
    struct export_run run = {.results = results, .count = 2};
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    memset(results, 0, sizeof results);
    strcpy(results[0].lab, "lab1");
    strcpy(results[0].device, "pthread, \"cpu\"");
    result_add(&results[0], "exact cases", 3, 3, 1, "right");
    result_add(&results[0], "real cases", 0.5, 2, 0, "wrong");
    result_add(&results[0], "bandwidth", 0, 0, 1, "12 GB/s")->informational = 1;
    strcpy(results[1].lab, "lab2");
    results[1].setup_error = strdup("no OpenCL device");
    ck_assert_int_ge(writer, 0);
    ck_assert_int_eq(result_writers[writer]->write(out, &run), 0);
    fclose(out);
    ck_assert_msg(strcmp(text, "lab,score,max,passed,tests,device\nlab1,3.50,5.00,2,3,\"pthread, \"\"cpu\"\"\"\n"
                               "lab2,0.00,0.00,0,0,\n") == 0,
                  "%s", text);
    free(text);
    result_free(&results[0]);
    result_free(&results[1]);
}
END_TEST

Suite *lab_csv_suite(void)
{
    Suite *s = suite_create("lab_csv");
    TCase *tc = tcase_create("rows");
    tcase_add_test(tc, a_row_per_lab);
    suite_add_tcase(s, tc);
    return s;
}
