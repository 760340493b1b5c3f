#include "suites.h"

#include "judge/rules.h"

#include <string.h>

/* Sources and whether each kind of file may hold them (1: allowed). */
static const struct {
    const char *source;
    int kernel, host;
} sources[] = {
    {"__kernel void k(__global float *x) { x[0] = 1; }", 1, 1},
    {"/* asm is only a word here */ // and __asm__ here\nint x;", 1, 1},
    {"const char *s = \"asm(\\\"syscall\\\")\";", 1, 1},
    {"void f(void) { asm(\"syscall\"); }", 0, 0},
    {"void f(void) { __asm__ volatile(\"nop\"); }", 0, 0},
    {"void f(void) { __asm (\"nop\"); }", 0, 0},
    {"#define CAT(a, b) a##b\nCAT(as, m)(\"syscall\");", 0, 0},
    {"#define CAT(a, b) a %:%: b\n", 0, 0},
    {"?" "?=define X 1\n", 0, 0},
    {"#include \"helper.h\"\n", 1, 1},
    {"#include \"sub/helper.h\"\n", 1, 1},
    {"#include <stdio.h>\n", 0, 1},
    {"#include \"../solutions/lab1/vadd.cl\"\n", 0, 0},
    {"#include \"/etc/hostname\"\n", 0, 0},
    {"#include </etc/hostname>\n", 0, 0},
    {"#include <../../solutions/lab1/host.c>\n", 0, 0},
    {"#define WHERE \"/etc/hostname\"\n#include WHERE\n", 0, 0},
    {"/**/ # /**/ include \"../x.cl\"\n", 0, 0},
    {"#inc\\\nlude \"/etc/hostname\"\n", 0, 0},
    {"  %:include \"/etc/hostname\"\n", 0, 0},
    {"#include_next <stdio.h>\n", 0, 0},
    {"#import \"x.h\"\n", 0, 0},
    {"int a; /* a comment\n#include \"/etc/hostname\"\n spanning lines */ int b;", 1, 1},
};

START_TEST(sources_meet_the_rules)
{
    char why[512] = "";
    int kernel = rules_check(RULES_KERNEL, "lab1/k.cl", sources[_i].source, why, sizeof why) == 0;
    ck_assert_msg(kernel == sources[_i].kernel, "kernel, %s: %s", sources[_i].source, why);
    why[0] = '\0';
    int host = rules_check(RULES_HOST, "lab1/host.c", sources[_i].source, why, sizeof why) == 0;
    ck_assert_msg(host == sources[_i].host, "host, %s: %s", sources[_i].source, why);
}
END_TEST

START_TEST(refusal_names_file_and_line)
{
    char why[512];
    ck_assert_int_ne(rules_check(RULES_KERNEL, "lab4/reduce.cl", "int a;\n\nint b; asm(\"\");\n", why, sizeof why), 0);
    ck_assert_msg(strstr(why, "lab4/reduce.cl:3:"), "%s", why);
}
END_TEST

Suite *rules_suite(void)
{
    Suite *s = suite_create("rules");
    TCase *tc = tcase_create("sources");
    tcase_add_loop_test(tc, sources_meet_the_rules, 0, (int)(sizeof sources / sizeof sources[0]));
    tcase_add_test(tc, refusal_names_file_and_line);
    suite_add_tcase(s, tc);
    return s;
}
