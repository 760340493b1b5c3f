/* The user layer: as root, untrusted code runs as clkit-runner (a batch's worker N as clkit-runner-N), so that it
   can neither read the grader's files nor starve or read another worker's runs. */
#include "sandbox/layers.h"
#include "sandbox/sandbox.h"

#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <unistd.h>

#define RUNNER_USER "clkit-runner"

static struct sandbox_user runner;
static int resolved;
static int worker_index; /* this process's worker in a batch: 0 for the first or only one */

void sandbox_worker(int worker)
{
    worker_index = worker > 0 ? worker : 0;
    resolved = 0;
}

const struct sandbox_user *sandbox_user(void)
{
    struct passwd *pw;
    char other[32];
    if (resolved)
        return &runner;
    resolved = 1;
    runner = (struct sandbox_user){.uid = getuid(), .gid = getgid()};
    if (geteuid() != 0)
        return &runner;
    /* Worker 0 shares its user when the workers beside it have none of their own. */
    snprintf(other, sizeof other, RUNNER_USER "-%d", worker_index > 0 ? worker_index : 1);
    runner.shared = getpwnam(other) == NULL;
    pw = worker_index > 0 && !runner.shared ? getpwnam(other) : NULL;
    if (!pw)
        pw = getpwnam(RUNNER_USER);
    if (!pw)
        pw = getpwnam("nobody");
    if (pw && pw->pw_uid != 0) {
        runner.drop = 1;
        runner.uid = pw->pw_uid;
        runner.gid = pw->pw_gid;
        snprintf(runner.name, sizeof runner.name, "%s", pw->pw_name);
    }
    return &runner;
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
             held ? user->name : "", held && !user->shared ? " (a batch's workers: one user each)" : "");
}

static int apply(struct layer_run *run)
{
    const struct sandbox_user *user = sandbox_user();
    (void)run;
    return setgroups(0, NULL) == 0 && setgid(user->gid) == 0 && setuid(user->uid) == 0 ? 0 : -1;
}

const struct sandbox_layer layer_user = {
    .name = "user",
    .confines = "runs as an unprivileged user of its own (clkit-runner, a batch worker's clkit-runner-N): none of "
                "the grader's files, no other worker's runs",
    .clause = 1,
    .holds = holds,
    .phrase = phrase,
    .apply = apply,
};
