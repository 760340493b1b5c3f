/* The grader's folders: modules depend on each other one way only. */
#include "suites.h"

#include <stdlib.h>
#include <string.h>

START_TEST(no_include_cycles)
{
    char *output;
    int status = run_in_kit("/usr/bin/python3 tests/include_cycles.py", 30, &output);
    ck_assert_msg(status == 0, "%s", output);
    free(output);
    /* The check can fail: a cycle written out is caught. */
    status = run_in_kit("printf 'grader/a -> grader/b\\ngrader/b -> grader/c\\ngrader/c -> grader/a\\n' > "
                        "build/check-cycle.txt && /usr/bin/python3 tests/include_cycles.py build/check-cycle.txt",
                        30, &output);
    ck_assert_msg(status == 1 && strstr(output, "include cycle: grader/a -> grader/b -> grader/c -> grader/a"),
                  "%s", output);
    free(output);
}
END_TEST

Suite *layout_suite(void)
{
    Suite *s = suite_create("layout");
    TCase *tc = tcase_create("includes");
    tcase_add_test(tc, no_include_cycles);
    suite_add_tcase(s, tc);
    return s;
}
