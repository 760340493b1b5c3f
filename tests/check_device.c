#include "suites.h"

#include "device.h"

#include <string.h>

static struct clk_device_info infos[3];

static void add(int i, const char *platform, const char *device, int gpu)
{
    memset(&infos[i], 0, sizeof infos[i]);
    strcpy(infos[i].platform_name, platform);
    strcpy(infos[i].device_name, device);
    infos[i].is_gpu = gpu;
    infos[i].is_cpu = !gpu;
}

static void setup(void)
{
    add(0, "Portable Computing Language", "pthread-skylake", 0);
    add(1, "NVIDIA CUDA", "NVIDIA H200", 1);
    add(2, "Intel(R) OpenCL", "Intel Xeon", 0);
}

START_TEST(default_prefers_the_first_gpu)
{
    ck_assert_int_eq(clk_match_device(infos, 3, NULL), 1);
    ck_assert_int_eq(clk_match_device(infos, 3, ""), 1);
}
END_TEST

START_TEST(default_falls_back_to_the_first_cpu)
{
    ck_assert_int_eq(clk_match_device(infos, 1, NULL), 0);
    infos[1].is_gpu = 0;
    infos[1].is_cpu = 0;
    ck_assert_int_eq(clk_match_device(infos, 3, NULL), 0);
}
END_TEST

START_TEST(type_names)
{
    ck_assert_int_eq(clk_match_device(infos, 3, "gpu"), 1);
    ck_assert_int_eq(clk_match_device(infos, 3, "CPU"), 0);
    ck_assert_int_eq(clk_match_device(infos, 1, "gpu"), -1);
}
END_TEST

START_TEST(indices)
{
    ck_assert_int_eq(clk_match_device(infos, 3, "2"), 2);
    ck_assert_int_eq(clk_match_device(infos, 3, "0"), 0);
    ck_assert_int_eq(clk_match_device(infos, 3, "3"), -1);
}
END_TEST

START_TEST(substrings_ignore_case)
{
    ck_assert_int_eq(clk_match_device(infos, 3, "h200"), 1);
    ck_assert_int_eq(clk_match_device(infos, 3, "intel"), 2);
    ck_assert_int_eq(clk_match_device(infos, 3, "portable"), 0);
    ck_assert_int_eq(clk_match_device(infos, 3, "radeon"), -1);
}
END_TEST

START_TEST(enumerates_the_installed_device)
{
    struct clk_device_info found[CLK_MAX_DEVICES];
    int count = clk_enumerate_devices(found, CLK_MAX_DEVICES);
    ck_assert_int_gt(count, 0); /* the kit's tests run on PoCL at least */
    ck_assert_int_gt((int)strlen(found[0].device_name), 0);
}
END_TEST

Suite *device_suite(void)
{
    Suite *s = suite_create("device");
    TCase *tc = tcase_create("spec");
    tcase_add_checked_fixture(tc, setup, NULL);
    tcase_add_test(tc, default_prefers_the_first_gpu);
    tcase_add_test(tc, default_falls_back_to_the_first_cpu);
    tcase_add_test(tc, type_names);
    tcase_add_test(tc, indices);
    tcase_add_test(tc, substrings_ignore_case);
    tcase_add_test(tc, enumerates_the_installed_device);
    suite_add_tcase(s, tc);
    return s;
}
