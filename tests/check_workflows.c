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

/* The shape GitHub Classroom generates, the kit and every action pinned by commit SHA, and the grader writing the
   reporter's input itself. */
/* The shape GitHub Classroom generates, the kit and every action pinned by commit SHA, and the grader writing the
   reporter's input itself; on the course's GPU runner too. */
static const char *const classroom_workflows[] = {".github/classroom/grade.yml", ".github/classroom/grade-gpu.yml"};

START_TEST(classroom_workflow_has_classrooms_shape)
{
    char *output;
    int status = check_yaml(classroom_workflows[_i],
                            "import re; job = d[\"jobs\"][\"run-autograding-tests\"]; "
                            "steps = \" \".join(str(s) for s in job[\"steps\"]); "
                            "assert d[\"on\"] == [\"push\", \"repository_dispatch\"] and d[\"name\"] == \"Autograding Tests\"; "
                            "assert \"github-classroom[bot]\" in job[\"if\"]; "
                            "assert \"--submission\" in steps and \"--classroom\" in steps; "
                            "assert re.fullmatch(\"[0-9a-f]{40}\", d[\"env\"][\"KIT_REF\"]); "
                            "uses = [s[\"uses\"] for s in job[\"steps\"] if \"uses\" in s]; "
                            "assert uses and all(re.fullmatch(\"[^@]+@[0-9a-f]{40}\", u) for u in uses), uses; "
                            "gpu = \"gpu\" in sys.argv[1]; "
                            "assert not gpu or (\"self-hosted\" in job[\"runs-on\"] and \"nvidia.icd\" in steps and "
                            "\"--device\" in steps)",
                            &output);
    ck_assert_msg(status == 0, "%s: %s", classroom_workflows[_i], output);
    free(output);
}
END_TEST

Suite *workflows_suite(void)
{
    Suite *s = suite_create("workflows");
    TCase *tc = tcase_create("yaml");
    tcase_add_test(tc, kit_ci_parses);
    tcase_add_loop_test(tc, classroom_workflow_has_classrooms_shape, 0, 2);
    suite_add_tcase(s, tc);
    return s;
}
