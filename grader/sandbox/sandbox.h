/* Confinement: runs programs in their own session with a hard deadline, resource limits, a clean environment,
   and, where the system allows, as an unprivileged user inside bubblewrap. */
#ifndef CLKIT_GRADER_SANDBOX_H
#define CLKIT_GRADER_SANDBOX_H

#include "sandbox/policy.h"

#include <stddef.h>
#include <sys/types.h>

enum sandbox_end {
    SANDBOX_EXITED,
    SANDBOX_SIGNALED,
    SANDBOX_TIMED_OUT,
    SANDBOX_STOPPED, /* the judge stopped it: it broke the grader's protocol */
    SANDBOX_OUT_OF_MEMORY, /* the judge stopped it: its processes together used more than its memory limit */
    SANDBOX_FAILED
};

/* How the child ended and what it printed (NUL-terminated, caller frees). */
struct sandbox_outcome {
    enum sandbox_end end;
    int code; /* exit status, or the signal number */
    char *output;
    size_t output_length;
    size_t output_dropped; /* bytes printed past the cap, read and thrown away */
    size_t memory_limit;   /* the cap it ran under, in bytes (0: trusted, none) */
    size_t peak_bytes;     /* the most memory its processes held together, as sampled and at exit */
};

/* A running confined program. */
struct sandbox_child {
    pid_t pid;
    int output_fd;           /* its stdout and stderr */
    int request_fd;          /* to its stdin (wire), or -1 */
    int reply_fd;            /* from its fd 3 (wire), or -1 */
    double deadline;         /* on the monotonic clock */
    size_t output_limit;
    int wrapped;             /* run through bubblewrap, which reports a child's signal as 128 + its number */
    int stop_soon;           /* finish gives it half a second to end by itself, then stops it */
    size_t memory_limit;     /* 0: not watched (trusted) */
    double next_watch;       /* when sandbox_watch next samples its memory */
    int over_memory;         /* sandbox_watch stopped it */
    char peak_file[4200];    /* where its peak is noted for the kit's measured need, or "" */
    double started;          /* when it was spawned (CLKIT_STAGE_TIMES) */
    char shown[96];          /* its folder and program, as CLKIT_STAGE_TIMES names the run */
    struct sandbox_outcome outcome;
};

/* Starts argv[0] (a path) under policy; returns 0, or -1 when it cannot be started. */
int sandbox_spawn(char *const argv[], const struct sandbox_policy *policy, struct sandbox_child *child);

/* Reads what the child has printed so far, keeping up to its output limit; returns -1 at end of file. */
int sandbox_drain(struct sandbox_child *child);

/* Samples the memory that the child and everything it started hold together (at most every 50 ms): over its
   limit, kills them all and returns -1 (sandbox_finish then says it was stopped for memory); else 0. */
int sandbox_watch(struct sandbox_child *child);

/* The CPU time, in seconds, that every process below this one has used (the runs it started, not the helper
   judges beside it): what a run has had of the machine, however busy the machine is. */
double sandbox_cpu_seconds(void);

/* Waits for the child until its deadline (also after it closes its output), then kills its process group and
   every process it left behind, and fills outcome (which takes the output). */
void sandbox_finish(struct sandbox_child *child, struct sandbox_outcome *outcome);

/* Runs argv[0] under policy to the end; outcome holds its output. Returns 0, or -1 when it could not start. */
int sandbox_exec(char *const argv[], const struct sandbox_policy *policy, struct sandbox_outcome *outcome);

/* Finds name in PATH and writes its full path to path; returns 0, or -1 when it is not installed. */
int sandbox_find_program(const char *name, char *path, size_t size);

/* Makes this process the reaper of every orphan it leaves, so nothing outlives the grader; call once at start,
   and again in a forked child that spawns confined programs (the setting is not inherited). */
void sandbox_init(void);

/* Kills and reaps every process that came back to this reaper: what a finished run or child left behind. */
void sandbox_kill_orphans(void);

/* Marks pid, a child of this process that judges alongside it (keep 1), as no leftover for sandbox_kill_orphans
   to kill; keep 0 forgets it. */
void sandbox_keep(pid_t pid, int keep);

/* Says that judges side by side (a batch's workers) run confined code as the same user: the per-user task cap then
   allows each of them the allowance of one run. Only where a worker has no user of its own (see sandbox_worker). */
void sandbox_share_tasks(int judges);

/* Says that judges side by side (one submission's labs, 1: none) confine code as this grading's one user: each run's
   task cap then allows each of them the allowance of one run, as sandbox_share_tasks does for a batch. */
void sandbox_share_user(int judges);

/* Makes this process (a batch's worker, 0 for the first or only one) confine code as that worker's own user,
   clkit-runner-N (N = worker, ./setup makes them), so that no worker can starve another of tasks or read its
   folders; the shared clkit-runner where that user is missing. Call before anything is confined. */
void sandbox_worker(int worker);

/* Returns 1 when untrusted code runs as another, unprivileged user (the grader is root), else 0. */
int sandbox_drops_privileges(void);

/* Gives path (a folder the judge made) to the user untrusted code runs as, so that it can write there. */
int sandbox_give(const char *path);

/* Describes an outcome in words: "timed out after 30 s", "crashed with SIGSEGV (...)", "exited with status 3". */
void sandbox_describe(const struct sandbox_outcome *outcome, int timeout_s, char *text, size_t size);

/* Frees the output held by outcome. */
void sandbox_outcome_free(struct sandbox_outcome *outcome);

#endif
