#include "suites.h"

#include "settings.h"

#include <stdio.h>
#include <string.h>

/* Records the settings it is given; refuses the key "bad". */
static int record(void *context, const char *key, const char *value, char *why, size_t why_size)
{
    char *seen = context;
    if (strcmp(key, "bad") == 0) {
        snprintf(why, why_size, "no such key '%s'", key);
        return -1;
    }
    strcat(seen, key);
    strcat(seen, "=");
    strcat(seen, value);
    strcat(seen, ";");
    return 0;
}

START_TEST(settings_trimmed_comments_skipped)
{
    char seen[256] = "", error[256] = "";
    ck_assert_int_eq(clk_settings_parse("# a comment\n\n  a = 1 \nb=two words\n", record, seen, error, sizeof error), 0);
    ck_assert_str_eq(seen, "a=1;b=two words;");
}
END_TEST

/* A line without '=' and a refused setting stop the reading, naming the line; nothing after is read. */
START_TEST(bad_lines_name_their_number)
{
    char seen[256] = "", error[256] = "";
    ck_assert_int_eq(clk_settings_parse("a = 1\n\nno equals here\nc = 3\n", record, seen, error, sizeof error), -1);
    ck_assert_str_eq(error, "line 3: expected 'key = value', got 'no equals here'");
    ck_assert_str_eq(seen, "a=1;");
    seen[0] = '\0';
    ck_assert_int_eq(clk_settings_parse("a = 1\nbad = 2\nc = 3\n", record, seen, error, sizeof error), -1);
    ck_assert_str_eq(error, "line 2: no such key 'bad'");
    ck_assert_str_eq(seen, "a=1;");
}
END_TEST

Suite *settings_suite(void)
{
    Suite *s = suite_create("settings");
    TCase *tc = tcase_create("parse");
    tcase_add_test(tc, settings_trimmed_comments_skipped);
    tcase_add_test(tc, bad_lines_name_their_number);
    suite_add_tcase(s, tc);
    return s;
}
