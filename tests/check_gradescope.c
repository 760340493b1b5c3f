/* Gradescope: the autograder zip that `make gradescope` writes, unpacked into an /autograder-shaped tree and set
   up as Gradescope does; every upload shape gets a results.json with the right score and maximum (the sum of its
   tests', Gradescope's format) and no scratch path in what the student sees, and exit 0; an assignment that names
   its labs totals only them; a kit that cannot run tells the student, hides the details for staff and exits 1. */
#include "suites.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TREE "build/gs"

static const struct {
    const char *shape;
    const char *prepare; /* shell commands that fill build/gs/submission (run in the kit) */
    const char *score;   /* the score the results file gives; its maximum is the kit's (NULL: not graded) */
    const char *labs;    /* CLKIT_LABS, the labs the assignment names ("": all) */
    const char *max;     /* the maximum when not the kit's */
} uploads[] = {
    {"nested", "mkdir -p " TREE "/submission/clkit/labs/lab1 " TREE "/submission/clkit/labs/lab4 && "
               "cp solutions/lab1/* " TREE "/submission/clkit/labs/lab1/ && "
               "cp solutions/lab4/* " TREE "/submission/clkit/labs/lab4/", "24", NULL, NULL},
    {"flat", "cp solutions/lab1/* " TREE "/submission/", "10", NULL, NULL},
    /* vadd.cl is the kernel file of labs 1 and 12 alike: both grade it (3 kernel points each of lab 12). */
    {"flat, two labs: the host program is nobody's", "cp solutions/lab1/vadd.cl solutions/lab3/dot.cl "
     "solutions/lab3/host.c " TREE "/submission/", "18", NULL, NULL},
    {"partial", "mkdir -p " TREE "/submission/lab3 && cp solutions/lab3/* " TREE "/submission/lab3/", "10", NULL, NULL},
    {"a one-lab assignment", "mkdir -p " TREE "/submission/lab3 && cp solutions/lab3/* " TREE "/submission/lab3/",
     "10", "lab3", "10"},
    {"a one-lab assignment, its kernel missing", "mkdir -p " TREE "/submission/lab7 && cp solutions/lab7/host.c "
     TREE "/submission/lab7/", "0", "lab7", "14"},
    {"broken", "mkdir -p " TREE "/submission/lab1 " TREE "/submission/lab2 && "
               "cp tests/fixtures/lab1/compile-error/lab1/vadd.cl solutions/lab1/host.c " TREE "/submission/lab1/ && "
               "printf 'int main(void) { return }' > " TREE "/submission/lab2/host.c && "
               "cp solutions/lab2/vadd_stride.cl " TREE "/submission/lab2/", "10", NULL, NULL},
    {"stale copy beside", "mkdir -p " TREE "/submission/lab1 " TREE "/submission/v1/lab1 && "
                          "cp solutions/lab1/* " TREE "/submission/lab1/ && "
                          "cp tests/fixtures/lab1/local-id/lab1/vadd.cl " TREE "/submission/v1/lab1/", "10", NULL, NULL},
    {"a folder whose name writes a line of its own", "mkdir -p " TREE "/submission/lab1 \"" TREE "/submission/$(printf "
     "'x\\n0\\t..')/source/labs/lab1\" && cp solutions/lab1/* " TREE "/submission/lab1/ && cp solutions/lab1/vadd.cl "
     "\"" TREE "/submission/$(printf 'x\\n0\\t..')/source/labs/lab1/\"", "10", NULL, NULL},
    {"empty", "true", "0", NULL, NULL},
    {"broken kit", "mv " TREE "/source " TREE "/moved", NULL, "", "0"},
};

/* Writes the zip, unpacks it (keeping its file modes, as unzip does) and runs its setup.sh, once. */
static void unpack_and_set_up(void)
{
    char *output;
    int status = run_in_kit(
        "rm -rf " TREE " && make -s gradescope GRADESCOPE_ZIP=" TREE "/autograder.zip >/dev/null && "
        "python3 -c 'import os, sys, zipfile\n"
        "for i in zipfile.ZipFile(sys.argv[1]).infolist():\n"
        "    p = zipfile.ZipFile(sys.argv[1]).extract(i, sys.argv[2])\n"
        "    os.chmod(p, (i.external_attr >> 16) & 0o7777 or 0o644)' " TREE "/autograder.zip " TREE "/source && "
        "test -x " TREE "/source/setup.sh && test -x " TREE "/source/run_autograder && "
        "test ! -e " TREE "/source/solutions && test ! -e " TREE "/source/tests && "
        /* the autograder, which students never see, keeps the baselines a student release leaves out */
        "test -f " TREE "/source/kernels/matmul_tiled.cl && "
        TREE "/source/setup.sh >" TREE "/setup.log 2>&1 || { cat " TREE "/setup.log; exit 1; }",
        600, &output);
    ck_assert_msg(status == 0, "the zip does not unpack and set up: status %d\n%s", status, output);
    free(output);
}

START_TEST(every_upload_gets_results)
{
    char command[4096], expected[64], *output;
    int status, broken = uploads[_i].score == NULL;
    if (_i == 0)
        unpack_and_set_up();
    /* Prints the score, the maximum (the tests' sum), whether a field the student sees names a scratch path
       (/tmp/), whether a hidden test is there for staff, and the exit status. */
    snprintf(command, sizeof command,
             "rm -rf " TREE "/submission " TREE "/results && mkdir -p " TREE "/submission && %s && "
             "CLKIT_LABS='%s' AUTOGRADER=\"$PWD/" TREE "\" GRADE_OPTIONS=--quick \"$PWD/" TREE "/%s/run_autograder\" "
             ">/dev/null 2>&1; rc=$?; test -d " TREE "/moved && mv " TREE "/moved " TREE "/source; "
             "python3 -c 'import json, sys; d = json.load(open(\"" TREE "/results/results.json\"))\n"
             "seen = [d.get(\"output\", \"\")] + [t[\"name\"] + t.get(\"output\", \"\") for t in d[\"tests\"] "
             "if t.get(\"visibility\", \"visible\") == \"visible\"]\n"
             "print(\"%%g %%g %%s %%s %%s\" %% (d[\"score\"], sum(t[\"max_score\"] for t in d[\"tests\"]), "
             "any(\"/tmp/\" in x for x in seen), any(t.get(\"visibility\") == \"hidden\" and t[\"status\"] == \"failed\" "
             "for t in d[\"tests\"]), sys.argv[1]))' $rc",
             uploads[_i].prepare, uploads[_i].labs ? uploads[_i].labs : "", broken ? "moved" : "source");
    status = run_in_kit(command, 300, &output);
    ck_assert_msg(status == 0, "%s: no results file: status %d\n%s", uploads[_i].shape, status, output);
    if (broken)
        snprintf(expected, sizeof expected, "0 0 False True 1");
    else if (uploads[_i].max)
        snprintf(expected, sizeof expected, "%s %s False False 0", uploads[_i].score, uploads[_i].max);
    else
        snprintf(expected, sizeof expected, "%s %g False False 0", uploads[_i].score, kit_points());
    ck_assert_msg(strncmp(output, expected, strlen(expected)) == 0, "%s: expected %s, got %s", uploads[_i].shape,
                  expected, output);
    free(output);
}
END_TEST

Suite *gradescope_suite(void)
{
    Suite *s = suite_create("gradescope");
    TCase *tc = tcase_create("uploads");
    tcase_set_timeout(tc, 900);
    /* In order: the first unpacks and sets up the zip for the others. */
    tcase_add_loop_test(tc, every_upload_gets_results, 0, (int)(sizeof uploads / sizeof uploads[0]));
    suite_add_tcase(s, tc);
    return s;
}
