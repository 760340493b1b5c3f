#include "suites.h"

#include "judge/source_rules.h"

#include <stdio.h>
#include <stdlib.h>
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
    /* What tells one OpenCL implementation from another: refused in kernels, allowed in host programs. */
    {"#if __OPENCL_C_VERSION__ < 200\n#endif\n", 0, 1},
    {"#if __OPENCL_VERSION__ >= 300\n#endif\n", 0, 1},
    {"#ifdef cl_khr_fp64\n#endif\n", 0, 1},
    {"#if defined(__opencl_c_generic_address_space)\n#endif\n", 0, 1},
    {"#ifdef CL_VERSION_2_0\n#endif\n", 0, 1},
    {"#ifdef __ENDIAN_LITTLE__\n#endif\n", 0, 1},
    {"#ifdef __IMAGE_SUPPORT__\n#endif\n", 0, 1},
    {"#ifdef __OPTIMIZE__\n#endif\n", 0, 1},
    {"#ifdef FP_FAST_FMAF\n#endif\n", 0, 1},
    {"#if __has_extension(x)\n#endif\n", 0, 1},
    {"int v = __builtin_constant_p(1);", 0, 1},
    {"#ifdef __OPENCL_\\\nVERSION__\n#endif\n", 0, 1},
    {"#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n__kernel void k(__global double *x) { x[0] = 1; }", 1, 1},
    {"__kernel void k(__global float *x) __attribute__((reqd_work_group_size(16, 1, 1))) { x[0] = 1; }", 1, 1},
    /* Addresses as numbers. */
    {"__kernel void k(__global float *a, __global ulong *o) { o[0] = (ulong)a; }", 0, 1},
    {"__kernel void k(__global float *a, __global ulong *o) { o[0] = (ulong)(a + 1); }", 0, 1},
    {"__kernel void k(__global float *a, __global uint *o) { o[0] = (uint)((ulong)a >> 40); }", 0, 1},
    {"__kernel void k(__global float *a, __global ulong *o) { o[0] = (size_t)&a[0]; }", 0, 1},
    {"__kernel void k(__global float *a, __global ulong *o) { int x; o[0] = (size_t)&x; }", 0, 1},
    {"__kernel void k(__global float *a, __global ulong *o) { o[0] = as_ulong(a); }", 0, 1},
    {"__kernel void k(__global float *a, __global ulong *o) { o[0] = *(ulong *)&a; }", 0, 1},
    {"__kernel void k(__global float *a, __global float *b, __global long *o) { o[0] = b - a; }", 0, 1},
    {"__kernel void k(__global float *a, __global float *b, __global int *o) { o[0] = a < b; }", 0, 1},
    {"__kernel void k(__global float *a, __global ulong *o) { union { __global float *p; ulong u; } x; }", 0, 1},
    {"__kernel void k(__global const float *restrict a, __global ulong *o) { o[0] = (unsigned long)a; }", 0, 1},
    {"__kernel void k(__global float *a) { __local float t[16]; a[0] = (ulong)t; }", 0, 1},
    {"#define ADDR(p) ((ulong)(p))\n__kernel void k(__global float *a, __global ulong *o) { o[0] = ADDR(a); }", 0, 1},
    {"#define ADDR(p) \\\n ((ulong)(p))\n__kernel void k(__global float *a, __global ulong *o) { o[0] = ADDR(a); }", 0,
     1},
    /* A macro's parameter holds an address only inside its #define: the same name elsewhere is a value. */
    {"#define IDX(r, c) ((r) * 16 + (c))\n__kernel void k(__global float *a) { int r = 3; a[IDX(r, 1)] = (int)r; }", 1,
     1},
    /* A pointer's name holds an address in its own scope: an int of that name in another function is a value; in
       the pointers' own function, a loop's or a block's, the order of two pointers is still refused. */
    {"static int smaller(int a, int b) { return a < b ? a : b; }\n__kernel void k(__global float *a, __global float "
     "*b, int n) { a[smaller(n, 4)] = b[0]; }", 1, 1},
    {"__kernel void k(__global float *a, __global float *b) { a[0] = b[0]; }\nint later(int a, int b) { return a - b; "
     "}", 1, 1},
    {"int g(int a) { return a; }\n__kernel void k(__global float *a, __global float *b, __global int *o) { o[0] = a < "
     "b; }", 0, 1},
    {"__kernel void k(__global float *a, __global float *b, __global int *o) { for (__global float *p = a; p < b; p++) "
     "o[0] = 1; }", 0, 1},
    {"__kernel void k(__global float *a, __global int *o) { __local float t[4]; { if (o[0]) { o[1] = t - a; } } }", 0,
     1},
    {"typedef struct { __global float *p; } box;\n__kernel void k(__global float *a, __global float *b, __global long "
     "*o) { box x = {b}; o[0] = x.p - a; o[1] = (ulong)x.p; }", 0, 1},
    /* A macro's parameter holds an address only where a use of the macro passes one (or a use that cannot be seen:
       the macro named without arguments, an argument that is a macro). */
    {"#define MIN(x, y) (x < y ? x : y)\n__kernel void k(__global float *a, int n) { a[MIN(n, 4)] = 0; }", 1, 1},
    {"#define LT(x, y) (x < y)\n__kernel void k(__global float *a, __global float *b, __global int *o) { o[0] = "
     "LT(n, 1) + LT(a, b); }", 0, 1},
    {"#define P a\n#define LT(x, y) (x < y)\n__kernel void k(__global float *a, __global float *b, __global int *o) "
     "{ o[0] = LT(P, b); }", 0, 1},
    {"#define LT(x, y) (x < y)\n#define APPLY(f, p, q) f(p, q)\n__kernel void k(__global float *a, __global float "
     "*b, __global int *o) { o[0] = APPLY(LT, a, b); }", 0, 1},
    {"#define CMP(p, q) LT(p, q)\n#define LT(x, y) (x - y)\n__kernel void k(__global float *a, __global float *b, "
     "__global long *o) { o[0] = CMP(a, b); }", 0, 1},
    {"#define GAP(x, y) (x - y)\n__kernel void k(__global float *a, __global long *o) { o[0] = GAP(&a[4], a); }", 0,
     1},
    /* Pointers declared after a comma, or with a typedef'd pointer type, are pointers too. */
    {"__kernel void k(__global float *a, __global float *b, __global long *o) { __global float *p = a, *q = b; o[0] = "
     "q - p; }", 0, 1},
    {"typedef __global const float *fp;\n__kernel void k(__global const float *a, __global const float *b, __global "
     "long *o) { fp p = a, q = b; o[0] = q - p; }", 0, 1},
    {"typedef __global const float *fp;\nlong gap(fp x, const fp y) { return x - y; }", 0, 1},
    {"typedef __global const float *fp;\n__kernel void k(fp a, __global float *o, int n) { int p = n, q = 2; o[0] = "
     "a[p - q]; }", 1, 1},
    /* Casts of values, not addresses, are fine. */
    {"__kernel void k(__global float *a, __global int *o) { o[0] = (int)a[0] + (int)(*a) + (int)get_global_id(0); }", 1,
     1},
    {"__kernel void k(__global float *a) { __local float t[16][17]; a[0] = (float)(int)t[1][2] * sizeof(int); }", 1, 1},
    {"__kernel void k(__global float *a, __global int *o) { o[0] = (int)*a * (int)-a[1]; }", 1, 1},
    {"__kernel void k(__global float *a, int n) { for (size_t i = get_global_id(0); i < (size_t)n; i++) a[i] = 0; }",
     1, 1},
    {"__kernel void k(__global float *a, __global float *b) { event_t e = async_work_group_copy(&a[0], b + 4, "
     "(size_t)4, 0); }", 1, 1},
    /* Host programs reaching OpenCL around the grader's ledger (common/ledger.c), or running before main. */
    {"int __real_clFinish(void *q);\nvoid f(void *q) { __real_clFinish(q); }", 1, 0},
    {"int __wrap_clFinish(void *q) { return 0; }", 1, 0},
    {"void *f(void *h) { return dlsym(h, \"clFinish\"); }", 1, 0},
    {"static void g(void) __attribute__((weakref(\"__real_clFinish\")));", 1, 0},
    {"__attribute__((constructor)) static void early(void) {}", 1, 0},
    {"void *f(void) { return clGetExtensionFunctionAddress(\"clFinish\"); }", 1, 0},
    /* The words in a comment or a string are no call. */
    {"/* no __real_clFinish, no dlsym */ const char *s = \"constructor\";", 1, 1},
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

/* Every kernel the kit ships or accepts (baselines, probes, solutions, the right fixtures) meets the rules. */
START_TEST(kit_kernels_meet_the_rules)
{
    char *list = NULL, *line, *save = NULL;
    int checked = 0;
    ck_assert_int_eq(run_in_kit("find kernels solutions labs tests/fixtures -name '*.cl' | sort", 60, &list), 0);
    for (line = strtok_r(list, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char why[1024] = "";
        /* The fixtures that tell implementations apart on purpose are refused; everything else passes. */
        if (strstr(line, "/detects-") || strstr(line, "attacks/"))
            continue;
        ck_assert_msg(rules_check_file(RULES_KERNEL, line, line, why, sizeof why) == 0, "%s", why);
        checked++;
    }
    ck_assert_int_gt(checked, 50);
    free(list);
}
END_TEST

/* Whether a kernel uses a name (lab 9's contract: a kernel that never uses WPT is graded with WPT 1): the default
   that #ifndef/#define give it, tests of it, comments and strings are no use. */
static const struct {
    const char *source;
    int uses;
} uses_of_wpt[] = {
    {"#ifndef WPT\n#define WPT 4\n#endif\n__kernel void k(__global float *a) { a[0] = 1; }", 0},
    {"# ifdef WPT\n#undef WPT\n#endif\n#if defined(WPT) || defined WPT\n#endif\n", 0},
    {"/* WPT x WPT outputs */ // WPT\nconstant char *s = \"WPT\"; int WPTS, xWPT;", 0},
    {"#define ITEMS ((TILE / WPT) * (TILE / WPT))\n", 1},
    {"#if WPT > 1\n#endif\n", 1},
    {"__kernel void k(__global float *a) { for (int i = 0; i < WPT; i++) a[i] = 0; }", 1},
    {"int n = W\\\nPT;", 1},
};

START_TEST(a_name_is_used_only_outside_its_default)
{
    ck_assert_msg(rules_uses_name(uses_of_wpt[_i].source, "WPT") == uses_of_wpt[_i].uses, "%s",
                  uses_of_wpt[_i].source);
}
END_TEST

Suite *rules_suite(void)
{
    Suite *s = suite_create("rules");
    TCase *tc = tcase_create("sources");
    tcase_add_loop_test(tc, sources_meet_the_rules, 0, (int)(sizeof sources / sizeof sources[0]));
    tcase_add_test(tc, refusal_names_file_and_line);
    tcase_add_test(tc, kit_kernels_meet_the_rules);
    tcase_add_loop_test(tc, a_name_is_used_only_outside_its_default, 0,
                        (int)(sizeof uses_of_wpt / sizeof uses_of_wpt[0]));
    suite_add_tcase(s, tc);
    return s;
}
