/* The judging configuration: all the judge reads of a command's options, built once by the command. A batch
   worker, a Slurm task or a --jobs worker sets its own device in it instead of copying the command line. */
#ifndef CLKIT_GRADER_JUDGE_CONFIG_H
#define CLKIT_GRADER_JUDGE_CONFIG_H

#include "labs/registry.h"

/* The labs one grading may name: every lab the registry can hold. */
#define JUDGE_MAX_LABS REGISTRY_MAX_LABS

struct judge_config {
    const char *labs[JUDGE_MAX_LABS]; /* the labs to grade, in report order */
    int lab_count;
    const char *device; /* the device's SPEC (a name, an index, gpu, cpu, oclgrind); NULL: the first device */
    int simulated;      /* the device is Oclgrind's: the kernel runs only under the reference judge */
    int timeout_s;      /* one confined run's deadline */
    int budget_s;       /* seconds one submission may take in all; 0: no budget */
    long only_case;     /* the one case to replay, or -1 for every case */
    int quick;          /* no timed runs */
    int sanitize;       /* the small cases under Oclgrind's checks as well */
    int verbose;        /* every failed case in the report, not the first few */
    int solutions;      /* grading the kit's own solutions */
    int bench;          /* --bench: time what lies past each lab as well */
    const char *course; /* the course file (NULL: course.conf at the kit's root, if there is one) */
    const char *device_lock; /* a batch's lock file for the device, ordering its workers there (NULL: alone) */
    int lock_whole_labs;     /* a CPU device: a worker holds it through each lab, so a timing runs with no other
                                worker's lab beside it (their builds and simulations compete for the cores) */
};

/* The lock that a stage running kernels holds shared: the device's, or NULL where the worker already holds it for
   the whole lab (or grades alone). */
const char *judge_config_stage_lock(const struct judge_config *config);

/* Sets config's device to spec (NULL: the first device), simulated when spec names Oclgrind. */
void judge_config_set_device(struct judge_config *config, const char *spec);

#endif
