#include "cli/cli.h"

#include "labs/spec.h"
#include "labs/registry.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "usage: ./grade [options] LAB...      LAB is %s ... %s, or all\n"
    "  --device SPEC       device index, cpu, gpu or part of its name (env CLKIT_DEVICE), or oclgrind\n"
    "                      to run every case on the reference judge itself\n"
    "  --list-devices      list the OpenCL devices and exit\n"
    "  --solutions         grade solutions/ instead of labs/\n"
    "  --submission DIR    grade DIR/labN/ (the same file names as labs/labN/); give it several times,\n"
    "                      or a folder of student folders, to grade a class one student at a time\n"
    "  --results DIR       where batch grading writes STUDENT.json, STUDENT.txt and scores.csv\n"
    "                      (default: results)\n"
    "  --jobs N            batch grading: N students side by side, on the GPUs in turn (or --device): their\n"
    "                      builds, reference judge and cases run together, each timing alone on its device\n"
    "                      (default on a GPU: half the host's cores, at most " CLI_MAX_JOBS_TEXT "; on a CPU device 1, one at a\n"
    "                      time, since its timings compete with every worker; --jobs 1: one at a time)\n"
    "  --devices LIST      batch grading: the workers' devices in turn, e.g. 0,1 or gpu,cpu (default: one\n"
    "                      worker per device listed)\n"
    "  --slurm DIR         for a cluster: write DIR/grade.sbatch, a Slurm job array of one task per student\n"
    "                      of --submission, and DIR/class.txt\n"
    "  --slurm-gpus N      with --slurm: GPUs per task (default 0: none asked, graded on --device or the CPU)\n"
    "  --slurm-cpus N      with --slurm: CPUs per task (default 2)\n"
    "  --task DIR          grade the student of DIR/class.txt that SLURM_ARRAY_TASK_ID names (the array's task)\n"
    "  --merge DIR         write DIR/results/scores.csv from the tasks' results, in the class's order\n"
    "  --html DIR          also write a static HTML report: for one student DIR/index.html, their page\n"
    "                      (mismatch maps, speed); with a class or --merge a page per student and the\n"
    "                      class's (scores, pass rates, common failures)\n"
    "  --course FILE       the course file: which device's profile grades speed, and so each lab's speed\n"
    "                      points (default: course.conf at the kit's root; none: speed is reported only)\n"
    "  --quick             do not time the kernel (speed points, where the course gives some, stay pending)\n"
"%s"
    "  --seed S            replay the random inputs of an earlier run\n"
    "  --case N            run only correctness case N (with --seed, replays a failure)\n"
    "  --confinement       say which layers confine submitted code on this machine, and exit\n"
    "  --timeout S         seconds each lab and each host program may run (default 30); each case has a\n"
    "                      shorter limit that grows with its size\n"
    "  --budget S          seconds one submission may take in all, for a platform that stops the grader\n"
    "                      (Gradescope's run_autograder passes 540: its 10 minutes); labs not started by\n"
    "                      then are not graded; default: none (a busy machine only makes grading slower)\n"
    "  --sanitize          the reference judge (Oclgrind, always run) takes every small case it can\n"
    "                      simulate in a few seconds, not a sample: slower, for a race that shows only\n"
    "                      at one work-group size (uninitialised values: the sample's structure)\n"
    "  --bench             time the solutions and print a table of what they reach on this device\n"
    "  --bench-out DIR     with --bench, also write DIR/bench-<device>.md and .csv (docs/charts.py draws them)\n"
    "  --calibrate         time the solutions against the baselines on this device and write\n"
    "                      grader/profiles/<device>.conf, the thresholds ./grade then uses\n"
    "  -v, --verbose       show every case, not only failures\n"
    "  -h, --help          show this help\n"
    "      --version       show the kit's version\n"
    "exit status: 0 every test passed, 1 some test failed, 2 usage or set-up error\n";

/* The first and last lab names, for messages that name the range. */
static const char *first_lab(void)
{
    return registry_count() ? registry_lab(0)->name : "";
}

static const char *last_lab(void)
{
    return registry_count() ? registry_lab(registry_count() - 1)->name : "";
}

static int usage_error(const char *message, const char *argument)
{
    fprintf(stderr, "grade: %s '%s'\n(see ./grade --help)\n", message, argument ? argument : "");
    return 2;
}

static int parse_number(const char *text, long min, long max, long *value)
{
    char *end = NULL;
    long long v;
    if (!text || *text < '0' || *text > '9')
        return -1;
    v = strtoll(text, &end, 10);
    if (*end != '\0' || v < min || v > max)
        return -1;
    *value = (long)v;
    return 0;
}

_Static_assert(CLI_MAX_LABS >= REGISTRY_MAX_LABS, "all must fit on a command line");

static int add_lab(struct cli *cli, const char *name)
{
    if (strcmp(name, "all") == 0) {
        for (size_t i = 0; i < registry_count() && cli->lab_count < CLI_MAX_LABS; i++)
            cli->labs[cli->lab_count++] = registry_lab(i)->name;
        return 0;
    }
    if (!registry_find(name)) {
        fprintf(stderr, "grade: unknown lab '%s' (expected %s ... %s, or all)\n(see ./grade --help)\n", name,
                first_lab(), last_lab());
        return 2;
    }
    if (cli->lab_count >= CLI_MAX_LABS) {
        fprintf(stderr, "grade: too many labs on the command line (at most %d)\n", CLI_MAX_LABS);
        return 2;
    }
    cli->labs[cli->lab_count++] = name;
    return 0;
}

/* Options that take a value; returns 0, 2 on a bad value, or -1 when arg is not one of them. */
static int parse_valued(struct cli *cli, const char *arg, const char *value)
{
    long number;
    int writer = strncmp(arg, "--", 2) == 0 ? result_writer_index(arg + 2) : -1;
    const char **target = writer >= 0                        ? &cli->outputs[writer]
                          : strcmp(arg, "--device") == 0       ? &cli->device
                          : strcmp(arg, "--results") == 0    ? &cli->results_dir
                          : strcmp(arg, "--devices") == 0    ? &cli->devices
                          : strcmp(arg, "--slurm") == 0      ? &cli->slurm
                          : strcmp(arg, "--task") == 0       ? &cli->task
                          : strcmp(arg, "--merge") == 0      ? &cli->merge
                          : strcmp(arg, "--html") == 0       ? &cli->html
                          : strcmp(arg, "--bench-out") == 0  ? &cli->bench_out
                          : strcmp(arg, "--course") == 0     ? &cli->course
                                                             : NULL;
    if (!target && strcmp(arg, "--seed") && strcmp(arg, "--case") && strcmp(arg, "--timeout") &&
        strcmp(arg, "--budget") && strcmp(arg, "--submission") && strcmp(arg, "--jobs") &&
        strcmp(arg, "--slurm-gpus") && strcmp(arg, "--slurm-cpus"))
        return -1;
    if (!value)
        return usage_error("missing value after", arg);
    if (strcmp(arg, "--submission") == 0) {
        if (cli->submission_count >= CLI_MAX_SUBMISSIONS)
            return usage_error("too many --submission folders; give their parent folder instead of", value);
        cli->submissions[cli->submission_count++] = value;
        return 0;
    }
    if (target) {
        *target = value;
        return 0;
    }
    if (strcmp(arg, "--seed") == 0) {
        char *end = NULL;
        cli->seed = strtoull(value, &end, 10);
        cli->seed_given = 1;
        return (*value >= '0' && *value <= '9' && *end == '\0') ? 0 : usage_error("--seed needs a number, not", value);
    }
    if (strcmp(arg, "--slurm-gpus") == 0 || strcmp(arg, "--slurm-cpus") == 0) {
        int gpus = strcmp(arg, "--slurm-gpus") == 0;
        if (parse_number(value, gpus ? 0 : 1, 1024, &number) != 0)
            return usage_error(gpus ? "--slurm-gpus needs a number of GPUs per task from 0, not"
                                    : "--slurm-cpus needs a number of CPUs per task from 1, not", value);
        *(gpus ? &cli->slurm_gpus : &cli->slurm_cpus) = (int)number;
        return 0;
    }
    if (strcmp(arg, "--jobs") == 0) {
        if (parse_number(value, 1, CLI_MAX_JOBS, &number) != 0)
            return usage_error("--jobs needs a number of workers from 1 to " CLI_MAX_JOBS_TEXT ", not", value);
        cli->jobs = (int)number;
        return 0;
    }
    if (parse_number(value, 0, strcmp(arg, "--case") == 0 ? 100000 : 86400, &number) != 0 ||
        (strcmp(arg, "--case") != 0 && number < 1))
        return usage_error("bad number for", arg);
    if (strcmp(arg, "--case") == 0)
        cli->only_case = number;
    else if (strcmp(arg, "--budget") == 0)
        cli->budget_s = (int)number;
    else
        cli->timeout_s = (int)number;
    return 0;
}

#ifndef CLK_VERSION
#define CLK_VERSION "unknown"
#endif

const char *cli_version(void)
{
    return CLK_VERSION;
}

/* Options without a value set one flag of struct cli; the valued ones go through parse_valued by name. */
enum { OPT_VALUED = 256, OPT_VERSION, OPT_QUICK, OPT_SOLUTIONS, OPT_LIST_DEVICES, OPT_CONFINEMENT, OPT_SANITIZE,
       OPT_BENCH, OPT_CALIBRATE };

static const struct option options[] = {
    {.name = "help", .has_arg = no_argument, .val = 'h'},
    {.name = "verbose", .has_arg = no_argument, .val = 'v'},
    {.name = "version", .has_arg = no_argument, .val = OPT_VERSION},
    {.name = "quick", .has_arg = no_argument, .val = OPT_QUICK},
    {.name = "solutions", .has_arg = no_argument, .val = OPT_SOLUTIONS},
    {.name = "list-devices", .has_arg = no_argument, .val = OPT_LIST_DEVICES},
    {.name = "confinement", .has_arg = no_argument, .val = OPT_CONFINEMENT},
    {.name = "sanitize", .has_arg = no_argument, .val = OPT_SANITIZE},
    {.name = "bench", .has_arg = no_argument, .val = OPT_BENCH},
    {.name = "calibrate", .has_arg = no_argument, .val = OPT_CALIBRATE},
    {.name = "device", .has_arg = required_argument, .val = OPT_VALUED},
    {.name = "submission", .has_arg = required_argument, .val = OPT_VALUED},
    {.name = "results", .has_arg = required_argument, .val = OPT_VALUED},
    {.name = "jobs", .has_arg = required_argument, .val = OPT_VALUED},
    {.name = "devices", .has_arg = required_argument, .val = OPT_VALUED},
    {.name = "slurm", .has_arg = required_argument, .val = OPT_VALUED},
    {.name = "slurm-gpus", .has_arg = required_argument, .val = OPT_VALUED},
    {.name = "slurm-cpus", .has_arg = required_argument, .val = OPT_VALUED},
    {.name = "task", .has_arg = required_argument, .val = OPT_VALUED},
    {.name = "merge", .has_arg = required_argument, .val = OPT_VALUED},
    {.name = "html", .has_arg = required_argument, .val = OPT_VALUED},
    {.name = "seed", .has_arg = required_argument, .val = OPT_VALUED},
    {.name = "case", .has_arg = required_argument, .val = OPT_VALUED},
    {.name = "timeout", .has_arg = required_argument, .val = OPT_VALUED},
    {.name = "budget", .has_arg = required_argument, .val = OPT_VALUED},
    {.name = "bench-out", .has_arg = required_argument, .val = OPT_VALUED},
    {.name = "course", .has_arg = required_argument, .val = OPT_VALUED},
    {0},
};

/* --help: the options, those of the result writers among them, one line each from their table. */
static void print_usage(void)
{
    char writers[RESULT_MAX_WRITERS * 128] = "", option[32];
    for (int i = 0; result_writers[i]; i++) {
        size_t used = strlen(writers);
        snprintf(option, sizeof option, "--%s FILE", result_writers[i]->option);
        snprintf(writers + used, sizeof writers - used, "  %-20s%s\n", option, result_writers[i]->help);
    }
    printf(usage, first_lab(), last_lab(), writers);
}

/* The long options: the fixed ones, then one per result writer. */
static const struct option *long_options(void)
{
    static struct option all[sizeof options / sizeof *options + RESULT_MAX_WRITERS];
    size_t n = 0;
    for (; options[n].name; n++)
        all[n] = options[n];
    for (int i = 0; result_writers[i] && i < RESULT_MAX_WRITERS; i++)
        all[n++] = (struct option){.name = result_writers[i]->option, .has_arg = required_argument, .val = OPT_VALUED};
    all[n] = (struct option){0};
    return all;
}

/* Sets the flag of an option without a value; returns 1 after --help or --version (printed), else 0. */
static int set_flag(struct cli *cli, int option)
{
    int *flag = option == 'v'                ? &cli->verbose
                : option == OPT_QUICK        ? &cli->quick
                : option == OPT_SOLUTIONS    ? &cli->solutions
                : option == OPT_LIST_DEVICES ? &cli->list_devices
                : option == OPT_CONFINEMENT  ? &cli->confinement
                : option == OPT_SANITIZE     ? &cli->sanitize
                : option == OPT_BENCH        ? &cli->bench
                : option == OPT_CALIBRATE    ? &cli->calibrate
                                             : NULL;
    if (flag) {
        *flag = 1;
        return 0;
    }
    if (option == 'h')
        print_usage();
    else
        printf("clkit grader %s\n", cli_version());
    return 1;
}

/* What the options say together; returns 0, or 2 on a usage error (printed). */
static int check_combination(struct cli *cli)
{
    if (cli->bench && cli->submission_count == 0)
        cli->solutions = 1; /* a benchmark of the reference solutions, unless a submission is named */
    if (cli->bench && cli->quick)
        return usage_error("--bench times the kernels; it cannot go with", "--quick");
    if (cli->solutions && cli->submission_count && !cli->bench)
        return usage_error("choose one of --solutions and --submission, not both:", "--solutions");
    if (cli->html && (cli->slurm || cli->task)) /* the report needs every task's result: --merge writes it */
        return usage_error("--html reports on the tasks' results; give it to --merge DIR, not to",
                           cli->slurm ? "--slurm" : "--task");
    if (cli->slurm && cli->submission_count == 0)
        return usage_error("--slurm writes a job array for a class; name it with", "--submission DIR");
    if (!!cli->slurm + !!cli->task + !!cli->merge > 1)
        return usage_error("choose one of --slurm, --task and --merge, not several:",
                           cli->merge ? "--merge" : "--task");
    if ((cli->jobs > 1 || cli->devices) && cli->submission_count == 0)
        return usage_error("--jobs and --devices grade a class side by side; name it with", "--submission DIR");
    if (cli->lab_count == 0 && !cli->list_devices && !cli->calibrate && !cli->confinement && !cli->merge)
        return usage_error("no lab given: name a lab or all, e.g.", "./grade lab3");
    return 0;
}

int cli_parse(int argc, char **argv, struct cli *cli)
{
    int option, index, rc;
    char name[40];
    const struct option *all = long_options();
    memset(cli, 0, sizeof *cli);
    cli->only_case = -1;
    cli->timeout_s = 30;
    cli->budget_s = 0; /* none: a budget on the wall clock would take points from a right submission on a busy machine */
    cli->slurm_cpus = 2; /* the grader and one confined run; a node with fewer refuses the whole array */
    optind = 0; /* GNU getopt: start afresh, so that a program (or a test) may parse more than once */
    opterr = 0;
    while ((option = getopt_long(argc, argv, ":hv", all, &index)) != -1) {
        if (option == '?')
            return usage_error("unknown option", argv[optind - 1]);
        if (option == ':')
            return usage_error("missing value after", argv[optind - 1]);
        if (option != OPT_VALUED) {
            if (set_flag(cli, option))
                return 1;
            continue;
        }
        snprintf(name, sizeof name, "--%s", all[index].name);
        if ((rc = parse_valued(cli, name, optarg)) != 0)
            return rc;
    }
    for (int i = optind; i < argc; i++) /* the labs, wherever they stood, and everything after "--" */
        if ((rc = add_lab(cli, argv[i])) != 0)
            return rc;
    return check_combination(cli);
}
