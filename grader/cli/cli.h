/* The grader's command line. */
#ifndef CLKIT_GRADER_CLI_H
#define CLKIT_GRADER_CLI_H

#include "report/writers.h"

#include <stdint.h>

/* Labs one command line may name: every lab the registry can hold (REGISTRY_MAX_LABS). */
#define CLI_MAX_LABS 32
#define CLI_MAX_SUBMISSIONS 512
/* Batch workers side by side, on one device or several. */
#define CLI_MAX_JOBS 16
#define CLI_MAX_JOBS_TEXT "16"

struct cli {
    const char *labs[CLI_MAX_LABS];
    int lab_count;
    const char *device;
    int list_devices;
    int confinement;       /* print the confinement layers and exit */
    int solutions;
    const char *submissions[CLI_MAX_SUBMISSIONS];
    int submission_count;
    const char *results_dir; /* batch grading: where the per-student files and scores.csv go */
    int jobs;              /* batch grading: students graded side by side (0: the default, half the cores on a GPU) */
    const char *devices;   /* batch grading: the workers' devices in turn, comma-separated SPECs, or NULL */
    const char *slurm;     /* write a Slurm job array for the class into this folder */
    int slurm_gpus;        /* --slurm: GPUs each task asks for (0: none, graded on --device or the CPU) */
    int slurm_cpus;        /* --slurm: CPUs each task asks for */
    const char *task;      /* grade the student of this --slurm folder that SLURM_ARRAY_TASK_ID names */
    const char *merge;     /* build scores.csv from the results of this --slurm folder */
    const char *html;      /* one student: their page, DIR/index.html; a class and --merge: the class report */
    int quick;
    const char *outputs[RESULT_MAX_WRITERS]; /* each result writer's file (--json FILE ...), indexed like
                                                result_writers; NULL: not asked for */
    int verbose;
    uint64_t seed;
    int seed_given;
    long only_case;
    int timeout_s;
    int budget_s;          /* seconds one submission may take in all */
    int calibrate;
    int bench;             /* time the solutions and print what they reach */
    int sanitize;          /* run the small cases under Oclgrind too */
    const char *bench_out; /* where --bench writes bench-<device>.md and .csv */
    const char *course;    /* the course file (NULL: course.conf at the kit's root, if there is one) */
};

/* The kit's version, as the file VERSION gives it. */
const char *cli_version(void);

/* Parses argv into cli; returns 0 to grade, 1 after --help or --version, 2 on a usage error (printed). */
int cli_parse(int argc, char **argv, struct cli *cli);

#endif
