/* The reference judge: a lab's small cases under Oclgrind, the same on every device: values, races, bad accesses,
   uninitialised values and barrier divergence with their lines, and the counts the technique checks use. */
#ifndef CLKIT_GRADER_SANITIZE_H
#define CLKIT_GRADER_SANITIZE_H

#include "judge/oclgrind_counts.h"
#include "judge/job.h"
#include "labs/spec.h"
#include "judge/lab_run.h"

#include <limits.h>
#include <stddef.h>

/* The local memory of Oclgrind's device, RUNLAB_JUDGE_LOCAL_BYTES as Oclgrind's argument. */
#define SANITIZE_TEXT(value) #value
#define SANITIZE_NUMBER(value) SANITIZE_TEXT(value)
#define SANITIZE_LOCAL_MEM_BYTES SANITIZE_NUMBER(RUNLAB_JUDGE_LOCAL_BYTES)

/* Returns 1 when the oclgrind command is installed. */
int sanitize_available(void);

/* Summarises an Oclgrind log: one line per distinct problem (kind, kernel, file:line, first work-item,
   how many times) with a hint; returns the number of distinct problems. */
int sanitize_parse(const char *log, char *text, size_t size);

/* sanitize_parse for a kernel built in root: an uninitialised value that a plain copy ("x[i] = y;") writes to local
   memory is left out, for a copy uses nothing; what the copied value later reaches, Oclgrind reports itself. */
int sanitize_parse_at(const char *log, const char *root, char *text, size_t size);

/* What the reference judge made of one lab: Oclgrind's verdict on its small cases, its findings, its counts. */
struct reference {
    int ran;                  /* Oclgrind judged cases; when 0, why says why not; when 1, a why says which checks
                                 it could not make */
    int judge_failed;         /* Oclgrind failed with every check left out (its crash, limit or missing runtime):
                                 the cases it judged before stand, the others are the device's alone */
    int counts_lost;          /* the technique case went uncounted through no fault of the kernel */
    char why[2048];
    struct case_log *log;     /* its verdict on each case it ran (set before reference_judge_run: the log to fill) */
    int log_given;
    size_t uninitialised_cases; /* the cases of the short sample judged with the uninitialised-value checker */
    int findings;             /* distinct problems found (races, bad accesses, uninitialised values, divergence) */
    char findings_text[8192]; /* one line each, with file:line and a hint */
    struct technique_counts counts; /* the technique case, counted by the kit's plugin */
    int counted;              /* counts holds the technique case's counts */
};

/* Runs lab's small exact cases (from a device allowing work-groups of max_local; only case only_case when >= 0)
   and then its technique case under Oclgrind, each within a limit, and fills ref (and ref->log, when set); when
   Oclgrind fails, tries again without the kit's plugin. Once every case ran and nothing was found, runs the short
   sample again with the uninitialised-value checker (alone: its failure leaves the verdict's run standing). */
void reference_judge_run(struct grading *g, const struct grade_lab_spec *lab, uint64_t seed, size_t max_local,
                         long only_case, struct reference *ref);

/* Oclgrind's command line around a runner: argv points into the buffers beside it. */
struct oclgrind_command {
    char *argv[12];
    char program[PATH_MAX];
    char log[PATH_MAX + 64];    /* Oclgrind's log, in the lab's reference run folder */
    char plugin[PATH_MAX + 64]; /* the kit's counting plugin */
};

/* Fills command with Oclgrind's command line around a runner of lab (--device oclgrind): data races, its log, the
   kit's counting plugin, the devices' local memory. Returns 0, or -1 when Oclgrind is not installed. */
int sanitize_wrapper(struct grading *g, const struct grade_lab_spec *lab, struct oclgrind_command *command);

/* Frees what reference_judge_run allocated. */
void sanitize_free(struct reference *ref);

/* Whether a and b are the same case: data, shape, work-group, tiling. */
int reference_same_case(const struct grade_case *a, const struct grade_case *b);

/* The reference judge's verdict on case c (the two runs may list different cases: a device that cannot launch a
   tile leaves its cases out), or NULL when it did not run it. */
const struct case_verdict *reference_verdict_of(const struct reference *ref, const struct grade_case *c);

#endif
