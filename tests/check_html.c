/* grader/report/html.c: the class report --html writes, from the results batch grading leaves. */
#include "suites.h"

#include "report/html.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *shell(const char *command, int timeout_s, int expected_status)
{
    char *output;
    int status = run_in_kit(command, timeout_s, &output);
    ck_assert_msg(status == expected_status, "%s: status %d\n%s", command, status, output);
    return output;
}

/* A class of 6 (right, wrong, crashing, mixed: one or two of each, so that one failure is the most common)
   graded side by side with --html: every page is there, well formed, and the class page has its parts. */
START_TEST(a_class_is_reported)
{
    char *output;
    free(shell("rm -rf build/check-html-class build/check-html-results build/check-html && "
               "sh tests/make_class.sh build/check-html-class 6 >/dev/null && NO_COLOR=1 ./grade --quick --seed 4 "
               "--devices cpu,cpu --submission build/check-html-class --results build/check-html-results "
               "--html build/check-html lab1 >/dev/null 2>&1",
               400, 0));
    output = shell("ls build/check-html/students | grep -c '^s[0-9][0-9].html$'; xmllint --noout build/check-html/*.html "
                   "build/check-html/students/*.html && echo well-formed; "
                   "grep -c '<a href=\"students/s[0-9]*.html\">' build/check-html/index.html",
                   60, 0);
    ck_assert_msg(strncmp(output, "6\nwell-formed\n", 14) == 0, "%s", output);
    free(output);
    output = shell("cat build/check-html/index.html", 10, 0);
    ck_assert_msg(strstr(output, "<p>6 students.</p>") && strstr(output, "<title>scores</title>") &&
                  strstr(output, "<h3>pass rate of each test</h3>") && strstr(output, "3 of 6 (50%)") &&
                  strstr(output, "<h3>most common failures</h3>") && strstr(output, "2 students: exact cases") &&
                  strstr(output, "no kernel was timed (--quick"),
                  "build/check-html/index.html lacks a part of the class page");
    ck_assert_ptr_null(strstr(output, "<script"));
    free(output);
}
END_TEST

/* A wrong matrix gets its mismatch map as a heat map on the student's page. */
START_TEST(a_student_page_shows_the_map)
{
    char *page;
    free(shell("rm -rf build/check-html-small build/check-html-small-results build/check-html-small-report && "
               "mkdir -p build/check-html-small && cp -r tests/fixtures/lab5/transposed-result "
               "build/check-html-small/tina && cp -r solutions build/check-html-small/sol && "
               /* sol predicts lab 5's write transactions right and its speed, which --quick leaves untimed */
               "printf '## Question 1\\npredict: 2\\n## Question 3\\npredict: 5\\n' "
               "> build/check-html-small/sol/lab5/answers.md && "
               "NO_COLOR=1 ./grade --quick --seed 4 --submission build/check-html-small "
               "--results build/check-html-small-results --html build/check-html-small-report lab5 >/dev/null 2>&1",
               300, 0));
    page = shell("cat build/check-html-small-report/students/tina.html", 10, 0);
    ck_assert_msg(strstr(page, "<title>mismatch map</title>") && strstr(page, "fill=\"#e53e3e\"") &&
                  strstr(page, "the result is the transpose"), "tina.html has no map");
    free(page);
    page = shell("cat build/check-html-small-report/students/sol.html", 10, 0);
    ck_assert_ptr_null(strstr(page, "<title>mismatch map</title>"));
    free(page);
    /* the prediction stands beside what the reference judge counted, and the class page counts it */
    page = shell("cat build/check-html-small-results/sol.txt", 10, 0);
    ck_assert_msg(strstr(page, "question 1: predicted 2; measured 2, 128-byte transactions") &&
                  strstr(page, "question 3: predicted 5; not measured: the speed test did not time"), "%s", page);
    free(page);
    page = shell("cat build/check-html-small-report/index.html", 10, 0);
    ck_assert_msg(strstr(page, "<th>predictions within their margin</th>") && strstr(page, "<td>1 of 2</td>") &&
                  strstr(page, "<td>0 of 0</td>"), "%s", page);
    free(page);
}
END_TEST

/* One student's own view (issue 32: it wrote nothing before): ./grade labN --html DIR writes DIR/index.html, their
   page with the map of their wrong matrix and their score, well formed, with no link to a class and nothing else in
   DIR; the report fails when DIR cannot be written. */
START_TEST(one_students_own_page)
{
    char *page;
    free(shell("rm -rf build/check-html-own && NO_COLOR=1 ./grade --quick --seed 4 --submission "
               "tests/fixtures/lab5/transposed-result --html build/check-html-own lab5 >/dev/null 2>&1; "
               "test $? -eq 1 && ls build/check-html-own && xmllint --noout build/check-html-own/index.html",
               300, 0));
    page = shell("cat build/check-html-own/index.html", 10, 0);
    ck_assert_msg(strstr(page, "<title>transposed-result: ") && strstr(page, " / 14</title>") &&
                  !strstr(page, "<title>transposed-result: 14.0 / 14</title>") &&
                  strstr(page, "<title>mismatch map</title>") && strstr(page, "the result is the transpose") &&
                  !strstr(page, "the class</a>") && !strstr(page, "/tmp/"), "%.2000s", page);
    free(page);
    page = shell("ls -A build/check-html-own; NO_COLOR=1 ./grade --quick --submission "
                 "tests/fixtures/lab5/transposed-result --html /proc/no-such-dir lab5 2>&1 >/dev/null", 300, 2);
    ck_assert_msg(!strncmp(page, "index.html\n", 11) && strstr(page, "cannot write /proc/no-such-dir/index.html"),
                  "%s", page);
    free(page);
}
END_TEST

/* Writes build/check-html-evil/NAME.record holding one test of lab1 with its reason (JSON, escaped), failed or
   passed. */
static void put_result(const char *name, const char *test, const char *output, const char *status)
{
    char *command = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&command, &size);
    fprintf(out, "mkdir -p build/check-html-evil && printf '%%s' '{\"record\":\"clkit\",\"labs\":[{\"lab\":\"lab1\","
                 "\"tests\":[{\"name\":\"%s\",\"score\":0,\"max\":3,\"passed\":%d,\"reason\":\"%s\"}]}]}' "
                 "> build/check-html-evil/%s.record",
            test, strcmp(status, "passed") == 0, output, name);
    fclose(out);
    free(shell(command, 10, 0));
    free(command);
}

/* What a submission prints reaches the page as text, never as markup, and within XML 1.0's characters: U+FFFE,
   U+FFFF, control characters, and a failure key cut inside a character leave the pages well formed. */
START_TEST(reasons_are_escaped)
{
    static const char *const names[] = {"eve", "zed"};
    char *page, key[1200] = "";
    free(shell("rm -rf build/check-html-evil build/check-html-evil-report", 10, 0));
    put_result("eve", "exact cases", "<script>alert(1)</script> & \\\"x\\\" \\ufffe \\uffff \\u0001 \\u001b[2J", "failed");
    for (int i = 0; i < 180; i++) /* a key longer than the class page keeps, of 3-byte characters */
        strcat(key, "\\u2713");
    put_result("zed", "exact \\ufffe<b>", key, "failed");
    ck_assert_int_eq(html_write_class("build/check-html-evil", "build/check-html-evil-report", ".", names, 2), 0);
    page = shell("cat build/check-html-evil-report/students/eve.html", 10, 0);
    ck_assert_msg(strstr(page, "&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;x&quot;") && !strstr(page, "<script"),
                  "%s", page);
    free(page);
    free(shell("xmllint --noout build/check-html-evil-report/index.html build/check-html-evil-report/students/*.html",
               10, 0));
    page = shell("cat build/check-html-evil-report/index.html", 10, 0);
    ck_assert_msg(!strstr(page, "<b>") && strstr(page, "exact ?&lt;b&gt;"), "%s", page);
    free(page);
    ck_assert_int_eq(html_write_class("build/no-such-results", "build/check-html-none", ".", names, 2), -1);
}
END_TEST

/* A student named index keeps their page, apart from the class page; a stray entry first in the class (no tests)
   empties no table; a planted link in the report folder is replaced, not written through; a stale results file of
   a student not in the list is not shown. */
START_TEST(pages_stay_apart_and_links_are_not_followed)
{
    static const char *const names[] = {"000stray", "index", "amy"};
    char *page;
    free(shell("rm -rf build/check-html-evil build/check-html-evil-report build/check-html-victim && "
               "mkdir -p build/check-html-evil-report/students && echo untouched > build/check-html-victim && "
               "ln -s ../check-html-victim build/check-html-evil-report/index.html && "
               "ln -s ../../check-html-victim build/check-html-evil-report/students/amy.html", 10, 0));
    put_result("000stray", "x", "", "failed");
    free(shell("printf '{\"record\":\"clkit\",\"why\":\"not a folder\",\"labs\":[]}' > "
               "build/check-html-evil/000stray.record", 10, 0));
    put_result("index", "exact cases", "all right", "passed");
    put_result("amy", "exact cases", "2 of 8 cases wrong", "failed");
    put_result("ghost", "exact cases", "GHOST OF A STALE RUN", "passed");
    ck_assert_int_eq(html_write_class("build/check-html-evil", "build/check-html-evil-report", ".", names, 3), 0);
    page = shell("cat build/check-html-victim; test ! -L build/check-html-evil-report/index.html && "
                 "test ! -L build/check-html-evil-report/students/amy.html && "
                 "grep -c '<h1>clkit: the class</h1>' build/check-html-evil-report/index.html; "
                 "grep -c '<title>index: ' build/check-html-evil-report/students/index.html", 10, 0);
    ck_assert_str_eq(page, "untouched\n1\n1\n");
    free(page);
    page = shell("cat build/check-html-evil-report/index.html", 10, 0);
    ck_assert_msg(strstr(page, "<tr><td>exact cases</td><td>1 of 2 (50%)</td></tr>") && !strstr(page, "ghost") &&
                  !strstr(page, "GHOST") && strstr(page, "<p>3 students.</p>"), "%s", page);
    free(page);
}
END_TEST

/* Where Chromium is installed, the class page renders in it headless (a screenshot of some size). */
START_TEST(chromium_renders_the_class_page)
{
    char *output;
    if (run_in_kit("command -v chromium >/dev/null", 10, &output) != 0) {
        free(output);
        return;
    }
    free(output);
    output = shell("rm -f build/check-html.png; chromium --headless --no-sandbox --disable-gpu --disable-dev-shm-usage "
                   "--hide-scrollbars --window-size=1000,1400 --screenshot=build/check-html.png "
                   "\"file://$PWD/build/check-html/index.html\" "
                   ">/dev/null 2>&1; test $(stat -c %s build/check-html.png) -gt 20000 && echo rendered",
                   120, 0);
    ck_assert_ptr_nonnull(strstr(output, "rendered"));
    free(output);
}
END_TEST

Suite *html_suite(void)
{
    Suite *s = suite_create("html");
    TCase *tc = tcase_create("class report");
    tcase_set_timeout(tc, 400);
    tcase_add_test(tc, a_class_is_reported);
    tcase_add_test(tc, a_student_page_shows_the_map);
    tcase_add_test(tc, one_students_own_page);

    tcase_add_test(tc, chromium_renders_the_class_page);
    suite_add_tcase(s, tc);
    tc = tcase_create("hostile results");
    tcase_add_test(tc, reasons_are_escaped);
    tcase_add_test(tc, pages_stay_apart_and_links_are_not_followed);
    suite_add_tcase(s, tc);
    return s;
}
