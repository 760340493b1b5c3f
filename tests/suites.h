/* The Check suites, one per source module (tests/check_NAME.c makes NAME_suite()); tests/run_tests.c runs them all,
   from the list the Makefile writes of those files. */
#ifndef CLKIT_TESTS_SUITES_H
#define CLKIT_TESTS_SUITES_H

#include "labs/registry.h"

#include <check.h>

/* Lab n's place in the tables indexed by lab (a profile's rules), which the registry orders. */
#define LAB(n) registry_index(registry_find("lab" #n))

/* The cases of the longest suites, each run by a process of its own in make check's parallel run (NULL-ended). */
extern const char *const grade_cases[];
extern const char *const sanitize_cases[];

/* The maximum of every lab together, and the number of tests that count (not the informational speed tests):
   what "all" is graded out of. */
double kit_points(void);
int kit_tests(void);

/* Writes "total: SCORE / MAX points" for a run of every lab that scored score, as the report prints it. */
void kit_total(double score, char *text, size_t size);

/* Runs a shell command from the kit's root with a time limit; returns its exit status (or 128+signal) and its output. */
int run_in_kit(const char *command, int timeout_s, char **output);

/* Runs NO_COLOR=1 ./grade ARGUMENTS (its output and errors together) once in a run of the tests, however many tests
   ask for it, side by side or in turn: the first grades, the others wait and get the same status and output. */
int grade_once(const char *arguments, int timeout_s, char **output);

/* Grades like grade_once, even when a result is kept, and keeps this one for grade_once: for a test whose grading must
   happen under its own conditions (the load test) and whose result other tests may share. */
int grade_and_share(const char *arguments, int timeout_s, char **output);

/* Grades tests/fixtures/FIXTURE's LAB with --quick --timeout 60 and OPTIONS through grade_once, so that the tests
   that assert on one fixture share its grading; json gets the path of its Gradescope results. */
int grade_fixture(const char *fixture, const char *lab, const char *options, char **output, char *json, size_t size);

/* Where grade_once keeps what it graded, emptied as the tests start. */
#define CHECK_SHARED "build/check-shared"

/* The grading of the solutions that several tests assert on: every lab, quick, every small case under the reference
   judge (--sanitize), seed 1 (the handout's expected outputs), every case shown, with GitHub Classroom's result in
   GRADED_SOLUTIONS_CLASSROOM. */
#define GRADED_SOLUTIONS_CLASSROOM CHECK_SHARED "/solutions.b64"
#define GRADED_SOLUTIONS "--solutions --quick --sanitize --seed 1 -v --classroom " GRADED_SOLUTIONS_CLASSROOM " all"
/* The number of units make check runs beside each (the environment's variable): the load they bring. */
#define CHECK_UNITS_BESIDE "CHECK_UNITS_BESIDE"

#endif
