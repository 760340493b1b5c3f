#include "suites.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Sizes of 1, primes, non-multiples of the work-group or tile, and large. */
static const struct {
    const char *lab;
    const char *sizes[4];
} runs[] = {
    {"lab1", {"1", "7919", "1000003", "4194304"}},
    {"lab2", {"1", "7919", "1000003", "4194304"}},
    {"lab3", {"1", "7919", "1000003", "4194304"}},
    {"lab4", {"1", "7919", "1000003", "4194304"}},
    {"lab5", {"1", "17x13x7", "517x259x383", "512"}},
    {"lab6", {"1", "17x13x7", "517x259x383", "512"}},
    {"lab7", {"1", "17x13", "517x259", "1024x768"}},
    {"lab8", {"1", "17x13x7", "517x259x383", "512"}},
    {"lab9", {"1", "17x13x2", "517x259x3", "1024x768x4"}},
    {"lab10", {"1", "7919", "1000003", "4194304"}},
    {"lab11", {"1", "7919", "1000003", "4194304"}},
    {"lab12", {"1", "15", "1000003", "4194304"}},
};

START_TEST(solution_passes_every_size_and_seed)
{
    const char *seeds[] = {"1", "20261122"};
    for (int s = 0; s < 4; s++)
        for (int k = 0; k < 2; k++) {
            char command[256], *output;
            int status;
            snprintf(command, sizeof command, "build/solutions/%s/host --size %s --seed %s", runs[_i].lab,
                     runs[_i].sizes[s], seeds[k]);
            status = run_in_kit(command, 120, &output);
            /* A line of its own: PoCL may print its compiler's warnings first ("loop not unrolled" on some CPUs). */
            ck_assert_msg(status == 0 && (strncmp(output, "PASS", 4) == 0 || strstr(output, "\nPASS")),
                          "%s: status %d\n%s", command, status, output);
            free(output);
        }
}
END_TEST

START_TEST(stub_fails_cleanly)
{
    char command[256], *output;
    int status;
    snprintf(command, sizeof command, "build/labs/%s/host --size 100", runs[_i].lab);
    status = run_in_kit(command, 60, &output);
    ck_assert_msg(status == 1, "%s: expected status 1, got %d\n%s", command, status, output);
    ck_assert_ptr_null(strstr(output, "PASS"));
    ck_assert_msg(strstr(output, "not implemented yet") || strstr(output, "FAIL"), "%s says neither:\n%s", command,
                  output);
    free(output);
}
END_TEST

START_TEST(bad_arguments_exit_2)
{
    char command[256], *output;
    snprintf(command, sizeof command, "build/solutions/%s/host --size 0", runs[_i].lab);
    ck_assert_int_eq(run_in_kit(command, 60, &output), 2);
    ck_assert_ptr_nonnull(strstr(output, "invalid argument --size '0'"));
    free(output);
}
END_TEST

START_TEST(out_file_holds_the_result)
{
    char *output;
    FILE *f;
    long size;
    ck_assert_int_eq(run_in_kit("build/solutions/lab7/host --size 33x17 --out build/check-out.bin", 60, &output), 0);
    f = fopen("build/check-out.bin", "rb");
    ck_assert_ptr_nonnull(f);
    fseek(f, 0, SEEK_END);
    size = ftell(f);
    fclose(f);
    remove("build/check-out.bin");
    ck_assert_int_eq(size, 33 * 17 * 4);
    free(output);
}
END_TEST

Suite *solutions_suite(void)
{
    Suite *s = suite_create("solutions");
    TCase *tc = tcase_create("host programs");
    int labs = (int)(sizeof runs / sizeof runs[0]);
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, solution_passes_every_size_and_seed, 0, labs);
    tcase_add_loop_test(tc, stub_fails_cleanly, 0, labs);
    tcase_add_loop_test(tc, bad_arguments_exit_2, 0, labs);
    tcase_add_test(tc, out_file_holds_the_result);
    suite_add_tcase(s, tc);
    return s;
}
