#include "suites.h"

#include "clerr.h"

#include <string.h>

START_TEST(names_common_codes)
{
    ck_assert_str_eq(clk_error_name(CL_SUCCESS), "CL_SUCCESS");
    ck_assert_str_eq(clk_error_name(CL_INVALID_VALUE), "CL_INVALID_VALUE");
    ck_assert_str_eq(clk_error_name(CL_BUILD_PROGRAM_FAILURE), "CL_BUILD_PROGRAM_FAILURE");
    ck_assert_str_eq(clk_error_name(CL_INVALID_WORK_GROUP_SIZE), "CL_INVALID_WORK_GROUP_SIZE");
    ck_assert_str_eq(clk_error_name(CL_OUT_OF_RESOURCES), "CL_OUT_OF_RESOURCES");
}
END_TEST

START_TEST(every_code_has_its_own_name)
{
    /* The OpenCL 1.2 codes run from 0 to -68: each named code must carry its own name. */
    for (cl_int a = -68; a <= 0; a++)
        for (cl_int b = a + 1; b <= 0; b++)
            if (strcmp(clk_error_name(a), "CL_UNKNOWN_ERROR") != 0)
                ck_assert_str_ne(clk_error_name(a), clk_error_name(b));
}
END_TEST

START_TEST(unknown_code)
{
    ck_assert_str_eq(clk_error_name(-12345), "CL_UNKNOWN_ERROR");
    ck_assert_str_eq(clk_error_name(-1001), "CL_PLATFORM_NOT_FOUND_KHR");
}
END_TEST

static int uses_check(cl_int status, int *reached_end)
{
    int rc = -1;
    CL_CHECK(status);
    *reached_end = 1;
    rc = 0;
cleanup:
    return rc;
}

START_TEST(check_macro_jumps_to_cleanup)
{
    int reached = 0;
    ck_assert_int_eq(uses_check(CL_SUCCESS, &reached), 0);
    ck_assert_int_eq(reached, 1);
    reached = 0;
    ck_assert_int_eq(uses_check(CL_INVALID_KERNEL, &reached), -1);
    ck_assert_int_eq(reached, 0);
}
END_TEST

Suite *clerr_suite(void)
{
    Suite *s = suite_create("clerr");
    TCase *tc = tcase_create("names");
    tcase_add_test(tc, names_common_codes);
    tcase_add_test(tc, every_code_has_its_own_name);
    tcase_add_test(tc, unknown_code);
    tcase_add_test(tc, check_macro_jumps_to_cleanup);
    suite_add_tcase(s, tc);
    return s;
}
