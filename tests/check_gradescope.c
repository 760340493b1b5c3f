/* Gradescope: the autograder zip that `make gradescope` writes, unpacked into an /autograder-shaped tree and set
   up as Gradescope does; every upload shape gets a results.json with the right score, and exit 0. */
#include "suites.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TREE "build/gs"

static const struct {
    const char *shape;
    const char *prepare; /* shell commands that fill build/gs/submission (run in the kit) */
    const char *score;   /* the score the results file gives; its max_score is the kit's (None: not graded) */
} uploads[] = {
    {"nested", "mkdir -p " TREE "/submission/clkit/labs/lab1 " TREE "/submission/clkit/labs/lab4 && "
               "cp solutions/lab1/* " TREE "/submission/clkit/labs/lab1/ && "
               "cp solutions/lab4/* " TREE "/submission/clkit/labs/lab4/", "24"},
    {"flat", "cp solutions/lab1/* " TREE "/submission/", "10"},
    {"flat, two labs: the host program is nobody's", "cp solutions/lab1/vadd.cl solutions/lab3/dot.cl "
     "solutions/lab3/host.c " TREE "/submission/", "15"},
    {"partial", "mkdir -p " TREE "/submission/lab3 && cp solutions/lab3/* " TREE "/submission/lab3/", "10"},
    {"broken", "mkdir -p " TREE "/submission/lab1 " TREE "/submission/lab2 && "
               "cp tests/fixtures/lab1/compile-error/lab1/vadd.cl solutions/lab1/host.c " TREE "/submission/lab1/ && "
               "printf 'int main(void) { return }' > " TREE "/submission/lab2/host.c && "
               "cp solutions/lab2/vadd_stride.cl " TREE "/submission/lab2/", "10"},
    {"stale copy beside", "mkdir -p " TREE "/submission/lab1 " TREE "/submission/v1/lab1 && "
                          "cp solutions/lab1/* " TREE "/submission/lab1/ && "
                          "cp tests/fixtures/lab1/local-id/lab1/vadd.cl " TREE "/submission/v1/lab1/", "10"},
    {"a folder whose name writes a line of its own", "mkdir -p " TREE "/submission/lab1 \"" TREE "/submission/$(printf "
     "'x\\n0\\t..')/source/labs/lab1\" && cp solutions/lab1/* " TREE "/submission/lab1/ && cp solutions/lab1/vadd.cl "
     "\"" TREE "/submission/$(printf 'x\\n0\\t..')/source/labs/lab1/\"", "10"},
    {"empty", "true", "0"},
    {"broken kit", "mv " TREE "/source " TREE "/moved", NULL},
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
    int status;
    if (_i == 0)
        unpack_and_set_up();
    snprintf(command, sizeof command,
             "rm -rf " TREE "/submission " TREE "/results && mkdir -p " TREE "/submission && %s && "
             "AUTOGRADER=\"$PWD/" TREE "\" GRADE_OPTIONS=--quick \"$PWD/" TREE "/%s/run_autograder\" >/dev/null 2>&1; "
             "rc=$?; test -d " TREE "/moved && mv " TREE "/moved " TREE "/source; test $rc -eq 0 && "
             "python3 -c 'import json; d = json.load(open(\"" TREE "/results/results.json\")); "
             "print(\"%%g %%s\" %% (d[\"score\"], d.get(\"max_score\")))'",
             uploads[_i].prepare, strstr(uploads[_i].shape, "broken kit") ? "moved" : "source");
    status = run_in_kit(command, 300, &output);
    ck_assert_msg(status == 0, "%s: status %d\n%s", uploads[_i].shape, status, output);
    if (uploads[_i].score)
        snprintf(expected, sizeof expected, "%s %g", uploads[_i].score, kit_points());
    else
        snprintf(expected, sizeof expected, "0 None");
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
