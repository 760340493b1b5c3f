#include "suites.h"

#include "judge/safetext.h"

#include <stdio.h>
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
    {"not XML \xef\xbf\xbe or \xef\xbf\xbf", "not XML ? or ?"},
    {"XML allows \xef\xbf\xbd and \xf0\x9f\x98\x80", "XML allows \xef\xbf\xbd and \xf0\x9f\x98\x80"},
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

/* Whether text is strict UTF-8: cleaning it again changes nothing (every bad byte would become '?'). */
static int is_utf8(const char *text)
{
    char *again = safetext_clean(text, 0);
    int same = strcmp(again, text) == 0;
    free(again);
    return same;
}

/* A cap or a cut that falls inside a character leaves the whole character out, never a part of it. */
START_TEST(cuts_fall_between_characters)
{
    char text[600] = "", out[8], *clean;
    for (int i = 0; i < 150; i++)
        strcat(text, i % 2 ? "\xc3\xa9" : "\xe2\x9c\x93"); /* 2- and 3-byte characters in turn */
    for (size_t cap = 20; cap < 40; cap++) {
        clean = safetext_clean(text, cap);
        ck_assert_msg(strlen(clean) <= cap && is_utf8(clean), "cap %zu: %s", cap, clean);
        free(clean);
    }
    for (size_t size = 1; size <= sizeof out; size++) {
        size_t n = safetext_cut(out, size, text, strlen(text));
        ck_assert_msg(n < size && strlen(out) == n && is_utf8(out) && strncmp(out, text, n) == 0, "size %zu", size);
    }
    ck_assert_uint_eq(safetext_cut(out, 4, "\xe2\x9c\x93x", 4), 3); /* room for the whole character: kept */
    ck_assert_uint_eq(safetext_cut(out, 3, "\xe2\x9c\x93x", 4), 0); /* room for two of its bytes: left out */
    ck_assert_uint_eq(safetext_cut(out, sizeof out, "ab\xc3\xa9", 3), 2); /* a length that splits it, likewise */
}
END_TEST

/* CSV cells: what a spreadsheet would run as a formula starts with a quote inside quotes; the rest as RFC 4180. */
static const struct {
    const char *in, *out;
} cells[] = {
    {"alice", "alice"},
    {"=HYPERLINK(\"http://x\")", "\"'=HYPERLINK(\"\"http://x\"\")\""},
    {"+1+1", "\"'+1+1\""},
    {"-2+3", "\"'-2+3\""},
    {"@SUM(A1)", "\"'@SUM(A1)\""},
    {"\tx", "\"'\tx\""},
    {"a, b", "\"a, b\""},
    {"two\nlines", "\"two\nlines\""},
    {"safe-name_1.x", "safe-name_1.x"},
};

START_TEST(csv_cells_are_never_formulas)
{
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    safetext_csv(out, cells[_i].in, 256);
    fclose(out);
    ck_assert_str_eq(text, cells[_i].out);
    free(text);
}
END_TEST

Suite *safetext_suite(void)
{
    Suite *s = suite_create("safetext");
    TCase *tc = tcase_create("clean");
    tcase_add_loop_test(tc, bad_text_is_cleaned, 0, (int)(sizeof cases / sizeof cases[0]));
    tcase_add_test(tc, long_text_is_cut);
    tcase_add_test(tc, cuts_fall_between_characters);
    tcase_add_loop_test(tc, csv_cells_are_never_formulas, 0, (int)(sizeof cells / sizeof cells[0]));
    suite_add_tcase(s, tc);
    return s;
}
