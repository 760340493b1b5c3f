/* grader/labs/registry.c: the labs are the spec files under grader/labs/, and nothing else lists them. */
#include "suites.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A copy of the kit with a new lab (the next number) that is lab 1 under another name: its spec file, its stub and
   its solution, and nothing else. Built from clean with the user's own CFLAGS and several jobs, as an instructor
   would; the command line, the grader's help and the device profiles know it at once, and a profile key of a lab
   that does not exist is still refused. */
START_TEST(a_new_lab_needs_only_its_own_files)
{
    char command[4096], expected[6][64], *output;
    size_t next = 1; /* past the highest lab number (the numbers may have a gap while a lab is written) */
    for (size_t i = 0; i < registry_count(); i++)
        if (strtoul(registry_lab(i)->name + 3, NULL, 10) >= next)
            next = strtoul(registry_lab(i)->name + 3, NULL, 10) + 1;
    snprintf(command, sizeof command,
        "set -e; rm -rf build/check-newlab && mkdir -p build/check-newlab && "
        "git ls-files -co --exclude-standard | grep -v '^build/' | tar cf - -T - | tar xf - -C build/check-newlab && "
        "cd build/check-newlab && "
        "sed 's/lab1/lab%1$zu/g; s/Lab 1:/Lab %1$zu:/' grader/labs/lab1.c > grader/labs/lab%1$zu.c && "
        "cp -r labs/lab1 labs/lab%1$zu && cp -r solutions/lab1 solutions/lab%1$zu && "
        "make -s -j8 CFLAGS=-O0 >make.log 2>&1 || { tail -20 make.log; exit 1; }; "
        "./grade --version && ./grade --help | head -1 && "
        "./grade --solutions --quick --seed 1 --json=new.json lab%1$zu 2>&1 | grep 'score' && "
        "python3 -c 'import json; print(\"json score %%g\" %% json.load(open(\"new.json\"))[\"score\"])' && "
        "for f in cpu gpu; do printf 'lab%1$zu.min_speedup = 1.5\\n' >> grader/profiles/$f.conf; done; "
        "stub=0 && ./grade --seed 1 lab%1$zu >stub.log 2>&1 || stub=$?; echo \"stub exit $stub\"; "
        "grep -q 'unknown key' stub.log || echo 'new key known'; "
        "for f in cpu gpu; do printf 'lab%2$zu.min_speedup = 1.5\\n' >> grader/profiles/$f.conf; done; "
        "./grade --seed 1 lab%1$zu 2>&1 | grep -q \"unknown key or bad value for 'lab%2$zu\" && echo 'missing lab key refused'",
        next, next + 1);
    snprintf(expected[0], sizeof expected[0], "LAB is lab1 ... lab%zu", next);
    snprintf(expected[1], sizeof expected[1], "lab%zu score: 10.0 / 10", next);
    snprintf(expected[2], sizeof expected[2], "json score 10");
    snprintf(expected[3], sizeof expected[3], "stub exit 1");
    snprintf(expected[4], sizeof expected[4], "new key known");
    snprintf(expected[5], sizeof expected[5], "missing lab key refused");
    int status = run_in_kit(command, 600, &output);
    ck_assert_msg(status == 0, "status %d\n%s", status, output);
    ck_assert_msg(strstr(output, "clkit grader "), "%s", output);
    for (int i = 0; i < 6; i++)
        ck_assert_msg(strstr(output, expected[i]), "expected %s\n%s", expected[i], output);
    free(output);
}
END_TEST

/* Gradings side by side in one kit each run make (./grade does): the registry's list is written under a name of
   each make's own, so that none fails on another's half-written file. */
START_TEST(makes_side_by_side_write_the_list_whole)
{
    char *output;
    int status = run_in_kit("for i in 1 2 3 4 5 6 7 8 9 10 11 12; do (make -s build/gen/registry_list.h || echo FAILED) & "
                            "done; wait; ls build/gen; grep -c REGISTRY_LAB build/gen/registry_list.h", 120, &output);
    ck_assert_msg(status == 0 && !strstr(output, "FAILED") && !strstr(output, ".new"), "status %d\n%s", status, output);
    free(output);
}
END_TEST

Suite *registry_suite(void)
{
    Suite *s = suite_create("registry");
    TCase *tc = tcase_create("labs");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, a_new_lab_needs_only_its_own_files);
    tcase_add_test(tc, makes_side_by_side_write_the_list_whole);
    suite_add_tcase(s, tc);
    return s;
}
