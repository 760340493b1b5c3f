/* The bubblewrap layer: the program runs inside bwrap, with no network, a read-only root, private /tmp, /dev/shm
   and /run, and the kit and classmates hidden. */
#include "sandbox/layers.h"
#include "sandbox/sandbox.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#define SHM_LIMIT "16777216" /* bytes of the private /dev/shm */
#define TMP_LIMIT "268435456" /* bytes of the private /tmp */

static int bubblewrap = -1; /* unknown until first asked */

/* Whether bwrap runs here: a probe of /bin/true, confined as submitted code is (bwrap tentatively on). */
static int probe(void)
{
    const char *setting = getenv("CLKIT_BUBBLEWRAP");
    struct sandbox_policy policy = {.untrusted = 1, .timeout_s = 10, .output_limit = 4096};
    struct sandbox_outcome outcome;
    char *argv[] = {"/bin/true", NULL};
    if (setting && strcmp(setting, "0") == 0)
        return 0;
    bubblewrap = 1;
    if (sandbox_exec(argv, &policy, &outcome) != 0 || outcome.end != SANDBOX_EXITED || outcome.code != 0)
        bubblewrap = 0;
    sandbox_outcome_free(&outcome);
    return bubblewrap;
}

static int holds(void)
{
    if (bubblewrap < 0 && access("/usr/bin/bwrap", X_OK) != 0)
        bubblewrap = 0;
    return bubblewrap < 0 ? probe() : bubblewrap;
}

/* bwrap's arguments: a read-only root, the scratch folders, hidden kit and classmates, no network, own pids. */
static void wrap(const struct sandbox_policy *p, const char *tasks_inside, char *const argv[], const char **out,
                 int max)
{
    struct stat st;
    int n = 0;
    /* Private, small /dev/shm and /run: nothing a run leaves there reaches the next, nor does a socket there. */
    const char *head[] = {"/usr/bin/bwrap", "--ro-bind", "/", "/", "--dev-bind", "/dev", "/dev", "--proc", "/proc",
                          "--size", SHM_LIMIT, "--tmpfs", "/dev/shm", "--size", "65536", "--tmpfs", "/run",
                          "--unshare-all", "--die-with-parent", "--new-session", NULL};
    for (int i = 0; head[i]; i++)
        out[n++] = head[i];
    for (int i = 0; i < SANDBOX_MAX_HIDDEN; i++)
        if (p->hidden[i] && stat(p->hidden[i], &st) == 0 && S_ISDIR(st.st_mode))
            out[n++] = "--size", out[n++] = "65536", out[n++] = "--tmpfs", out[n++] = p->hidden[i];
    /* A private /tmp in memory, capped so that files there cannot take the machine's memory. */
    out[n++] = "--size", out[n++] = TMP_LIMIT, out[n++] = "--tmpfs", out[n++] = "/tmp";
    if (p->readable)
        out[n++] = "--ro-bind", out[n++] = p->readable, out[n++] = p->readable;
    if (p->writable)
        out[n++] = "--bind", out[n++] = p->writable, out[n++] = p->writable;
    if (p->workdir)
        out[n++] = "--chdir", out[n++] = p->workdir;
    out[n++] = "--";
    if (tasks_inside[0]) /* the task cap inside the namespace, where only this run's tasks count */
        out[n++] = LAYER_PRLIMIT, out[n++] = tasks_inside, out[n++] = "--";
    for (int i = 0; argv[i] && n < max - 1; i++)
        out[n++] = argv[i];
    out[n] = NULL;
}

static int apply(struct layer_run *run)
{
    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
    wrap(run->policy, run->tasks_inside, run->argv, run->wrapped, LAYER_MAX_ARGS);
    run->argv = (char *const *)run->wrapped;
    return 0;
}

static void phrase(int held, char *text, size_t size)
{
    snprintf(text, size, "%s", held ? "bubblewrap: no network, read-only root, private /tmp, /dev/shm and /run, kit "
                                      "hidden"
                                    : "no bubblewrap (not installed, or namespaces not allowed here)");
}

const struct sandbox_layer layer_bubblewrap = {
    .name = "bubblewrap",
    .confines = "no network, a read-only root, private /tmp, /dev/shm and /run, its own pids, the kit and "
                "classmates hidden (off with CLKIT_BUBBLEWRAP=0)",
    .clause = 1,
    .holds = holds,
    .phrase = phrase,
    .apply = apply,
};
