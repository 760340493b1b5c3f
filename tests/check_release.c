#include "suites.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Builds the release once for the suite, and gives it the programs this kit's gradings built so far from the kit's
   own kernels (PoCL's cache, keyed by the text: the outcome is the same without them), not the solutions' nor those
   kept with a submitted text: its gradings skip builds, not checks. */
static void setup(void)
{
    char *output;
    int status = run_in_kit("rm -rf build/check-release && make -s student-release DEST=build/check-release && "
                            "mkdir -p build/check-release/build && { ! test -d build/kit-kernel-cache || "
                            "tar cf - --exclude=submitted-builds --exclude=solutions-pocl-cache build/kit-kernel-cache "
                            "| tar xf - -C build/check-release; }",
                            120, &output);
    ck_assert_msg(status == 0, "%s", output);
    free(output);
}

START_TEST(holds_the_stubs_and_the_grader)
{
    char *output;
    int status = run_in_kit("cd build/check-release && test -f labs/lab4/reduce.cl && test -f common/device.c && "
                            "test -f kernels/matmul_naive.cl && test -f grader/judge/lab_run.c && test -d grader/profiles && "
                            "test -f HANDOUT.md && test -f README.md && test -x grade && "
                            /* each lab's answers file, for the predictions ./grade sets beside its figures */
                            "for n in $(seq 12); do grep -q '^predict' labs/lab$n/answers.md || exit 1; done && "
                            "test -f .github/workflows/classroom.yml && test ! -e solutions && test ! -e tests && "
                            /* kernels that answer a lab: lab 8's baseline (lab 6's solution), better labs 7, 8, 9 and 10 */
                            "test ! -e kernels/matmul_tiled.cl && test ! -e kernels/transpose_wide.cl && "
                            "test ! -e kernels/matmul_warptile.cl && test ! -e kernels/histogram_replicated.cl && "
                            "test ! -e kernels/conv_separable.cl && "
                            /* the quick start builds and grades the student's lab 1: there are no solutions or
                               kit tests to run, and the instructors' quick start is left out */
                            "sed -n '1,14p' README.md | grep -q '^./setup ' && "
                            "sed -n '1,14p' README.md | grep -q '^make lab1 ' && "
                            "sed -n '1,14p' README.md | grep -q '^./grade lab1 ' && "
                            "! grep -q 'grade the reference solutions\\|^make check ' README.md && "
                            "! sed -n '1,14p' README.md | grep -q -- '--solutions' && "
                            "! grep -q 'instructors-->' README.md",
                            10, &output);
    ck_assert_msg(status == 0, "the release lacks a file it must have, or has one it must not:\n%s", output);
    free(output);
}
END_TEST

START_TEST(holds_no_solution_text)
{
    /* A kernel line of a solution that its stub lacks is an answer: it must appear nowhere in the release.
       A host line may also be scaffolding that common/, the grader or a later lab's stub share (releasing
       a kernel, declaring buffers); any other host line of a solution must not appear either. */
    char *output;
    int status = run_in_kit(
        "sed 's/^[[:space:]]*//' common/* grader/*.c grader/*/*.[ch] labs/*/* | sort -u > build/check-scaffolding.txt; "
        "for sol in solutions/lab*/*; do "
        "  stub=labs/${sol#solutions/}; allowed=build/check-allowed.txt; "
        "  sed 's/^[[:space:]]*//' \"$stub\" > $allowed; "
        "  case $sol in *.c) cat build/check-scaffolding.txt >> $allowed ;; esac; "
        "  sed 's/^[[:space:]]*//' \"$sol\" | awk 'length($0) >= 32' | grep -vxF -f $allowed | "
        "  while IFS= read -r line; do "
        "    if grep -rqF -- \"$line\" build/check-release; then echo \"copied from $sol: $line\"; fi; "
        "  done; "
        "done | grep . && exit 1; exit 0",
        120, &output);
    ck_assert_msg(status == 0, "%s", output);
    free(output);
}
END_TEST

START_TEST(holds_no_solution_kernel_body)
{
    /* Short answers (lab 1's kernel is three statements) slip through a line check: compare each
       solution kernel's body, white space removed, with every file of the release. */
    char *output;
    int status = run_in_kit(
        "/usr/bin/python3 -c '\n"
        "import glob, os, re, sys\n"
        "squash = lambda t: re.sub(r\"\\s+\", \"\", re.sub(r\"/\\*.*?\\*/\", \"\", t, flags=re.S))\n"
        "release = [squash(open(f, errors=\"replace\").read()) for f in glob.glob(\"build/check-release/**\", "
        "recursive=True) if os.path.isfile(f)]\n"
        "for sol in glob.glob(\"solutions/*/*.cl\"):\n"
        "    text = open(sol).read()\n"
        "    body = squash(text[text.index(\"{\", text.index(\"__kernel\")):])\n"
        "    if any(body in r for r in release): sys.exit(\"the body of \" + sol + \" is in the release\")\n"
        "'",
        60, &output);
    ck_assert_msg(status == 0, "%s", output);
    free(output);
}
END_TEST

/* The untouched stubs as a student gets them: nothing scored, nothing crashed or timed out, exit 1 (a fixed seed:
   a stub can be right by chance). */
START_TEST(grades_its_stubs_cleanly)
{
    char *output, expected[128];
    int status = run_in_kit("cd build/check-release && NO_COLOR=1 ./grade --quick --seed 1 all 2>&1", 300, &output);
    ck_assert_msg(status == 1, "status %d\n%s", status, output);
    kit_total(0.0, expected, sizeof expected);
    ck_assert_msg(strstr(output, expected) && !strstr(output, "crashed") && !strstr(output, "timed out"), "%s", output);
    free(output);
}
END_TEST

/* Questions that ask for an edit run in the release as the handout says, on the solutions (a student who reached
   them has done the lab): lab 1 without its bounds check keeps only its exact cases and host program; lab 5's
   swapped mapping, the handout's own code, computes C right and only the technique fails with the counts the answer
   gives; lab 11 without its padding keeps every point and shows the bank passes. */
START_TEST(its_editing_questions_show_their_figures)
{
    char *output;
    int status = run_in_kit(
        "set -e; q=build/check-questions; rm -rf $q && mkdir -p $q && "
        "cp -r solutions/lab1 solutions/lab5 solutions/lab11 $q/ && "
        "sed -i '/if (i < n)/d' $q/lab1/vadd.cl && ! grep -q 'i < n' $q/lab1/vadd.cl && "
        "awk '/^## Lab 5:/{l=1} l && /^   ```c$/{f=1; next} f && /^   ```$/{exit} f {sub(/^   /, \"\"); print}' "
        "HANDOUT.md > build/check-mapping.c && grep -q 'int row = id % M' build/check-mapping.c && "
        "sed -i -e '/int row = get_global_id(1);/d' -e '/int col = get_global_id(0);/{r build/check-mapping.c' -e 'd}' "
        "$q/lab5/matmul.cl && grep -q 'int row = id % M' $q/lab5/matmul.cl && "
        "sed -i 's/^#define PAD(i) .*/#define PAD(i) (i)/' $q/lab11/scan.cl && "
        "grep -q 'PAD(i) (i)$' $q/lab11/scan.cl && "
        "cd build/check-release && "
        "NO_COLOR=1 ./grade --quick --seed 1 --submission ../check-questions lab1 lab5 lab11 -v 2>&1 || true",
        300, &output);
    ck_assert_msg(status == 0, "an edit did not apply:\n%s", output);
    ck_assert_msg(strstr(output, "lab1 score: 6.0 / 10") && strstr(output, "Invalid write of size 4"),
                  "lab 1 without its bounds check:\n%s", output);
    ck_assert_msg(strstr(output, "lab5 score: 10.0 / 14") && strstr(output, "reads 4.5, writes 16.0"),
                  "lab 5's swapped mapping:\n%s", output);
    ck_assert_msg(strstr(output, "lab11 score: 14.0 / 14") && strstr(output, "local memory: 2.3 bank passes"),
                  "lab 11 unpadded:\n%s", output);
    free(output);
}
END_TEST

Suite *release_suite(void)
{
    Suite *s = suite_create("release");
    TCase *tc = tcase_create("student release");
    tcase_set_timeout(tc, 300);
    tcase_add_unchecked_fixture(tc, setup, NULL);
    tcase_add_test(tc, holds_the_stubs_and_the_grader);
    tcase_add_test(tc, holds_no_solution_text);
    tcase_add_test(tc, holds_no_solution_kernel_body);
    tcase_add_test(tc, grades_its_stubs_cleanly);
    tcase_add_test(tc, its_editing_questions_show_their_figures);
    suite_add_tcase(s, tc);
    return s;
}
