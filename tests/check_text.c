#include "suites.h"

#include "text.h"

#include <string.h>

START_TEST(appends_and_cuts_short)
{
    struct {
        char text[12];
        char canary[4];
    } b = {.text = "ab", .canary = "xyz"};
    ck_assert_uint_eq(clk_append(b.text, sizeof b.text, "-%d-%s", 42, "cd"), 8);
    ck_assert_str_eq(b.text, "ab-42-cd");
    ck_assert_uint_eq(clk_append(b.text, sizeof b.text, "%s", "0123456789"), 11); /* cut to the room left */
    ck_assert_str_eq(b.text, "ab-42-cd012");
    ck_assert_uint_eq(clk_append(b.text, sizeof b.text, "more"), 11);          /* full: nothing changes */
    ck_assert_str_eq(b.text, "ab-42-cd012");
    ck_assert_str_eq(b.canary, "xyz");
}
END_TEST

Suite *text_suite(void)
{
    Suite *s = suite_create("text");
    TCase *tc = tcase_create("append");
    tcase_add_test(tc, appends_and_cuts_short);
    suite_add_tcase(s, tc);
    return s;
}
