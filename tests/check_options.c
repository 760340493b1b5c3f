#include "suites.h"

#include "options.h"

static const struct clk_program_info info = {"labX", "a test program", "MxNxK", 3, "kernel.cl"};

START_TEST(one_number_sets_every_dimension)
{
    size_t dims[3] = {0, 0, 0};
    ck_assert_int_eq(clk_parse_dims("512", dims, 3), 0);
    ck_assert_uint_eq(dims[0], 512);
    ck_assert_uint_eq(dims[2], 512);
}
END_TEST

START_TEST(shapes)
{
    size_t dims[3] = {0, 0, 0};
    ck_assert_int_eq(clk_parse_dims("517x259x383", dims, 3), 0);
    ck_assert_uint_eq(dims[0], 517);
    ck_assert_uint_eq(dims[1], 259);
    ck_assert_uint_eq(dims[2], 383);
    ck_assert_int_eq(clk_parse_dims("8X4", dims, 2), 0);
    ck_assert_uint_eq(dims[1], 4);
}
END_TEST

START_TEST(bad_shapes)
{
    size_t dims[3];
    const char *bad[] = {"0", "", "x3", "3x", "3x4", "3x4x5x6", "abc", "-5", "4y4", "1x0x1", "99999999999999"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        ck_assert_msg(clk_parse_dims(bad[i], dims, 3) != 0, "'%s' was accepted", bad[i]);
}
END_TEST

START_TEST(options_fill_in)
{
    char *argv[] = {"host", "--size", "4x5x6", "--seed", "99", "--kernel", "k.cl", "--out", "o.bin",
                    "--device", "cpu", NULL};
    struct clk_options opts = {.dims = {1, 1, 1}};
    ck_assert_int_eq(clk_parse_options(11, argv, &info, &opts), 0);
    ck_assert_uint_eq(opts.dims[1], 5);
    ck_assert_uint_eq(opts.seed, 99);
    ck_assert_str_eq(opts.kernel, "k.cl");
    ck_assert_str_eq(opts.out, "o.bin");
    ck_assert_str_eq(opts.device, "cpu");
}
END_TEST

START_TEST(defaults)
{
    char *argv[] = {"host", NULL};
    struct clk_options opts = {.dims = {7, 8, 9}};
    ck_assert_int_eq(clk_parse_options(1, argv, &info, &opts), 0);
    ck_assert_uint_eq(opts.dims[0], 7);
    ck_assert_uint_eq(opts.seed, 1);
    ck_assert_str_eq(opts.kernel, "kernel.cl");
    ck_assert_ptr_null(opts.out);
}
END_TEST

START_TEST(bad_arguments_are_usage_errors)
{
    char *unknown[] = {"host", "--sise", "4", NULL};
    char *missing[] = {"host", "--size", NULL};
    char *bad_seed[] = {"host", "--seed", "x1", NULL};
    char *bad_size[] = {"host", "--size", "0", NULL};
    char *help[] = {"host", "--help", NULL};
    struct clk_options opts = {.dims = {1, 1, 1}};
    ck_assert_int_eq(clk_parse_options(3, unknown, &info, &opts), 2);
    ck_assert_int_eq(clk_parse_options(2, missing, &info, &opts), 2);
    ck_assert_int_eq(clk_parse_options(3, bad_seed, &info, &opts), 2);
    ck_assert_int_eq(clk_parse_options(3, bad_size, &info, &opts), 2);
    ck_assert_int_eq(clk_parse_options(2, help, &info, &opts), 1);
}
END_TEST

Suite *options_suite(void)
{
    Suite *s = suite_create("options");
    TCase *tc = tcase_create("parse");
    tcase_add_test(tc, one_number_sets_every_dimension);
    tcase_add_test(tc, shapes);
    tcase_add_test(tc, bad_shapes);
    tcase_add_test(tc, options_fill_in);
    tcase_add_test(tc, defaults);
    tcase_add_test(tc, bad_arguments_are_usage_errors);
    suite_add_tcase(s, tc);
    return s;
}
