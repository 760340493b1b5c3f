#include "suites.h"

#include "report/safetext.h"

#include <stdlib.h>
#include <string.h>

/* Each kind of bad input, and what it must become. */
static const struct {
    const char *in, *out;
} cases[] = {
    {"plain \xc3\x97 \xe2\x9c\x93 text\n\ttab", "plain \xc3\x97 \xe2\x9c\x93 text\n\ttab"},
    {"overlong \xc0\xaf", "overlong ??"},
    {"surrogate \xed\xa0\x80", "surrogate ???"},
    {"past U+10FFFF \xf4\x90\x80\x80", "past U+10FFFF ????"},
    {"escape \033[2Jgone\r\b", "escape [2Jgone"},
    {"C1 \xc2\x9b control", "C1  control"},
    {"cut short \xe2\x9c", "cut short ??"},
};

START_TEST(bad_text_is_cleaned)
{
    char *clean = safetext_clean(cases[_i].in, 0);
    ck_assert_str_eq(clean, cases[_i].out);
    free(clean);
}
END_TEST

START_TEST(long_text_is_cut)
{
    char text[1000], *clean;
    memset(text, 'x', sizeof text - 1);
    text[sizeof text - 1] = '\0';
    clean = safetext_clean(text, 100);
    ck_assert_uint_le(strlen(clean), 100);
    ck_assert_ptr_nonnull(strstr(clean, "(cut)"));
    free(clean);
    clean = safetext_clean("short", 100);
    ck_assert_str_eq(clean, "short");
    free(clean);
}
END_TEST

Suite *safetext_suite(void)
{
    Suite *s = suite_create("safetext");
    TCase *tc = tcase_create("clean");
    tcase_add_loop_test(tc, bad_text_is_cleaned, 0, (int)(sizeof cases / sizeof cases[0]));
    tcase_add_test(tc, long_text_is_cut);
    suite_add_tcase(s, tc);
    return s;
}
