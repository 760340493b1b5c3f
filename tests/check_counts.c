#include "suites.h"

#include "judge/oclgrind_counts.h"

#include <stdio.h>

/* The plugin's file, with a kernel's printf imitating it in between: only whole lines at a line start count, and
   the last launch is the technique case. */
static const char *counts_file =
    "clkit-counts launch=1 global_loads=5 global_stores=1 local_loads=0 local_stores=0 load_requests=1 "
    "load_transactions=1 store_requests=1 store_transactions=1 local_requests=0 local_wavefronts=0\n"
    "clkit-counts launch=2 global_loads=32768 global_stores=4096 local_loads=8192 local_stores=8192 load_requests=64 "
    "load_transactions=128 store_requests=128 store_transactions=256 local_requests=512 local_wavefronts=1024\n"
    "x clkit-counts launch=3 global_loads=1 global_stores=1 local_loads=1 local_stores=1 load_requests=1 "
    "load_transactions=1 store_requests=1 store_transactions=1 local_requests=1 local_wavefronts=1\n";

START_TEST(counts_are_read_from_the_last_launch)
{
    struct technique_counts c;
    ck_assert_int_eq(counts_parse(counts_file, &c), 0);
    ck_assert_double_eq(c.global_loads, 32768);
    ck_assert_double_eq(c.global_stores, 4096);
    ck_assert_double_eq(c.local_loads, 8192);
    ck_assert_double_eq(c.local_stores, 8192);
    ck_assert_double_eq(c.store_transactions, 256);
    ck_assert_double_eq(c.local_wavefronts, 1024);
    ck_assert_double_eq(c.constant_loads, -1); /* a plugin without the field: not measured */
    ck_assert_int_eq(counts_parse("clkit-counts launch=1 global_loads=4 global_stores=1 local_loads=0 local_stores=0 "
                                  "load_requests=1 load_transactions=1 store_requests=1 store_transactions=1 "
                                  "local_requests=0 local_wavefronts=0 constant_loads=75\n", &c), 0);
    ck_assert_double_eq(c.constant_loads, 75);
    ck_assert_double_eq(c.global_loads, 4);
    ck_assert_int_eq(counts_parse("Instructions executed for kernel 'x':\n 16 - store global\n", &c), -1);
}
END_TEST

/* Lab 10's plugin adds the atomics at the end of the line; a plugin that predates them leaves them 0, and a printf
   on the next line cannot supply them. */
START_TEST(atomics_are_read_from_the_same_line)
{
    static const char *with = "clkit-counts launch=1 global_loads=16384 global_stores=0 local_loads=2048 "
                              "local_stores=2048 load_requests=1 load_transactions=1 store_requests=0 "
                              "store_transactions=0 local_requests=1 local_wavefronts=1 global_atomics=2048 "
                              "local_atomics=16384\n";
    static const char *without = "clkit-counts launch=1 global_loads=16384 global_stores=0 local_loads=0 "
                                 "local_stores=0 load_requests=1 load_transactions=1 store_requests=0 "
                                 "store_transactions=0 local_requests=0 local_wavefronts=0\n"
                                 "printf global_atomics=1 local_atomics=1\n";
    struct technique_counts c;
    ck_assert_int_eq(counts_parse(with, &c), 0);
    ck_assert_double_eq(c.global_atomics, 2048);
    ck_assert_double_eq(c.local_atomics, 16384);
    ck_assert_int_eq(counts_parse(without, &c), 0);
    ck_assert_double_eq(c.global_atomics, 0);
    ck_assert_double_eq(c.local_atomics, 0);
}
END_TEST

/* Lab 11's plugin ends each line with the additions of local values and the kernel's name: the technique's kernel
   is found by name (its first launch, not a later kernel's nor a later launch of its own), and a line without the
   additions has not measured them. */
START_TEST(a_named_kernels_launch_is_found)
{
    static const char *const head = "global_loads=4096 global_stores=4104 local_loads=1 local_stores=1 load_requests=1 "
                                    "load_transactions=1 store_requests=1 store_transactions=1 local_requests=1 "
                                    "local_wavefronts=1 constant_loads=0 global_atomics=0 local_atomics=0";
    char text[2048];
    snprintf(text, sizeof text, "clkit-counts launch=1 %s local_adds=12282 item_adds=20 kernel=scan_blocks\n"
             "clkit-counts launch=2 %s local_adds=14 item_adds=2 kernel=scan_sums\n"
             "clkit-counts launch=3 %s local_adds=1 item_adds=1 kernel=scan_blocks\n"
             "clkit-counts launch=4 %s local_adds=0 item_adds=0 kernel=add_offsets_x\n", head, head, head, head);
    struct technique_counts c;
    const char *line = counts_line_of(text, "scan_blocks");
    ck_assert_int_eq(counts_parse(line, &c), 0);
    ck_assert_double_eq(c.local_adds, 12282);
    ck_assert_double_eq(c.item_adds, 20);
    snprintf(text, sizeof text, "clkit-counts launch=1 %s local_adds=5 item_adds=5 kernel=scan_blocks\n"
             "clkit-counts launch=2 %s local_adds=3 item_adds=1 kernel=add_offsets_x\n", head, head);
    ck_assert_str_eq(counts_line_of(text, "add_offsets"), "");
    ck_assert_int_eq(counts_parse(counts_line_of(text, NULL), &c), 0); /* no name: the last launch */
    ck_assert_double_eq(c.local_adds, 3);
    ck_assert_int_eq(counts_parse(counts_file, &c), 0);
    ck_assert_double_eq(c.local_adds, -1);
}
END_TEST

Suite *counts_suite(void)
{
    Suite *s = suite_create("counts");
    TCase *tc = tcase_create("parse");
    tcase_add_test(tc, counts_are_read_from_the_last_launch);
    tcase_add_test(tc, atomics_are_read_from_the_same_line);
    tcase_add_test(tc, a_named_kernels_launch_is_found);
    suite_add_tcase(s, tc);
    return s;
}
