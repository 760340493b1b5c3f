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

/* The kit's CI keeps no package list of its own: it runs .ci/run (./setup's list, the Makefile's PACKAGES with
   bubblewrap, and Slurm with munge for the real cluster test) as root on Debian, as .ci/run is written for. */
START_TEST(kit_ci_parses)
{
    char *output;
    int status = check_yaml(".github/workflows/ci.yml",
                            "import re; job = d[\"jobs\"][\"kit\"]; steps = \" \".join(str(s) for s in job[\"steps\"]); "
                            "assert \"make check\" in steps and \"--solutions all\" in steps and \"STEP_SUMMARY\" in steps; "
                            "assert \".ci/run\" in steps and job[\"container\"][\"image\"].startswith(\"debian:\"); "
                            "kit = re.search(\"PACKAGES *:= *(.*)\", open(\"Makefile\").read()).group(1).split(); "
                            "assert \"bubblewrap\" in kit; "
                            "installs = [l.split() for s in job[\"steps\"] for l in s.get(\"run\", \"\").splitlines() "
                            "if \"apt-get install\" in l]; "
                            "assert not [p for p in kit for l in installs if p in l], installs; "
                            "ci = open(\".ci/run\").read().replace(\"\\\\\\n\", \" \"); "
                            "assert re.search(\"apt-get install .*slurm-wlm munge\", ci) and \"./setup\" in ci",
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

/* A student who deleted one lab's kernel still gets a grade: the Classroom workflow's copy and grade steps, run as
   GitHub runs them (bash -e -o pipefail), against the kit and a student repository with lab1 whole and lab3's
   kernel gone, post a result where lab1 scores its points and lab3 scores 0 naming the missing file as the student's
   repository has it. */
START_TEST(classroom_missing_kernel_still_grades)
{
    char command[4096], *output;
    int status;
    snprintf(command, sizeof command,
             "rm -rf build/wf && mkdir -p build/wf/student/labs/lab1 build/wf/student/labs/lab3 && "
             "ln -s \"$PWD\" build/wf/kit && cp solutions/lab1/* build/wf/student/labs/lab1/ && "
             "cp solutions/lab3/host.c build/wf/student/labs/lab3/ && "
             "/usr/bin/python3 -c 'import sys, yaml\n"
             "steps = yaml.safe_load(open(sys.argv[1]))[\"jobs\"][\"run-autograding-tests\"][\"steps\"]\n"
             "for name, out in ((\"Copy in only the student\", \"build/wf/copy.sh\"), (\"Grade\", \"build/wf/grade.sh\")):\n"
             "    open(out, \"w\").write(next(s[\"run\"] for s in steps if s[\"name\"].startswith(name)))' %s && "
             "cd build/wf && bash --noprofile --norc -eo pipefail copy.sh && test ! -e submission/labs/lab3/dot.cl && "
             "LABS='lab1 lab3' GITHUB_OUTPUT=\"$PWD/out\" CLKIT_DEVICE_ARG=cpu timeout 600 bash --noprofile --norc -eo pipefail "
             "grade.sh >grade.log 2>&1 || { cat grade.log; exit 1; }; "
             "/usr/bin/python3 -c 'import base64, json\n"
             "d = json.loads(base64.b64decode(open(\"out\").read().split(\"=\", 1)[1]))\n"
             "lab = lambda n: [t for t in d[\"tests\"] if t[\"name\"].startswith(n)]\n"
             "print(sum(t[\"score\"] for t in lab(\"lab1\")), sum(t[\"max_score\"] for t in lab(\"lab1\")),\n"
             "      sum(t[\"score\"] for t in lab(\"lab3\")), any(\"labs/lab3/dot.cl is missing\" in t.get(\"message\", \"\")\n"
             "      for t in lab(\"lab3\")))'",
             classroom_workflows[0]);
    status = run_in_kit(command, 900, &output);
    ck_assert_msg(status == 0, "the missing-kernel run posts no grade: status %d\n%s", status, output);
    ck_assert_msg(strncmp(output, "10 10 0 True", 12) == 0, "lab1 graded, lab3 0 for its missing kernel: %s", output);
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
    tc = tcase_create("runs");
    tcase_set_timeout(tc, 900);
    tcase_add_test(tc, classroom_missing_kernel_still_grades);
    suite_add_tcase(s, tc);
    return s;
}
