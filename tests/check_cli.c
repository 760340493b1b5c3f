#include "suites.h"

#include "cli/cli.h"
#include "labs/registry.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int parse(struct cli *cli, int argc, char **argv)
{
    /* Usage errors print to stderr; keep the test log readable. */
    FILE *saved = stderr;
    int rc;
    stderr = fopen("/dev/null", "w");
    rc = cli_parse(argc, argv, cli);
    fclose(stderr);
    stderr = saved;
    return rc;
}

/* "all" is every lab of the registry, in its order. */
START_TEST(all_means_every_lab)
{
    char *argv[] = {"grade", "all", NULL};
    struct cli cli;
    ck_assert_int_eq(parse(&cli, 2, argv), 0);
    ck_assert_uint_eq((size_t)cli.lab_count, registry_count());
    for (size_t i = 0; i < registry_count(); i++)
        ck_assert_str_eq(cli.labs[i], registry_lab(i)->name);
}
END_TEST

START_TEST(version_is_the_kits)
{
    char *argv[] = {"grade", "--version", NULL};
    struct cli cli;
    FILE *saved = stdout;
    stdout = fopen("/dev/null", "w");
    int rc = cli_parse(2, argv, &cli);
    fclose(stdout);
    stdout = saved;
    ck_assert_int_eq(rc, 1); /* printed, nothing to grade */
    FILE *file = fopen("VERSION", "r");
    char version[64] = "";
    ck_assert_ptr_nonnull(file);
    ck_assert_ptr_nonnull(fgets(version, sizeof version, file));
    fclose(file);
    version[strcspn(version, "\n")] = '\0';
    ck_assert_str_eq(cli_version(), version);
}
END_TEST

START_TEST(options)
{
    char *argv[] = {"grade", "--solutions", "--quick", "-v", "--seed", "77", "--case", "3", "--timeout", "5",
                    "--device", "gpu", "--json", "r.json", "--junit", "r.xml", "lab4", NULL};
    struct cli cli;
    ck_assert_int_eq(parse(&cli, 17, argv), 0);
    ck_assert_int_eq(cli.solutions && cli.quick && cli.verbose && cli.seed_given, 1);
    ck_assert_uint_eq(cli.seed, 77);
    ck_assert_int_eq(cli.only_case, 3);
    ck_assert_int_eq(cli.timeout_s, 5);
    ck_assert_str_eq(cli.device, "gpu");
    ck_assert_str_eq(cli.outputs[result_writer_index("json")], "r.json");
    ck_assert_str_eq(cli.outputs[result_writer_index("junit")], "r.xml");
    ck_assert_str_eq(cli.labs[0], "lab4");
}
END_TEST

/* Each result writer of the table is an option of its own, in --help and on the command line (--csv among them). */
START_TEST(every_writer_is_an_option)
{
    for (int i = 0; result_writers[i]; i++) {
        char option[40], value[64], *help, *argv[] = {"grade", "lab1", option, value, NULL};
        struct cli cli;
        snprintf(option, sizeof option, "--%s", result_writers[i]->option);
        snprintf(value, sizeof value, "out.%s", result_writers[i]->option);
        ck_assert_int_eq(parse(&cli, 4, argv), 0);
        ck_assert_str_eq(cli.outputs[i], value);
        for (int j = 0; result_writers[j]; j++)
            ck_assert(j == i || cli.outputs[j] == NULL);
        ck_assert_int_eq(run_in_kit("./build/grader/grade --help", 10, &help), 0);
        snprintf(value, sizeof value, "\n  %s FILE ", option);
        ck_assert_msg(strstr(help, value) && strstr(help, result_writers[i]->help), "%s", help);
        free(help);
    }
}
END_TEST

START_TEST(defaults)
{
    char *argv[] = {"grade", "lab1", NULL};
    struct cli cli;
    ck_assert_int_eq(parse(&cli, 2, argv), 0);
    ck_assert_int_eq(cli.timeout_s, 30);
    ck_assert_int_eq(cli.only_case, -1);
    ck_assert_int_eq(cli.seed_given, 0);
    ck_assert_int_eq(cli.budget_s, 0); /* no budget unless asked: a busy machine makes grading slower, never lower */
}
END_TEST

/* With --budget, the labs not started when it runs out are not graded (0 of their points), and those before are. */
START_TEST(budget_stops_before_the_next_lab)
{
    char *output;
    ck_assert_int_eq(run_in_kit("NO_COLOR=1 ./grade --solutions --quick --budget 1 lab1 lab2 2>&1", 300, &output), 1);
    ck_assert_msg(strstr(output, "lab1 score: 10.0 / 10") && strstr(output, "lab2 score: 0.0 /"), "%s", output);
    free(output);
}
END_TEST

START_TEST(usage_errors)
{
    char *unknown_lab[] = {"grade", "lab99", NULL};
    char *no_lab[] = {"grade", "--quick", NULL};
    char *unknown_option[] = {"grade", "--fast", "lab1", NULL};
    char *missing_value[] = {"grade", "lab1", "--seed", NULL};
    char *bad_number[] = {"grade", "lab1", "--timeout", "0", NULL};
    char *both[] = {"grade", "--solutions", "--submission", "x", "lab1", NULL};
    /* --html to --slurm would write nothing (the tasks have not run): refused, not ignored. */
    char *html_slurm[] = {"grade", "--slurm", "j", "--submission", "x", "--html", "h", "lab1", NULL};
    struct cli cli;
    ck_assert_int_eq(parse(&cli, 2, unknown_lab), 2);
    ck_assert_int_eq(parse(&cli, 2, no_lab), 2);
    ck_assert_int_eq(parse(&cli, 3, unknown_option), 2);
    ck_assert_int_eq(parse(&cli, 3, missing_value), 2);
    ck_assert_int_eq(parse(&cli, 4, bad_number), 2);
    ck_assert_int_eq(parse(&cli, 5, both), 2);
    ck_assert_int_eq(parse(&cli, 8, html_slurm), 2);
    html_slurm[1] = "--merge";
    html_slurm[3] = "--quick";
    html_slurm[4] = "--quick";
    ck_assert_int_eq(parse(&cli, 8, html_slurm), 0);
}
END_TEST

/* GNU conventions: --opt=value, labs before or after the options, and "--" ending the options. */
START_TEST(equals_and_double_dash)
{
    char *argv[] = {"grade", "lab2", "--json=out.json", "--seed=5", "-v", "--", "lab3", NULL};
    struct cli cli;
    ck_assert_int_eq(parse(&cli, 7, argv), 0);
    ck_assert_str_eq(cli.outputs[result_writer_index("json")], "out.json");
    ck_assert_uint_eq(cli.seed, 5);
    ck_assert_int_eq(cli.verbose, 1);
    ck_assert_int_eq(cli.lab_count, 2);
    ck_assert_str_eq(cli.labs[0], "lab2");
    ck_assert_str_eq(cli.labs[1], "lab3");
    char *after_dash[] = {"grade", "--", "--quick", NULL};
    ck_assert_int_eq(parse(&cli, 3, after_dash), 2); /* after "--", --quick is a lab name, and no lab has it */
    char *empty_value[] = {"grade", "lab1", "--timeout=", NULL};
    ck_assert_int_eq(parse(&cli, 3, empty_value), 2);
}
END_TEST

Suite *cli_suite(void)
{
    Suite *s = suite_create("cli");
    TCase *tc = tcase_create("parse");
    tcase_add_test(tc, all_means_every_lab);
    tcase_add_test(tc, version_is_the_kits);
    tcase_add_test(tc, options);
    tcase_add_test(tc, defaults);
    tcase_add_test(tc, every_writer_is_an_option);
    tcase_add_test(tc, usage_errors);
    tcase_add_test(tc, equals_and_double_dash);
    suite_add_tcase(s, tc);
    tc = tcase_create("budget"); /* a grading: its own time limit */
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, budget_stops_before_the_next_lab);
    suite_add_tcase(s, tc);
    return s;
}
