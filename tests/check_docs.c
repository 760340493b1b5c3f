/* docs/numbers.py: the figures the handout and README quote are those of docs/results. */
#include "suites.h"

#include <stdlib.h>
#include <string.h>

START_TEST(figures_match_the_data)
{
    char *output;
    int status = run_in_kit("/usr/bin/python3 docs/numbers.py HANDOUT.md README.md 2>&1", 30, &output);
    ck_assert_msg(status == 0, "a figure differs from docs/results (make docs rewrites them):\n%s", output);
    free(output);
}
END_TEST

/* The check can fail: a figure edited by hand is caught, and make docs puts the data back. */
START_TEST(an_edited_figure_is_caught)
{
    char *output;
    int status = run_in_kit("cp HANDOUT.md build/check-docs.md && "
                            "sed -i '0,/speedup .2f-->[0-9.]*</s//speedup .2f-->9.99</' build/check-docs.md && "
                            "grep -q -- '-->9.99<' build/check-docs.md && "
                            "/usr/bin/python3 docs/numbers.py build/check-docs.md 2>&1; echo \"exit $?\"",
                            30, &output);
    ck_assert_msg(status == 0 && strstr(output, "says 9.99") && strstr(output, "exit 1"), "%s", output);
    free(output);
    status = run_in_kit("/usr/bin/python3 docs/numbers.py --write build/check-docs.md && "
                        "/usr/bin/python3 docs/numbers.py build/check-docs.md && ! grep -q -- '-->9.99<' build/check-docs.md",
                        30, &output);
    ck_assert_msg(status == 0, "%s", output);
    free(output);
}
END_TEST

/* A benchmark table copied into the README and then edited is caught too. */
START_TEST(an_edited_table_is_caught)
{
    char *output;
    int status = run_in_kit("cp README.md build/check-docs-readme.md && "
                            "sed -i '/<!--table h100-->/,\\%<!--/table-->%s# ms | [0-9]* GB/s# ms | 1 GB/s#' "
                            "build/check-docs-readme.md && ! cmp -s README.md build/check-docs-readme.md && "
                            "/usr/bin/python3 docs/numbers.py build/check-docs-readme.md 2>&1; echo \"exit $?\"",
                            30, &output);
    ck_assert_msg(status == 0 && strstr(output, "the table of h100 differs") && strstr(output, "exit 1"), "%s", output);
    free(output);
}
END_TEST

Suite *docs_suite(void)
{
    Suite *s = suite_create("docs");
    TCase *tc = tcase_create("figures");
    tcase_add_test(tc, figures_match_the_data);
    tcase_add_test(tc, an_edited_figure_is_caught);
    tcase_add_test(tc, an_edited_table_is_caught);
    suite_add_tcase(s, tc);
    return s;
}
