/* One grading job's context: the kit, the folder being graded, the scratch space and what confined code must not
   see, the report's style and the seed. */
#ifndef CLKIT_GRADER_GRADING_H
#define CLKIT_GRADER_GRADING_H

#include "judge/config.h"
#include "judge/result.h"
#include "sandbox/sandbox.h"
#include "judge/course.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

/* Where a job's text goes: its progress lines and, above the judge, its report. */
struct report_style {
    FILE *out;
    int colour;  /* ANSI colours (a terminal, and NO_COLOR unset) */
    int verbose; /* show the details of passed tests too */
};

struct grading {
    struct judge_config config; /* built once by the command; a worker sets its own device in it */
    char root[PATH_MAX];       /* the kit, where build/, kernels/ and the Makefile live */
    char source_dir[PATH_MAX]; /* labs, solutions, or a submission */
    const char *submission;    /* the submission being graded, NULL for labs/ or solutions/ */
    char scratch[64];          /* the kit's copy for confined code, and a folder for each confined run */
    char replay[PATH_MAX + 128]; /* the command that replays a case of the lab being graded, less --case/--seed */
    char hidden_paths[SANDBOX_MAX_HIDDEN][PATH_MAX]; /* what confined code must not see: the kit, the submissions */
    const char *hidden[SANDBOX_MAX_HIDDEN];
    char kernels_dir[PATH_MAX + 16];  /* root/kernels: baselines and probes */
    char profiles_dir[PATH_MAX + 32]; /* root/grader/profiles */
    struct report_style style;
    uint64_t seed;
    double started;            /* when grading of this source began, for --budget */
    int device_is_gpu;
    size_t max_local;          /* the largest work-group the last device's build allows */
    struct course course;      /* where speed counts, and for how many points */
};

/* Finds the kit (CLKIT_ROOT, else where the grader was built), reads the course (--course, else the kit's
   course.conf) and makes the scratch directory; returns 0 or 2. */
int grading_open(struct grading *g);

/* Makes g a scratch directory of its own in /tmp with the kit staged in it (a batch worker's, so that workers
   grading side by side share no run folder); returns 0, or 2 after saying why. */
int grading_new_scratch(struct grading *g);

/* Removes the scratch directory. */
void grading_close(struct grading *g);

/* Adds a folder that confined code must not see (under bubblewrap), such as a class's submissions. */
void grading_hide(struct grading *g, const char *path);

/* Sets the folder of lab folders to grade: labs/, solutions/ or a submission; returns 0, or 2 when it is missing. */
int grading_set_source(struct grading *g, const char *submission);


#endif
