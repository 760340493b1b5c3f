#include "suites.h"

#include "files.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char path[64];

static void setup(void)
{
    int fd;
    strcpy(path, "/tmp/clkit-files-XXXXXX");
    fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
}

static void teardown(void)
{
    unlink(path);
}

START_TEST(floats_round_trip_bit_for_bit)
{
    float values[] = {0.0f, -0.0f, 1.5f, -3.25e-38f, INFINITY, NAN, 16777217.0f};
    size_t count = 0;
    float *back;
    ck_assert_int_eq(clk_write_floats(path, values, 7), 0);
    back = clk_read_floats(path, &count);
    ck_assert_ptr_nonnull(back);
    ck_assert_uint_eq(count, 7);
    ck_assert_int_eq(memcmp(values, back, sizeof values), 0);
    free(back);
}
END_TEST

START_TEST(file_is_little_endian)
{
    float one = 1.0f;
    unsigned char bytes[4];
    FILE *f;
    ck_assert_int_eq(clk_write_floats(path, &one, 1), 0);
    f = fopen(path, "rb");
    ck_assert_uint_eq(fread(bytes, 1, 4, f), 4);
    fclose(f);
    ck_assert_uint_eq(bytes[0], 0x00);
    ck_assert_uint_eq(bytes[3], 0x3f);
}
END_TEST

START_TEST(partial_float_is_rejected)
{
    size_t count = 0;
    FILE *f = fopen(path, "wb");
    fputs("abcdef", f);
    fclose(f);
    ck_assert_ptr_null(clk_read_floats(path, &count));
}
END_TEST

START_TEST(missing_file_is_reported)
{
    size_t count = 0;
    ck_assert_ptr_null(clk_read_floats("/nonexistent/clkit.bin", &count));
    ck_assert_ptr_null(clk_read_text("/nonexistent/clkit.cl", NULL));
    ck_assert_int_eq(clk_file_exists("/nonexistent/clkit.cl"), 0);
    ck_assert_int_eq(clk_file_exists(path), 1);
    ck_assert_int_eq(clk_file_exists("/tmp"), 0);
}
END_TEST

START_TEST(text_is_read_whole)
{
    size_t length = 0;
    char *text;
    FILE *f = fopen(path, "wb");
    fputs("line one\nline two\n", f);
    fclose(f);
    text = clk_read_text(path, &length);
    ck_assert_str_eq(text, "line one\nline two\n");
    ck_assert_uint_eq(length, 18);
    free(text);
}
END_TEST

Suite *files_suite(void)
{
    Suite *s = suite_create("files");
    TCase *tc = tcase_create("io");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, floats_round_trip_bit_for_bit);
    tcase_add_test(tc, file_is_little_endian);
    tcase_add_test(tc, partial_float_is_rejected);
    tcase_add_test(tc, missing_file_is_reported);
    tcase_add_test(tc, text_is_read_whole);
    suite_add_tcase(s, tc);
    return s;
}
