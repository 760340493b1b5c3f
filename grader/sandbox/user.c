/* The user layer: as root, untrusted code runs as one of clkit-runner and clkit-runner-1..15 that no other live
   grading holds (a batch's worker N from clkit-runner-N on), so that it can neither read the grader's files nor
   starve or read another grading's runs. */
#include "sandbox/layers.h"
#include "sandbox/sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define RUNNER_USER "clkit-runner"
#define RUNNER_USERS 16 /* clkit-runner and clkit-runner-1..15, as ./setup makes them */
#define CLAIM_DIR "/run/clkit-runners" /* root's: one lock file per runner user, held by the grading using it */
#define CLAIM_WAIT_NS 250000000L

#define MAX_WORKERS 64 /* a batch's workers that one process may confine code for, one after another */

/* Each worker's user in this process, and the lock (held by the process that took it) that makes it its alone. */
static struct {
    int resolved;
    struct sandbox_user user;
    int fd;
    pid_t pid;
} workers[MAX_WORKERS];
static int worker_index; /* this process's worker in a batch: 0 for the first or only one */
static int judges = 1;   /* judges side by side in this batch */

static void release(int worker)
{
    if (workers[worker].fd > 0)
        close(workers[worker].fd); /* in a fork, the lock stays with the process that took it */
    workers[worker].fd = 0;
    workers[worker].pid = 0;
    workers[worker].resolved = 0;
}

static struct passwd *runner_user(int slot)
{
    char name[32];
    if (slot == 0)
        return getpwnam(RUNNER_USER);
    snprintf(name, sizeof name, RUNNER_USER "-%d", slot);
    return getpwnam(name);
}

/* The folder of the claims, made by root and trusted only when root's alone (no link, no one else can write). */
static int claim_dir(void)
{
    struct stat st;
    if (mkdir(CLAIM_DIR, 0700) != 0 && errno != EEXIST)
        return -1;
    return lstat(CLAIM_DIR, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == 0 && !(st.st_mode & 022) ? 0 : -1;
}

/* Takes user name for the current worker for as long as this process (or a fork of it) lives: the kernel drops
   the lock when it ends, a crash included. Returns 1 when taken, 0 when another grading (or another worker of this
   process) holds it. */
static int take_user(const char *name)
{
    char path[96];
    int fd;
    snprintf(path, sizeof path, CLAIM_DIR "/%s.lock", name);
    if ((fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600)) < 0)
        return 0;
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        close(fd);
        return 0;
    }
    workers[worker_index].fd = fd;
    workers[worker_index].pid = getpid();
    return 1;
}

/* A runner user that no other live grading holds, from this worker's own on: gradings side by side (separate
   ./grade runs, a batch's workers) then never share a user, nor its per-user task cap. Waits while all are held.
   Without claims (the folder cannot be kept), the worker's own user or the first; NULL: none made. */
static struct passwd *claim_runner(void)
{
    const struct timespec pause = {0, CLAIM_WAIT_NS};
    int users = 0, told = 0;
    while (users < RUNNER_USERS && runner_user(users))
        users++;
    if (users == 0 || claim_dir() != 0)
        return users ? runner_user(worker_index < users ? worker_index : 0) : NULL;
    for (;;) {
        for (int i = 0; i < users; i++) {
            struct passwd *pw = runner_user((worker_index + i) % users);
            if (pw && take_user(pw->pw_name))
                return pw;
        }
        if (!told++)
            fprintf(stderr, "clkit: all %d runner users are held by other gradings on this machine; waiting for one "
                    "to end%s\n", users, users == 1 ? " (./setup makes clkit-runner-1..15, one per grading)" : "");
        nanosleep(&pause, NULL);
    }
}

void sandbox_worker(int worker)
{
    worker_index = worker > 0 && worker < MAX_WORKERS ? worker : 0;
    /* A batch's only worker, or workers sharing the one user, keep the batch's claim (and its folders' owner). */
    if (judges > 1 && runner_user(1))
        for (int i = 0; i < MAX_WORKERS; i++)
            if (workers[i].pid != 0 && workers[i].pid != getpid())
                release(i); /* a worker's claims inherited from the batch: its own claim is its own */
}

void sandbox_user_for_workers(int count)
{
    judges = count > 1 ? count : 1;
    if (judges > 1 && runner_user(1) && workers[0].pid == getpid())
        release(0); /* each worker claims its own: this claim would only keep one from them */
    else if (judges > 1 && !runner_user(1))
        sandbox_user(); /* workers sharing the one user inherit this claim */
}

const struct sandbox_user *sandbox_user(void)
{
    struct passwd *pw;
    struct sandbox_user *runner = &workers[worker_index].user;
    int shared_claim = judges > 1 && !runner_user(1) && workers[0].resolved;
    if (workers[worker_index].resolved)
        return runner;
    if (shared_claim && worker_index > 0) /* workers sharing the one user: the batch's claim */
        return &workers[0].user;
    workers[worker_index].resolved = 1;
    *runner = (struct sandbox_user){.uid = getuid(), .gid = getgid()};
    if (geteuid() != 0)
        return runner;
    runner->shared = runner_user(1) == NULL; /* workers share the one user when there is none for each */
    if (!(pw = claim_runner()))
        pw = getpwnam("nobody");
    runner->claimed = workers[worker_index].fd > 0;
    if (pw && pw->pw_uid != 0) {
        runner->drop = 1;
        runner->uid = pw->pw_uid;
        runner->gid = pw->pw_gid;
        snprintf(runner->name, sizeof runner->name, "%s", pw->pw_name);
    }
    return runner;
}

int sandbox_drops_privileges(void)
{
    return sandbox_user()->drop;
}

int sandbox_give(const char *path)
{
    const struct sandbox_user *user = sandbox_user();
    if (!user->drop)
        return 0;
    return lchown(path, user->uid, user->gid); /* never through a link the runner planted */
}

static int holds(void)
{
    return sandbox_user()->drop;
}

static void phrase(int held, char *text, size_t size)
{
    const struct sandbox_user *user = sandbox_user();
    snprintf(text, size, "%s%s%s", held ? "user " : "the grader's own user (not root: no user to drop to)",
             held ? user->name : "", held && user->claimed && !(user->shared && judges > 1) ? " (held by this grading alone)"
                                                                                          : "");
}

static int apply(struct layer_run *run)
{
    const struct sandbox_user *user = sandbox_user();
    (void)run;
    return setgroups(0, NULL) == 0 && setgid(user->gid) == 0 && setuid(user->uid) == 0 ? 0 : -1;
}

const struct sandbox_layer layer_user = {
    .name = "user",
    .confines = "runs as an unprivileged user no other live grading holds (clkit-runner or clkit-runner-N, claimed "
                "by a lock): none of the grader's files, no other grading's runs or task cap",
    .clause = 1,
    .holds = holds,
    .phrase = phrase,
    .apply = apply,
};
