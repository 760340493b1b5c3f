/* The confinement layers of untrusted code as a table: each layer says what it confines, whether it holds on this
   machine, and applies itself in the confined child before exec. A new layer is one file with its record, one row
   of the table in layers.c and its declaration here. */
#ifndef CLKIT_GRADER_SANDBOX_LAYERS_H
#define CLKIT_GRADER_SANDBOX_LAYERS_H

#include "sandbox/policy.h"

#include <stdio.h>
#include <sys/resource.h>
#include <sys/types.h>

#define LAYER_MAX_ARGS 96
#define LAYER_OPEN_FILES 256 /* a confined process's open files */

/* One confined run, as the layers see it in its child: the policy, its process cap, and the program it executes
   (a wrapping layer, bubblewrap, points argv at its own wrapped[]). */
struct layer_run {
    const struct sandbox_policy *policy;
    rlim_t tasks;
    char tasks_inside[32]; /* prlimit's --nproc argument where bubblewrap sets the task cap inside its user
                              namespace (only the run's own tasks count there), or "": the limits layer sets it */
    char *const *argv;
    const char *wrapped[LAYER_MAX_ARGS];
};

struct sandbox_layer {
    const char *name;     /* "seccomp" */
    const char *confines; /* what it takes from confined code, in words, for ./grade --confinement */
    int clause;           /* in the report's confinement line after "; " (a layer a machine may lack), else ", " */
    /* 1 when it holds for untrusted code on this machine: decided in the judge before any fork (it may probe), and
       the same answer in the child. */
    int (*holds)(void);
    /* Its words in the report's confinement line, given whether it holds ("" for none). */
    void (*phrase)(int holds, char *text, size_t size);
    /* In the confined child, before exec, in table order: returns 0, or -1 (the child then exits 126). NULL: the
       judge arranges it for every run (a session, an environment, a scratch copy). */
    int (*apply)(struct layer_run *run);
};

/* The layers in the order the child applies them, ended by NULL. */
extern const struct sandbox_layer *const sandbox_layer_table[];

/* The layers (one file each, but session, environment and scratch copy in layers.c). */
extern const struct sandbox_layer layer_session, layer_limits, layer_environment, layer_user, layer_seccomp,
    layer_scratch, layer_bubblewrap, layer_landlock;

/* Decides every layer's holds() in the judge, before a confined child is forked. */
void sandbox_layers_resolve(void);

/* In the confined child: applies every layer that holds, in table order; returns 0, or -1 when one fails. */
int sandbox_layers_apply(struct layer_run *run);

/* Describes the layers that hold for untrusted code on this machine in one line, the report's: the phrases of the
   layers that are not clauses joined by ", ", then each clause after "; ". */
void sandbox_layers(char *text, size_t size);

/* Prints each layer, whether it holds here, and what it confines, one a line under a header (--confinement). */
void sandbox_layers_print(FILE *out);

/* The memory all of a run's processes may hold together: 0 for trusted code (limits.c). */
size_t sandbox_memory_limit_of(const struct sandbox_policy *policy);

/* The user untrusted code runs as (user.c): resolved on first call, again after sandbox_worker. */
struct sandbox_user {
    int drop;   /* 1: another, unprivileged user (the grader is root) */
    int shared; /* a batch worker without a user of its own: the task cap is shared */
    int claimed; /* held by this grading alone (a lock no other live grading on the machine holds) */
    uid_t uid;
    gid_t gid;
    char name[32];
};
const struct sandbox_user *sandbox_user(void);

/* For judges side by side in this process's batch: workers with users of their own each claim one (this process
   gives its claim up); workers sharing the one user share this process's claim. */
void sandbox_user_for_workers(int judges);

/* Where prlimit sets the task cap inside bubblewrap's user namespace. */
#define LAYER_PRLIMIT "/usr/bin/prlimit"

#endif
