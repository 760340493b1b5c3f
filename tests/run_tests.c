/* Runs every Check suite of the kit, in turn, or side by side in processes of their own (--jobs N, as make check
   does); the exit status is non-zero when any test fails. */
#include "suites.h"

#include "sandbox/sandbox.h"
#include "sandbox/scratch.h"
#include "timing.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

int run_in_kit(const char *command, int timeout_s, char **output)
{
    struct sandbox_outcome outcome;
    static char kit[4096];
    if (!kit[0] && !getcwd(kit, sizeof kit))
        kit[0] = '\0';
    /* make check built this kit: ./grade here need not run make again (see grade); "$1" keeps the path whole. */
    char *argv[] = {"/bin/sh", "-c", "CLKIT_BUILT=$1; export CLKIT_BUILT; shift; eval \"$0\"", (char *)command, kit,
                    NULL};
    struct sandbox_policy policy = {.timeout_s = timeout_s, .output_limit = 1 << 20};
    sandbox_exec(argv, &policy, &outcome);
    *output = outcome.output ? outcome.output : strdup("");
    if (outcome.end == SANDBOX_SIGNALED)
        return 128 + outcome.code;
    if (outcome.end == SANDBOX_TIMED_OUT)
        return 124;
    return outcome.code;
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

/* grade_once's work: with fresh set, grades even when a result is kept, and keeps its own. */
static int grade_kept(const char *arguments, int timeout_s, int fresh, char **output)
{
    char base[128], path[160], command[1024];
    unsigned long hash = 5381;
    size_t length = 0;
    int status;
    for (const char *c = arguments; *c; c++)
        hash = hash * 33 + (unsigned char)*c;
    snprintf(base, sizeof base, CHECK_SHARED "/%016lx", hash);
    snprintf(path, sizeof path, "%s.lock", base);
    int lock = open(path, O_RDWR | O_CREAT, 0644);
    if (lock < 0 || flock(lock, LOCK_EX) != 0) /* then each test grades on its own */
        fprintf(stderr, "grade_once: cannot lock %s: %s\n", path, strerror(errno));
    snprintf(path, sizeof path, "%s.status", base);
    char *kept = fresh ? NULL : scratch_read_untrusted(path, 64, &length);
    if (kept) {
        status = atoi(kept);
        snprintf(path, sizeof path, "%s.out", base);
        *output = scratch_read_untrusted(path, 1 << 24, &length);
        *output = *output ? *output : strdup("");
    } else {
        snprintf(command, sizeof command, "NO_COLOR=1 ./grade %s 2>&1", arguments);
        status = run_in_kit(command, timeout_s, output);
        snprintf(path, sizeof path, "%s.out", base);
        write_file(path, *output);
        snprintf(command, sizeof command, "%d\n", status);
        snprintf(path, sizeof path, "%s.status", base);
        write_file(path, command); /* last: a status kept means its output is whole */
    }
    free(kept);
    if (lock >= 0)
        close(lock);
    return status;
}

int grade_once(const char *arguments, int timeout_s, char **output)
{
    return grade_kept(arguments, timeout_s, 0, output);
}

int grade_and_share(const char *arguments, int timeout_s, char **output)
{
    return grade_kept(arguments, timeout_s, 1, output);
}

int grade_fixture(const char *fixture, const char *lab, const char *options, char **output, char *json, size_t size)
{
    char arguments[1024], name[400];
    snprintf(name, sizeof name, "%s-%s-%s", fixture, lab, options ? options : "");
    for (char *c = name; *c; c++)
        if (!isalnum((unsigned char)*c))
            *c = '-';
    snprintf(json, size, CHECK_SHARED "/%s.json", name);
    snprintf(arguments, sizeof arguments, "--quick --timeout 60 --json %s --submission tests/fixtures/%s %s %s", json,
             fixture, lab, options ? options : "");
    return grade_once(arguments, 240, output);
}

double kit_points(void)
{
    double total = 0.0;
    for (size_t i = 0; i < registry_count(); i++)
        for (int kind = 0; kind < GRADE_TEST_KINDS; kind++)
            total += labs_test_points(registry_lab(i), (enum grade_test_kind)kind);
    return total;
}

int kit_tests(void)
{
    int count = 0;
    for (size_t i = 0; i < registry_count(); i++)
        for (int kind = 0; kind < GRADE_TEST_KINDS; kind++)
            count += kind != GRADE_TEST_SPEED && labs_test_name(registry_lab(i), (enum grade_test_kind)kind) != NULL;
    return count;
}

void kit_total(double score, char *text, size_t size)
{
    snprintf(text, size, "total: %.1f / %g points", score, kit_points());
}

/* The suites, one per tests/check_NAME.c (the Makefile lists the files), named for the parallel run's units. */
#define SUITE(name) Suite *name##_suite(void);
#include "suite_list.h"
#undef SUITE
#define SUITE(name) {#name, name##_suite},
static const struct {
    const char *name;
    Suite *(*make)(void);
} suites[] = {
#include "suite_list.h"
};
#define SUITE_COUNT (sizeof suites / sizeof suites[0])

/* Suites whose cases each run in a process of their own in the parallel run (the longest suites). */
static const struct {
    const char *suite;
    const char *const *cases;
} split[] = {
    {"grade", grade_cases},
    {"sanitize", sanitize_cases},
};

/* Each unit's seconds from start to end in a make check on 2 cores (PoCL, 3 side by side), for the order: the longest
   start first, so that the last to end are short, and those that mostly wait (runner, sandbox) overlap the others'
   work. A unit not listed is short. The load test starts first, beside the two units of most CPU: its grading of
   the solutions is the one that the tests sharing GRADED_SOLUTIONS read (grade/solutions, sanitize/solutions and
   docs, which start late). */
static const struct {
    const char *unit;
    int seconds;
} cost[] = {
    {"grade/under load", 999}, {"grade/fixtures", 177},    {"grade/marked, second half", 134},
    {"runner", 130},           {"grade/marked", 123},      {"slurm", 111},
    {"grade/lab 11", 87},      {"grade/hidden kinds", 78}, {"grade/hidden kinds 2", 77},
    {"gradescope", 76},        {"grade/end to end", 69},   {"sanitize/oclgrind", 68},
    {"release", 59},           {"grade/real world", 54},   {"batch", 52},
    {"technique", 44},         {"sandbox", 39},            {"grade/course", 39},
    {"html", 35},              {"grade/lab 10", 31},       {"grade/lab 12", 23},
    {"solutions", 21},         {"registry", 20},           {"grade/solutions", 12},
    {"sanitize/solutions", 11}, {"session", 7},            {"harness", 7},
    {"workflows", 6},          {"cli", 5},
};

/* One process's share of the parallel run: a suite, or one case of a split suite. */
struct unit {
    char name[96];
    Suite *(*make)(void);
    const char *tcase; /* NULL: the whole suite */
    int seconds, order, ok;
    double cpu_s; /* user and system time of its process and all it waited for */
    pid_t pid;
    double started;
    char log[160];
};

#define MAX_UNITS 128
#define LOG_DIR "build/check-logs"

static void add_unit(struct unit *units, size_t *n, size_t i, const char *tcase)
{
    struct unit *u = &units[*n];
    memset(u, 0, sizeof *u);
    snprintf(u->name, sizeof u->name, tcase ? "%s/%s" : "%s", suites[i].name, tcase);
    u->make = suites[i].make;
    u->tcase = tcase;
    u->seconds = 1;
    for (size_t c = 0; c < sizeof cost / sizeof cost[0]; c++)
        if (!strcmp(cost[c].unit, u->name))
            u->seconds = cost[c].seconds;
    u->order = (int)*n;
    snprintf(u->log, sizeof u->log, LOG_DIR "/%s", u->name);
    for (char *at = u->log + strlen(LOG_DIR "/"); *at; at++)
        if (!isalnum((unsigned char)*at))
            *at = '-';
    (*n)++;
}

static size_t list_units(struct unit *units)
{
    size_t n = 0;
    for (size_t i = 0; i < SUITE_COUNT; i++) {
        const char *const *cases = NULL;
        for (size_t s = 0; s < sizeof split / sizeof split[0]; s++)
            if (!strcmp(split[s].suite, suites[i].name))
                cases = split[s].cases;
        if (!cases)
            add_unit(units, &n, i, NULL);
        for (int c = 0; cases && cases[c] && n < MAX_UNITS; c++)
            add_unit(units, &n, i, cases[c]);
    }
    return n;
}

/* The longest first, so that the last to finish are short. */
static int by_cost(const void *a, const void *b)
{
    const struct unit *x = a, *y = b;
    return x->seconds != y->seconds ? y->seconds - x->seconds : x->order - y->order;
}

/* In the child: runs the unit with its output in its log, and ends it with the counts the parent reads. */
static void run_unit(const struct unit *u)
{
    char xml[200];
    int fd = open(u->log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0 || dup2(fd, STDERR_FILENO) < 0)
        _exit(3);
    close(fd);
    snprintf(xml, sizeof xml, "%s.xml", u->log);
    SRunner *runner = srunner_create(u->make());
    srunner_set_xml(runner, xml);
    srunner_run(runner, NULL, u->tcase, CK_NORMAL);
    int run = srunner_ntests_run(runner), failed = srunner_ntests_failed(runner);
    printf("unit %s: %d tests, %d failed\n", u->name, run, failed);
    fflush(NULL);
    _exit(failed == 0 && run > 0 ? 0 : 1);
}

static void start_unit(struct unit *u)
{
    fflush(NULL);
    u->started = clk_now_s();
    if ((u->pid = fork()) == 0)
        run_unit(u);
}

/* Prints a finished unit's log whole (its failures name the test and say why); adds its counts. */
static void report_unit(struct unit *u, int status, const struct rusage *use, int *tests, int *failures)
{
    size_t length = 0;
    char *log = scratch_read_untrusted(u->log, 1 << 24, &length);
    int run = 0, failed = 0;
    u->ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    u->cpu_s = (double)use->ru_utime.tv_sec + use->ru_utime.tv_usec / 1e6 + (double)use->ru_stime.tv_sec +
               use->ru_stime.tv_usec / 1e6;
    printf("--- %s (%.0f s, %.0f s of CPU)%s\n%s", u->name, clk_now_s() - u->started, u->cpu_s,
           u->ok ? "" : ": FAILED", log ? log : "");
    for (char *at = log; at && (at = strstr(at, "\nunit ")) != NULL; at++)
        if (sscanf(at + 1, "unit %*[^:]: %d tests, %d failed", &run, &failed) == 2)
            break;
    if (!u->ok && run == 0)
        printf("%s: %s\n", u->name, WIFEXITED(status) && WEXITSTATUS(status) == 1
                                        ? "ran no test (does a case of split[] name none of its suite's?)"
                                        : "its process died before it counted its tests");
    fflush(stdout);
    free(log);
    *tests += run;
    *failures += u->ok ? 0 : (failed > 0 ? failed : 1);
}

/* make check: the units in jobs processes side by side, their logs printed whole as each ends, in a fixed order of
   start; non-zero when a test failed or a unit's process died or ran no test. */
static int run_parallel(int jobs)
{
    static struct unit units[MAX_UNITS];
    size_t n = list_units(units), next = 0, running = 0, done = 0;
    int tests = 0, failures = 0, bad_units = 0;
    double started = clk_now_s();
    qsort(units, n, sizeof units[0], by_cost);
    mkdir("build", 0755);
    mkdir(LOG_DIR, 0755);
    printf("check: %zu units, %d side by side (logs in " LOG_DIR ")\n", n, jobs < 1 ? 1 : jobs);
    char beside[16];
    snprintf(beside, sizeof beside, "%d", jobs > 1 ? jobs - 1 : 0);
    setenv(CHECK_UNITS_BESIDE, beside, 1); /* the load each unit has beside it (grade's load test reads it) */
    while (done < n) {
        while (next < n && (int)running < (jobs < 1 ? 1 : jobs))
            start_unit(&units[next++]), running++;
        int status;
        struct rusage use;
        pid_t pid = wait4(-1, &status, 0, &use);
        for (size_t i = 0; pid > 0 && i < next; i++)
            if (units[i].pid == pid) {
                report_unit(&units[i], status, &use, &tests, &failures);
                bad_units += !units[i].ok;
                units[i].pid = 0;
                running--, done++;
            }
    }
    double cpu_s = 0.0;
    for (size_t i = 0; i < n; i++)
        cpu_s += units[i].cpu_s;
    printf("check: %d tests, %d failed, in %zu units (%d failed) in %.0f s, %.0f s of CPU\n", tests, failures, n,
           bad_units, clk_now_s() - started, cpu_s);
    for (size_t i = 0; i < n; i++)
        if (!units[i].ok)
            printf("check: FAILED: %s (see its log above, or %s)\n", units[i].name, units[i].log);
    return bad_units == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

int main(int argc, char **argv)
{
    sandbox_init();
    /* What grade_once keeps lasts one run of the tests. */
    if (system("rm -rf " CHECK_SHARED " && mkdir -p " CHECK_SHARED) != 0)
        fprintf(stderr, "run_tests: cannot empty " CHECK_SHARED "\n");
    if (argc == 3 && strcmp(argv[1], "--jobs") == 0)
        return run_parallel(atoi(argv[2]));
    SRunner *runner = srunner_create(suites[0].make());
    int failed;
    for (size_t i = 1; i < SUITE_COUNT; i++)
        srunner_add_suite(runner, suites[i].make());
    srunner_run_all(runner, CK_NORMAL);
    failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
