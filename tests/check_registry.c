/* grader/judge/registry.c: the labs are the spec files under grader/judge/labs/, and nothing else lists them. */
#include "suites.h"

#include <stdlib.h>
#include <string.h>

/* A copy of the kit with a lab 8 that is lab 1 under another name: its spec file, its stub and its solution, and
   nothing else. Built from clean with the user's own CFLAGS and several jobs, as an instructor would; the command
   line, the grader's help and the device profiles know lab 8 at once, and a profile key of a lab that does not
   exist is still refused. */
START_TEST(a_new_lab_needs_only_its_own_files)
{
    char *output;
    int status = run_in_kit(
        "set -e; rm -rf build/check-newlab && mkdir -p build/check-newlab && "
        "git ls-files -co --exclude-standard | grep -v '^build/' | tar cf - -T - | tar xf - -C build/check-newlab && "
        "cd build/check-newlab && "
        "sed 's/lab1/lab8/g; s/Lab 1:/Lab 8:/' grader/judge/labs/lab1.c > grader/judge/labs/lab8.c && "
        "cp -r labs/lab1 labs/lab8 && cp -r solutions/lab1 solutions/lab8 && "
        "make -s -j8 CFLAGS=-O0 >make.log 2>&1 || { tail -20 make.log; exit 1; }; "
        "./grade --version && ./grade --help | head -1 && "
        "./grade --solutions --quick --seed 1 --json=lab8.json lab8 2>&1 | grep 'score' && "
        "python3 -c 'import json; print(\"json score %g\" % json.load(open(\"lab8.json\"))[\"score\"])' && "
        "for f in cpu gpu; do printf 'lab8.min_speedup = 1.5\\n' >> grader/profiles/$f.conf; done; "
        "stub=0 && ./grade --seed 1 lab8 >stub.log 2>&1 || stub=$?; echo \"stub exit $stub\"; "
        "grep -q 'unknown key' stub.log || echo 'lab8 key known'; "
        "for f in cpu gpu; do printf 'lab9.min_speedup = 1.5\\n' >> grader/profiles/$f.conf; done; "
        "./grade --seed 1 lab8 2>&1 | grep -q \"unknown key or bad value for 'lab9\" && echo 'lab9 key refused'",
        600, &output);
    ck_assert_msg(status == 0, "status %d\n%s", status, output);
    ck_assert_msg(strstr(output, "clkit grader ") && strstr(output, "LAB is lab1 ... lab8") &&
                      strstr(output, "lab8 score: 10.0 / 10") && strstr(output, "json score 10") &&
                      strstr(output, "stub exit 1") &&
                      strstr(output, "lab8 key known") && strstr(output, "lab9 key refused"),
                  "%s", output);
    free(output);
}
END_TEST

Suite *registry_suite(void)
{
    Suite *s = suite_create("registry");
    TCase *tc = tcase_create("labs");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, a_new_lab_needs_only_its_own_files);
    suite_add_tcase(s, tc);
    return s;
}
