#include "suites.h"

#include "judge/reference_judge.h"
#include "sandbox/scratch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A log as Oclgrind 21.10 writes it, trimmed: one race found twice, one uninitialised value. */
static const char *log_text =
    "Read-write data race at local memory address 0x1000000000004\n"
    "\tKernel: dot_local\n"
    "\t\n"
    "\tFirst entity:  Global(1,0,0) Local(1,0,0) Group(0,0,0)\n"
    "\t  store float %sum.0, float addrspace(3)* %arrayidx10, align 4\n"
    "\tAt line 9 (column 18) of labs/lab4/reduce.cl:\n"
    "\t  scratch[lid] = sum;\n"
    "\n"
    "Read-write data race at local memory address 0x1000000000008\n"
    "\tKernel: dot_local\n"
    "\t\n"
    "\tFirst entity:  Global(2,0,0) Local(2,0,0) Group(0,0,0)\n"
    "\tAt line 9 (column 18) of labs/lab4/reduce.cl:\n"
    "\n"
    "Uninitialized value written to global memory address 0x3000000001000\n"
    "\tKernel: dot_local\n"
    "\tEntity: Global(0,0,0) Local(0,0,0) Group(0,0,0)\n"
    "\tAt line 15 (column 34) of labs/lab4/reduce.cl:\n"
    "\n";

START_TEST(parses_and_groups_findings)
{
    char text[4096];
    ck_assert_int_eq(sanitize_parse(log_text, text, sizeof text), 2);
    ck_assert_ptr_nonnull(strstr(text, "Read-write data race on local memory in dot_local at labs/lab4/reduce.cl:9 "
                                       "(first by Global(1,0,0) Local(1,0,0) Group(0,0,0), 2 times)"));
    ck_assert_ptr_nonnull(strstr(text, "without a barrier"));
    ck_assert_ptr_nonnull(strstr(text, "Uninitialized value written to global memory in dot_local at "
                                       "labs/lab4/reduce.cl:15"));
    /* The race comes first: the uninitialised value is its consequence. */
    ck_assert(strstr(text, "race") < strstr(text, "Uninitialized"));
}
END_TEST

/* An uninitialised value that a plain copy writes to local memory is no use of it (the right transpose of
   realworld/tochilinak-transpose copies never-written edge entries); one that arithmetic or an atomic writes is
   (lab10/not-zeroed counts into bins never zeroed). */
START_TEST(a_copy_of_uninitialised_local_memory_is_not_a_finding)
{
    char root[] = "/tmp/clkit-sanitize.XXXXXX", path[128], text[4096];
    const char *log = "Uninitialized value written to local memory address 0x1000000000010\n"
                      "\tKernel: k\n"
                      "\tEntity: Global(2,0,0) Local(2,0,0) Group(0,0,0)\n"
                      "\tAt line 3 (column 5) of lab7/k.cl:\n"
                      "\n"
                      "Uninitialized value written to local memory address 0x1000000000020\n"
                      "\tKernel: k\n"
                      "\tEntity: Global(0,0,0) Local(0,0,0) Group(0,0,0)\n"
                      "\tAt line 4 (column 5) of lab7/k.cl:\n"
                      "\n";
    FILE *f;
    ck_assert_ptr_nonnull(mkdtemp(root));
    snprintf(path, sizeof path, "%s/lab7", root);
    ck_assert_int_eq(mkdir(path, 0700), 0);
    snprintf(path, sizeof path, "%s/lab7/k.cl", root);
    ck_assert_ptr_nonnull(f = fopen(path, "w"));
    fputs("__kernel void k(__local float *tile, __local uint *bins, int i, int j)\n{\n"
          "    float value = tile[i]; tile[j * 2 + 1] = value;\n"
          "    atomic_inc(&bins[i]);\n}\n", f);
    fclose(f);
    /* Line 3 holds two statements: only a line that is one copy and nothing else is left out. */
    ck_assert_int_eq(sanitize_parse_at(log, root, text, sizeof text), 2);
    ck_assert_ptr_nonnull(f = fopen(path, "w"));
    fputs("__kernel void k(__local float *tile, __local uint *bins, int i, int j)\n{\n"
          "    tile[j * 2 + 1] = value; /* a copy */\n"
          "    atomic_inc(&bins[i]);\n}\n", f);
    fclose(f);
    ck_assert_int_eq(sanitize_parse_at(log, root, text, sizeof text), 1);
    ck_assert_ptr_nonnull(strstr(text, "lab7/k.cl:4"));
    ck_assert_int_eq(sanitize_parse(log, text, sizeof text), 2); /* without the source: every finding */
    unlink(path);
    snprintf(path, sizeof path, "%s/lab7", root);
    rmdir(path);
    rmdir(root);
}
END_TEST

START_TEST(empty_log_has_no_findings)
{
    char text[64];
    ck_assert_int_eq(sanitize_parse("", text, sizeof text), 0);
    ck_assert_str_eq(text, "");
}
END_TEST

static const struct {
    const char *arguments;
    int status;
    const char *expected;
} runs[] = {
    {"--submission tests/fixtures/lab4/no-barrier lab4", 1,
     "Read-write data race on local memory in dot_local at lab4/reduce.cl:"},
    {"--submission tests/fixtures/lab7/write-out-of-bounds lab7", 1,
     "Invalid write of size 4 on global memory in transpose at "
     "lab7/transpose.cl:17"},
};

START_TEST(fixture_findings_are_deterministic)
{
    /* The same finding, at the same line, three runs out of three (each with a seed of its own). */
    for (int run = 0; run < 3; run++) {
        char command[512], *output;
        int status;
        snprintf(command, sizeof command, "NO_COLOR=1 ./grade --quick --sanitize %s 2>&1", runs[_i].arguments);
        status = run_in_kit(command, 240, &output);
        ck_assert_msg(status == runs[_i].status && strstr(output, runs[_i].expected), "run %d: status %d\n%s", run,
                      status, output);
        free(output);
    }
}
END_TEST

/* The report's failed tests with the lines that explain them (each failed test's line and those indented under it),
   for a failure message that shows every lab, not only the last. */
static void failed_tests(const char *report, char *text, size_t size)
{
    int keep = 0;
    text[0] = '\0';
    for (const char *line = report; *line;) {
        size_t length = strcspn(line, "\n");
        if (strncmp(line, "  \u2717", 4) == 0 || (strncmp(line, "lab", 3) == 0 && memchr(line, ':', length)))
            keep = 1;
        else if (strncmp(line, "        ", 8) != 0)
            keep = 0;
        if (keep && strlen(text) + length + 2 < size)
            strncat(strncat(text, line, length), "\n", 2);
        line += length + (line[length] == '\n');
    }
}

START_TEST(solutions_have_no_findings)
{
    static char failed[16384];
    char *output;
    /* The shared grading of the solutions, under --sanitize (graded under load: see grade's load test). */
    int status = grade_once(GRADED_SOLUTIONS, 1800, &output);
    failed_tests(output, failed, sizeof failed);
    ck_assert_msg(status == 0, "status %d\n%s", status, failed);
    ck_assert_ptr_null(strstr(output, "Oclgrind found 1"));
    ck_assert_ptr_null(strstr(output, "not run: Oclgrind is not installed"));
    free(output);
}
END_TEST

START_TEST(failure_is_explained_by_oclgrind)
{
    /* Without --sanitize, the reference judge runs and its findings fail memory safety, with the line. */
    char json[512], *output;
    int status = grade_fixture("lab4/no-barrier", "lab4", "", &output, json, sizeof json); /* shared with grade's */
    ck_assert_msg(status == 1 && strstr(output, "\u2717 memory safety    0.0/2    Oclgrind, the reference judge, found") &&
                      strstr(output, "data race on local memory in dot_local at lab4/reduce.cl:"),
                  "status %d\n%s", status, output);
    free(output);
}
END_TEST

/* Right kernels that Oclgrind itself cannot take as it comes: its uninitialised-value checker crashes on vload4;
   its own 32 KB of local memory refuse 33 KB of strips at TILE 128, which fit the GPUs' 48 KB (the sample has a
   case of every tiling, TILE 128 among them). Full marks, with the reference judge's findings. */
static const struct {
    const char *fixture, *lab, *absent;
} judge_limits[] = {
    {"lab4/vload4", "lab4", "crashed with SIGSEGV"},
    {"lab8/wide-strips", "lab8", "CL_OUT_OF_RESOURCES"},
};

START_TEST(oclgrinds_limits_cost_a_right_kernel_nothing)
{
    char json[512], *output, *record;
    size_t length = 0;
    int status = grade_fixture(judge_limits[_i].fixture, judge_limits[_i].lab, "", &output, json, sizeof json);
    record = scratch_read_untrusted(json, 1 << 22, &length);
    ck_assert_msg(status == 0 && strstr(output, "score: 14.0 / 14") && !strstr(output, judge_limits[_i].absent),
                  "status %d\n%s", status, output);
    /* the reference judge ran the sample (in the record's reason for the memory-safety test) */
    ck_assert_msg(record && strstr(record, "Oclgrind, the reference judge, found no data race"), "%s", json);
    free(output);
    free(record);
}
END_TEST

/* A broken install (an oclgrind in the PATH that cannot run the simulator): the reference judge says it could not
   simulate the kernel, the device's verdict stands, no point is lost, and nothing claims to have run under it. */
START_TEST(broken_oclgrind_costs_a_right_kernel_nothing)
{
    char *output;
    int status = run_in_kit("mkdir -p build/check-broken-oclgrind && printf '#!/bin/sh\\nexit 127\\n' > "
                            "build/check-broken-oclgrind/oclgrind && chmod +x build/check-broken-oclgrind/oclgrind && "
                            "PATH=$PWD/build/check-broken-oclgrind:$PATH NO_COLOR=1 ./grade --quick -v --solutions "
                            "lab6 2>&1", 300, &output);
    ck_assert_msg(status == 0 && strstr(output, "lab6 score: 14.0 / 14") &&
                      strstr(output, "the reference judge could not simulate this kernel") &&
                      strstr(output, "not run under Oclgrind") && !strstr(output, "under Oclgrind no bad access") &&
                      !strstr(output, "Oclgrind, the reference judge, found no"),
                  "status %d\n%s", status, output);
    free(output);
}
END_TEST

enum { SANITIZE_LOG, SANITIZE_SOLUTIONS, SANITIZE_OCLGRIND };
const char *const sanitize_cases[] = {[SANITIZE_LOG] = "log", [SANITIZE_SOLUTIONS] = "solutions",
                                      [SANITIZE_OCLGRIND] = "oclgrind", NULL};

Suite *sanitize_suite(void)
{
    Suite *s = suite_create("sanitize");
    TCase *unit = tcase_create(sanitize_cases[SANITIZE_LOG]);
    TCase *solutions = tcase_create(sanitize_cases[SANITIZE_SOLUTIONS]);
    TCase *end_to_end = tcase_create(sanitize_cases[SANITIZE_OCLGRIND]);
    tcase_add_test(unit, parses_and_groups_findings);
    tcase_add_test(unit, empty_log_has_no_findings);
    tcase_add_test(unit, a_copy_of_uninitialised_local_memory_is_not_a_finding);
    tcase_set_timeout(solutions, 1900);
    tcase_add_test(solutions, solutions_have_no_findings);
    tcase_set_timeout(end_to_end, 900);
    tcase_add_loop_test(end_to_end, fixture_findings_are_deterministic, 0, 2);
    tcase_add_test(end_to_end, failure_is_explained_by_oclgrind);
    tcase_add_loop_test(end_to_end, oclgrinds_limits_cost_a_right_kernel_nothing, 0, 2);
    tcase_add_test(end_to_end, broken_oclgrind_costs_a_right_kernel_nothing);
    suite_add_tcase(s, unit);
    suite_add_tcase(s, solutions);
    suite_add_tcase(s, end_to_end);
    return s;
}
