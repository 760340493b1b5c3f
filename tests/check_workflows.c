#include "suites.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* GitHub Actions cannot run here, so at least every workflow must parse and have the steps it promises. */
static int check_yaml(const char *path, const char *python_check, char **output)
{
    char command[1024];
    snprintf(command, sizeof command,
             "/usr/bin/python3 -c 'import sys, yaml; d = yaml.safe_load(open(sys.argv[1])); %s' %s 2>&1",
             python_check, path);
    return run_in_kit(command, 30, output);
}

START_TEST(kit_ci_parses)
{
    char *output;
    int status = check_yaml(".github/workflows/ci.yml",
                            "steps = \" \".join(str(s) for s in d[\"jobs\"][\"kit\"][\"steps\"]); "
                            "assert \"make check\" in steps and \"--solutions all\" in steps and \"STEP_SUMMARY\" in steps",
                            &output);
    ck_assert_msg(status == 0, "%s", output);
    free(output);
}
END_TEST

START_TEST(classroom_workflow_parses)
{
    char *output;
    int status = check_yaml(".github/classroom/grade.yml",
                            "steps = \" \".join(str(s) for s in d[\"jobs\"][\"grade\"][\"steps\"]); "
                            "assert \"--submission\" in steps and \"--json\" in steps and \"KIT_REF\" in str(d)",
                            &output);
    ck_assert_msg(status == 0, "%s", output);
    free(output);
}
END_TEST

Suite *workflows_suite(void)
{
    Suite *s = suite_create("workflows");
    TCase *tc = tcase_create("yaml");
    tcase_add_test(tc, kit_ci_parses);
    tcase_add_test(tc, classroom_workflow_parses);
    suite_add_tcase(s, tc);
    return s;
}
