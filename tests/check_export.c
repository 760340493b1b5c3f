#include "suites.h"

#include "report/export.h"
#include "report/writers.h"
#include "judge/safetext.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

/* Reasons that a student's code can make the grader print: quotes, markup, control bytes, bad UTF-8. */
static const char *nasty = "cannot build \"vadd.cl\": <error> & 'quote'\nline two\ttab\x01\x1b[31m\xff\xfe end \xc3\xa9";

static struct grade_lab_result results[2];
static const char *const titles[] = {"vector add", "grid-stride add"};

static void setup(void)
{
    memset(results, 0, sizeof results);
    strcpy(results[0].lab, "lab1");
    result_add(&results[0], "build", 0, 0, 0, nasty);
    result_add(&results[0], "exact cases", 1.5, 3, 0, "2 of 8 exact cases wrong\ncase 4: index 64 (lab1/vadd.cl:12) \xff");
    struct grade_test *bandwidth = result_add(&results[0], "bandwidth", 0, 0, 1, "12 GB/s");
    bandwidth->informational = 1;
    strcpy(bandwidth->metrics, "size=1024;ms=0.5;rate=12.5;unit=GB/s;speedup_not=3");
    strcpy(results[1].lab, "lab2");
    result_add(&results[1], "exact cases", 4, 4, 1, "all 8 exact cases right");
    results[0].seconds = 2.5;
    results[1].setup_error = strdup("no OpenCL device");
}

static void teardown(void)
{
    result_free(&results[0]);
    result_free(&results[1]);
}

static char *render(int json)
{
    static const char *const kernels[] = {"labs/lab1/vadd.cl", "labs/lab2/vadd_stride.cl"};
    static const char *const units[] = {"GB/s", "GB/s"};
    static const int has_baseline[] = {0, 1};
    struct export_run run = {.results = results, .titles = titles, .kernels = kernels, .units = units,
                             .has_baseline = has_baseline, .version = "9.9.9", .count = 2, .seconds = 1.25,
                             .summary = "graded \"labs\" with seed 7"};
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    if (json)
        ck_assert_int_eq(export_json(out, &run), 0);
    else
        export_junit(out, &run);
    fclose(out);
    return text;
}

START_TEST(json_has_the_gradescope_fields)
{
    char *text = render(1);
    cJSON *root = cJSON_Parse(text), *tests, *first;
    ck_assert_msg(root != NULL, "not valid JSON:\n%s", text);
    ck_assert_double_eq(cJSON_GetObjectItem(root, "score")->valuedouble, 5.5);
    /* Gradescope's format: the maximum is the tests' sum, not a top-level field. */
    ck_assert_ptr_null(cJSON_GetObjectItem(root, "max_score"));
    double max = 0.0;
    for (cJSON *t = cJSON_GetObjectItem(root, "tests")->child; t; t = t->next)
        max += cJSON_GetObjectItem(t, "max_score")->valuedouble;
    ck_assert_double_eq(max, 7.0);
    ck_assert_double_eq(cJSON_GetObjectItem(root, "execution_time")->valuedouble, 2.0); /* whole seconds, up */
    /* The same columns for everyone: lab 2 was not timed and has a baseline, so its rate and speedup are 0. */
    cJSON *board = cJSON_GetObjectItem(root, "leaderboard");
    ck_assert_int_eq(cJSON_GetArraySize(board), 3);
    ck_assert_str_eq(cJSON_GetObjectItem(cJSON_GetArrayItem(board, 0), "name")->valuestring, "lab1 GB/s");
    ck_assert_double_eq(cJSON_GetObjectItem(cJSON_GetArrayItem(board, 0), "value")->valuedouble, 12.5);
    ck_assert_str_eq(cJSON_GetObjectItem(cJSON_GetArrayItem(board, 2), "name")->valuestring, "lab2 speedup");
    ck_assert_double_eq(cJSON_GetObjectItem(cJSON_GetArrayItem(board, 2), "value")->valuedouble, 0.0);
    ck_assert_str_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(root, "extra_data"), "grader_version")->valuestring,
                     "9.9.9");
    ck_assert_str_eq(cJSON_GetObjectItem(root, "output")->valuestring, "graded \"labs\" with seed 7");
    tests = cJSON_GetObjectItem(root, "tests");
    ck_assert_int_eq(cJSON_GetArraySize(tests), 5); /* with lab 2's set-up failure */
    first = cJSON_GetArrayItem(tests, 0);
    ck_assert_str_eq(cJSON_GetObjectItem(first, "name")->valuestring, "lab1: build");
    ck_assert_str_eq(cJSON_GetObjectItem(first, "status")->valuestring, "failed");
    ck_assert_str_eq(cJSON_GetObjectItem(first, "visibility")->valuestring, "visible");
    ck_assert_ptr_nonnull(strstr(cJSON_GetObjectItem(first, "output")->valuestring, "\"vadd.cl\": <error>"));
    ck_assert_ptr_nonnull(strstr(cJSON_GetObjectItem(first, "output")->valuestring, "\nline two"));
    ck_assert_str_eq(cJSON_GetObjectItem(cJSON_GetArrayItem(tests, 3), "name")->valuestring, "lab2: set-up");
    ck_assert_str_eq(cJSON_GetObjectItem(cJSON_GetArrayItem(tests, 4), "status")->valuestring, "passed");
    /* An informational test is shown but worth nothing. */
    ck_assert_double_eq(cJSON_GetObjectItem(cJSON_GetArrayItem(tests, 2), "max_score")->valuedouble, 0.0);
    cJSON_Delete(root);
    free(text);
}
END_TEST

/* Points to two decimals, as Gradescope shows them: a third of a point is 0.33, and the total is rounded too. */
START_TEST(json_rounds_points_to_two_decimals)
{
    results[1].tests[0].score = 4.0 / 3.0;
    char *text = render(1);
    cJSON *root = cJSON_Parse(text);
    ck_assert_msg(root != NULL, "not valid JSON:\n%s", text);
    ck_assert_double_eq(cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(root, "tests"), 4), "score")
                            ->valuedouble, 1.33);
    ck_assert_double_eq(cJSON_GetObjectItem(root, "score")->valuedouble, 2.83);
    cJSON_Delete(root);
    free(text);
}
END_TEST

START_TEST(json_output_is_valid_utf8)
{
    char *clean = safetext_clean("ok \xc3\xa9 bad \xff\xfe cut \xe2\x9c", 0);
    ck_assert_str_eq(clean, "ok \xc3\xa9 bad ?? cut ??");
    free(clean);
}
END_TEST

START_TEST(junit_is_well_formed)
{
    results[0].tests[1].seconds = 0.75; /* each case its own measured time */
    char *text = render(0), path[] = "/tmp/clkit-junit-XXXXXX", command[128], *output;
    int fd = mkstemp(path);
    FILE *f = fdopen(fd, "w");
    fputs(text, f);
    fclose(f);
    snprintf(command, sizeof command, "xmllint --noout --schema tests/junit-jenkins.xsd %s", path);
    ck_assert_msg(run_in_kit(command, 30, &output) == 0, "Jenkins' rules reject it: %s\n%s", output, text);
    /* The informational test passes whatever it measured; the set-up failure of lab 2 is an error. */
    ck_assert_ptr_nonnull(strstr(text, "<testsuites name=\"clkit\" tests=\"5\" failures=\"2\" errors=\"1\" time=\"1.250\">"));
    ck_assert_ptr_nonnull(strstr(text, "<testsuite name=\"lab1: vector add\" tests=\"3\" failures=\"2\" errors=\"0\" "
                                       "skipped=\"0\" time=\"2.500\" file=\"labs/lab1/vadd.cl\">"));
    ck_assert_ptr_nonnull(strstr(text, "<testcase name=\"exact cases\" classname=\"labs/lab1/vadd.cl\" time=\"0.750\">"));
    ck_assert_ptr_nonnull(strstr(text, "<error message=\"no OpenCL device\">"));
    ck_assert_ptr_nonnull(strstr(text, "<failure message=\"cannot build &quot;vadd.cl&quot;: &lt;error&gt;"));
    ck_assert_ptr_null(strstr(text, "\x1b"));
    remove(path);
    free(output);
    free(text);
}
END_TEST

/* The runner result, decoded and read as Classroom's reporter reads it: points are the sum of the listed tests'
   scores, the maximum is max_score, and every listed test counts in the pass count. */
START_TEST(classroom_result_is_what_the_reporter_reads)
{
    static const char *const kernels[] = {"labs/lab1/vadd.cl", "labs/lab2/vadd_stride.cl"};
    struct export_run run = {.results = results, .titles = titles, .kernels = kernels, .count = 2};
    char path[] = "/tmp/clkit-classroom-XXXXXX", command[1024], *output;
    FILE *out = fdopen(mkstemp(path), "w");
    ck_assert_int_eq(export_classroom(out, &run), 0);
    fclose(out);
    snprintf(command, sizeof command,
             "/usr/bin/python3 -c 'import base64, json, sys\n"
             "d = json.loads(base64.b64decode(open(sys.argv[1]).read()).decode(\"utf-8\"))\n"
             "names = [t[\"name\"] for t in d[\"tests\"]]\n"
             "assert d[\"version\"] == 1 and d[\"status\"] == \"error\" and d[\"max_score\"] == 7, d\n"
             "assert names == [\"lab1: exact cases\", \"lab2: set-up\", \"lab2: exact cases\"], names\n"
             "assert sum(t[\"score\"] for t in d[\"tests\"]) == 5.5\n"
             "assert d[\"tests\"][0][\"line_no\"] == 12 and d[\"tests\"][2][\"line_no\"] == 0\n"
             "assert d[\"tests\"][0][\"filename\"] == \"labs/lab1/vadd.cl\" and \"?\" in d[\"tests\"][0][\"message\"]' %s",
             path);
    int status = run_in_kit(command, 30, &output);
    ck_assert_msg(status == 0, "%s", output);
    remove(path);
    free(output);
}
END_TEST

/* Text that reaches the XML raw (not through result_add's cleaning): U+FFFE and U+FFFF, control bytes, and a first
   line longer than a failure's message attribute holds, of 3-byte characters, so that its cut falls inside one.
   The JUnit file stays well formed and valid; a link planted where it goes is refused, not written through. */
START_TEST(junit_keeps_to_xml_characters)
{
    char long_line[1200] = "", *text = NULL, *output;
    for (int i = 0; i < 300; i++)
        strcat(long_line, "\xe2\x9c\x93");
    struct grade_test *test = result_add(&results[1], "technique", 0, 2, 0, "");
    free(test->reason);
    test->reason = malloc(strlen(long_line) + 64);
    sprintf(test->reason, "%s\nU+FFFE \xef\xbf\xbe U+FFFF \xef\xbf\xbf bell \a", long_line);
    snprintf(test->name, sizeof test->name, "tech\xef\xbf\xbfnique");
    free(results[1].setup_error);
    results[1].setup_error = strdup("no device \xef\xbf\xbe\x0b");
    static const char *const kernels[] = {"labs/lab1/vadd.cl", "labs/lab2/vadd_stride.cl"};
    struct export_run run = {.results = results, .titles = titles, .kernels = kernels, .count = 2, .seconds = 1};
    ck_assert_int_eq(run_in_kit("rm -rf build/check-export && mkdir -p build/check-export && "
                                "echo untouched > build/check-export/victim && "
                                "ln -s victim build/check-export/junit.xml", 10, &output), 0);
    free(output);
    ck_assert_int_eq(result_writer_file(&result_writer_junit, "build/check-export/junit.xml", &run), -1); /* refused */
    ck_assert_int_eq(result_writer_file(&result_writer_junit, "build/check-export/junit2.xml", &run), 0);
    int status = run_in_kit("mv build/check-export/junit2.xml build/check-export/junit.xml && "
                            "cat build/check-export/victim && "
                            "xmllint --noout --schema tests/junit-jenkins.xsd build/check-export/junit.xml 2>&1",
                            30, &output);
    ck_assert_msg(status == 0 && strncmp(output, "untouched\n", 10) == 0, "%s", output);
    free(output);
    ck_assert_int_eq(run_in_kit("cat build/check-export/junit.xml", 10, &text), 0);
    ck_assert_msg(!strstr(text, "\xef\xbf\xbe") && !strstr(text, "\xef\xbf\xbf") && strstr(text, "name=\"tech?nique\""),
                  "%s", text);
    free(text);
}
END_TEST

/* The CSV writer: a header, then a row per test of each lab with its score, max and verdict; a test name that
   holds a comma or a quote stays one field. */
START_TEST(csv_has_a_row_per_test)
{
    struct export_run run = {.results = results, .titles = titles, .count = 2, .seconds = 1};
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    snprintf(results[1].tests[0].name, sizeof results[1].tests[0].name, "exact, \"cases\"");
    ck_assert_int_eq(result_writer_csv.write(out, &run), 0);
    fclose(out);
    ck_assert_msg(strcmp(text, "lab,test,score,max,passed\nlab1,build,0.00,0.00,0\nlab1,exact cases,1.50,3.00,0\n"
                               "lab1,bandwidth,0.00,0.00,1\nlab2,\"exact, \"\"cases\"\"\",4.00,4.00,1\n") == 0,
                  "%s", text);
    free(text);
}
END_TEST

/* Every writer of the table is whole, named once, and found by its option; the table fits a command line's. */
START_TEST(every_writer_is_in_the_table)
{
    int count = 0;
    for (int i = 0; result_writers[i]; i++, count++) {
        ck_assert_msg(result_writers[i]->option && result_writers[i]->help && result_writers[i]->write, "%d", i);
        ck_assert_int_eq(result_writer_index(result_writers[i]->option), i);
    }
    ck_assert_int_ge(count, 4); /* json, junit, classroom, csv */
    ck_assert_int_le(count, RESULT_MAX_WRITERS);
    ck_assert_int_eq(result_writer_index("html"), -1); /* the class report is no per-run writer */
}
END_TEST

Suite *export_suite(void)
{
    Suite *s = suite_create("export");
    TCase *tc = tcase_create("formats");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, json_has_the_gradescope_fields);
    tcase_add_test(tc, json_rounds_points_to_two_decimals);
    tcase_add_test(tc, json_output_is_valid_utf8);
    tcase_add_test(tc, junit_is_well_formed);
    tcase_add_test(tc, classroom_result_is_what_the_reporter_reads);
    tcase_add_test(tc, junit_keeps_to_xml_characters);
    tcase_add_test(tc, csv_has_a_row_per_test);
    tcase_add_test(tc, every_writer_is_in_the_table);
    suite_add_tcase(s, tc);
    return s;
}
