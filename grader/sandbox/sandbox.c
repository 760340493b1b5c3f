#define _GNU_SOURCE /* pipe2, environ */
#include "sandbox/sandbox.h"

#include "sandbox/layers.h"
#include "timing.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define WATCH_PERIOD_S 0.05 /* how often a run's memory is sampled: what it can take beyond its cap meanwhile */
#define MAX_PROCESSES 8192
#define PEAK_FILE ".clkit-peak" /* in the run's folder: the most it held, for a solutions run's measured need */
#define TASK_ALLOWANCE 128
#define UNCLAIMED_SHARES 16 /* gradings side by side that a user no claim holds leaves room for */
#define MAX_ENV 24

static rlim_t task_shares = 1; /* judges side by side that confine code as the same user */
static int one_users_judges;   /* those judges are one grading's, which holds its user alone */

void sandbox_share_tasks(int judges)
{
    task_shares = judges > 1 ? (rlim_t)judges : 1;
    sandbox_user_for_workers(judges);
}

void sandbox_share_user(int judges)
{
    task_shares = judges > 1 ? (rlim_t)judges : 1;
    one_users_judges = judges > 1;
}

/* The share of the task cap a run gets: one allowance, unless its user is shared with workers beside it. A user no
   claim holds (nobody, where ./setup made no runner users) may be any grading's on this machine, whose tasks grow
   after this run's cap is set: its cap leaves room for UNCLAIMED_SHARES runs side by side, or a right kernel's
   runner would fail to start its threads beside another grading (PoCL: "pthread_scheduler_init ... Resource
   temporarily unavailable"). */
static rlim_t task_share(void)
{
    const struct sandbox_user *user = sandbox_user();
    if (user->drop && !user->claimed)
        return task_shares > UNCLAIMED_SHARES ? task_shares : UNCLAIMED_SHARES;
    return task_shares > 1 && (one_users_judges || !user->drop || user->shared) ? task_shares : 1;
}

/* Tasks (processes and threads) the user already has, so a per-user cap leaves room for exactly our allowance. */
static rlim_t tasks_of(uid_t uid)
{
    DIR *d = opendir("/proc");
    struct dirent *e;
    rlim_t tasks = 0;
    while (d && (e = readdir(d)) != NULL) {
        char path[300], line[256];
        unsigned owner = 0, threads = 0;
        FILE *f;
        if (e->d_name[0] < '0' || e->d_name[0] > '9')
            continue;
        snprintf(path, sizeof path, "/proc/%s/status", e->d_name);
        if (!(f = fopen(path, "r")))
            continue;
        while (fgets(line, sizeof line, f)) {
            sscanf(line, "Uid: %u", &owner);
            sscanf(line, "Threads: %u", &threads);
        }
        fclose(f);
        if (owner == uid)
            tasks += threads;
    }
    if (d)
        closedir(d);
    return tasks;
}

/* A clean environment: a fixed PATH and locale, HOME and caches in the writable folder, and the few variables
   that choose an OpenCL device, Slurm's GPU choice among them (or a task would take another task's GPU). */
static void clean_environment(const struct sandbox_policy *p, char env[MAX_ENV][1024], char **envp)
{
    const char *kept[] = {"OCL_ICD_VENDORS", "OCL_ICD_FILENAMES", "POCL_DEVICES", "POCL_MAX_PTHREAD_COUNT",
                          "CUDA_VISIBLE_DEVICES", "SLURM_JOB_GPUS", "SLURM_STEP_GPUS", "GPU_DEVICE_ORDINAL",
                          "ROCR_VISIBLE_DEVICES", "LD_LIBRARY_PATH", "NO_COLOR", NULL};
    const char *home = p->writable ? p->writable : "/tmp";
    int n = 0;
    snprintf(env[n++], 1024, "PATH=/usr/local/bin:/usr/bin:/bin");
    snprintf(env[n++], 1024, "LC_ALL=C");
    snprintf(env[n++], 1024, "HOME=%s", home);
    snprintf(env[n++], 1024, "TMPDIR=%s", home);
    snprintf(env[n++], 1024, "POCL_CACHE_DIR=%s/pocl-cache", home); /* scratch.c fills both from trusted copies */
    snprintf(env[n++], 1024, "CUDA_CACHE_PATH=%s/nv-cache", home);
    snprintf(env[n++], 1024, "XDG_CACHE_HOME=%s/cache", home);
    /* Oclgrind on one thread: a kernel that reads memory it never wrote gets what an earlier work-group left there,
       and that must be the same on every machine. */
    snprintf(env[n++], 1024, "OCLGRIND_NUM_THREADS=1");
    for (const char *at = p->setting; at && *at && n < MAX_ENV - 8;) { /* one NAME=value a line */
        size_t length = strcspn(at, "\n");
        if (length < 1000)
            snprintf(env[n++], 1024, "%.*s", (int)length, at);
        at += length + (at[length] == '\n');
    }
    for (int i = 0; kept[i] && n < MAX_ENV - 1; i++)
        if (getenv(kept[i]) && strlen(getenv(kept[i])) < 900)
            snprintf(env[n++], 1024, "%s=%s", kept[i], getenv(kept[i]));
    for (int i = 0; i < n; i++)
        envp[i] = env[i];
    envp[n] = NULL;
}

/* In the child: only the descriptors it needs, its own session; untrusted code then takes on every layer that
   holds (sandbox/layers.c), one of which may wrap the program; then exec. */
static void become_confined(char *const argv[], const struct sandbox_policy *p, const int fds[4], rlim_t tasks,
                            char **envp)
{
    struct layer_run run = {.policy = p, .tasks = tasks, .argv = argv};
    if (p->untrusted && layer_bubblewrap.holds() && access(LAYER_PRLIMIT, X_OK) == 0)
        snprintf(run.tasks_inside, sizeof run.tasks_inside, "--nproc=%lu:%lu", (unsigned long)TASK_ALLOWANCE,
                 (unsigned long)TASK_ALLOWANCE);
    setsid();
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    int high[4]; /* moved out of the way first, so that no target number overwrites another source */
    for (int i = 0; i < 4; i++)
        high[i] = fds[i] >= 0 && (i < 3 || fds[i] > 0) ? fcntl(fds[i], F_DUPFD_CLOEXEC, 100) : -1;
    dup2(high[0], STDIN_FILENO);
    dup2(high[1], STDOUT_FILENO);
    dup2(high[1], STDERR_FILENO);
    if (high[2] >= 0)
        dup2(high[2], 3);
    if (high[3] >= 0)
        dup2(high[3], 4);
    for (int fd = high[3] >= 0 ? 5 : high[2] >= 0 ? 4 : 3; fd < LAYER_OPEN_FILES * 4; fd++)
        close(fd);
    if (p->workdir && chdir(p->workdir) != 0)
        _exit(126);
    if (p->untrusted && sandbox_layers_apply(&run) != 0)
        _exit(126);
    execve(run.argv[0], run.argv, p->untrusted ? envp : environ);
    if (run.argv != argv)
        _exit(126); /* the wrapper itself would not start */
    fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
    _exit(127);
}

static int open_pipes(int wire, int out[2], int request[2], int reply[2])
{
    request[0] = request[1] = reply[0] = reply[1] = -1;
    if (pipe2(out, O_CLOEXEC) != 0)
        return -1;
    if (!wire)
        return (request[0] = open("/dev/null", O_RDONLY | O_CLOEXEC)) >= 0 ? 0 : -1;
    return pipe2(request, O_CLOEXEC) == 0 && pipe2(reply, O_CLOEXEC) == 0 ? 0 : -1;
}

static void close_fd(int *fd)
{
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
}

static const char *last_part(const char *path)
{
    const char *slash = path ? strrchr(path, '/') : NULL;
    return slash ? slash + 1 : path ? path : "";
}

/* A run as CLKIT_STAGE_TIMES names it: its folder, its program and the last path it is given. */
static void name_run(char *const argv[], const struct sandbox_policy *p, char *text, size_t size)
{
    const char *runs = NULL;
    for (int i = 1; argv[i]; i++)
        runs = argv[i][0] == '/' ? argv[i] : runs;
    snprintf(text, size, "%s %s%s%s", last_part(p->writable), last_part(argv[0]),
             runs ? " " : "", runs ? last_part(runs) : "");
}

/* With CLKIT_STAGE_TIMES=1, says on stderr how long a confined run took (pid: the judge that ran it). */
static void show_run(const struct sandbox_child *child)
{
    if (clk_stage_times())
        fprintf(stderr, "run %s (judge %ld): %.2f s\n", child->shown, (long)getpid(), clk_now_s() - child->started);
}

int sandbox_spawn(char *const argv[], const struct sandbox_policy *p, struct sandbox_child *child)
{
    static char env[MAX_ENV][1024];
    char *envp[MAX_ENV];
    int out[2] = {-1, -1}, request[2], reply[2];
    rlim_t tasks = TASK_ALLOWANCE;
    memset(child, 0, sizeof *child);
    child->request_fd = child->reply_fd = child->output_fd = -1;
    child->output_limit = p->output_limit;
    child->deadline = clk_now_s() + p->timeout_s;
    child->started = clk_now_s();
    name_run(argv, p, child->shown, sizeof child->shown);
    if (p->untrusted) {
        sandbox_layers_resolve();
        tasks *= task_share();
        /* The cap is per user: what that user runs already (other confined runs beside this one, a batch's other
           workers) comes on top of this run's allowance. */
        tasks += tasks_of(sandbox_user()->uid);
    }
    clean_environment(p, env, envp);
    fflush(NULL);
    if (open_pipes(p->wire, out, request, reply) != 0 || (child->pid = fork()) < 0) {
        int fds[] = {out[0], out[1], request[0], request[1], reply[0], reply[1]};
        for (int i = 0; i < 6; i++)
            close_fd(&fds[i]);
        child->outcome.end = SANDBOX_FAILED;
        return -1;
    }
    if (child->pid == 0) {
        int fds[4] = {request[0], out[1], reply[1], p->shared_fd};
        become_confined(argv, p, fds, tasks, envp);
    }
    close_fd(&out[1]);
    close_fd(&request[0]);
    close_fd(&reply[1]);
    child->output_fd = out[0];
    child->wrapped = p->untrusted && layer_bubblewrap.holds();
    child->memory_limit = child->outcome.memory_limit = sandbox_memory_limit_of(p);
    if (p->untrusted && p->writable)
        snprintf(child->peak_file, sizeof child->peak_file, "%s/" PEAK_FILE, p->writable);
    child->request_fd = request[1];
    child->reply_fd = reply[0];
    fcntl(child->output_fd, F_SETFL, O_NONBLOCK);
    if (child->reply_fd >= 0)
        fcntl(child->reply_fd, F_SETFL, O_NONBLOCK);
    return 0;
}

int sandbox_drain(struct sandbox_child *child)
{
    char chunk[16384];
    struct sandbox_outcome *o = &child->outcome;
    for (;;) {
        ssize_t got = child->output_fd >= 0 ? read(child->output_fd, chunk, sizeof chunk) : 0;
        size_t keep;
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0 && errno == EAGAIN)
            return 0;
        if (got <= 0) {
            close_fd(&child->output_fd);
            return -1;
        }
        keep = o->output_length < child->output_limit ? child->output_limit - o->output_length : 0;
        keep = keep < (size_t)got ? keep : (size_t)got;
        o->output_dropped += (size_t)got - keep;
        if (keep) {
            char *grown = realloc(o->output, o->output_length + keep + 1);
            if (!grown)
                return 0;
            memcpy(grown + o->output_length, chunk, keep);
            o->output = grown;
            o->output_length += keep;
            grown[o->output_length] = '\0';
        }
    }
}

/* Kills every process the child left behind: its group, then the orphans, which come back to the grader (a
   child subreaper) however they left their session; graders running side by side never touch each other's. */
static void kill_leftovers(pid_t pid)
{
    kill(-pid, SIGKILL);
    sandbox_kill_orphans();
}

#define MAX_KEPT 32 /* a batch's workers (CLI_MAX_JOBS), or a judge's helper judges */
static pid_t kept[MAX_KEPT]; /* helper judges: children of this process that are not leftovers */

void sandbox_keep(pid_t pid, int keep)
{
    for (int i = 0; i < MAX_KEPT; i++)
        if (keep ? kept[i] == 0 : kept[i] == pid) {
            kept[i] = keep ? pid : 0;
            return;
        }
}

static int is_kept(pid_t pid)
{
    for (int i = 0; i < MAX_KEPT; i++)
        if (kept[i] == pid)
            return 1;
    return 0;
}

/* Whether the kernel lists each thread's children in /proc (CONFIG_PROC_CHILDREN), asked once. */
static int have_children_lists(void)
{
    static int known = -1;
    char path[96];
    if (known < 0) {
        snprintf(path, sizeof path, "/proc/%ld/task/%ld/children", (long)getpid(), (long)getpid());
        known = access(path, R_OK) == 0;
    }
    return known;
}

/* The children of pid, from each of its threads' list in /proc: a walk of this process's own tree, where a scan of
   every process would cost as much as the machine runs (have_children_lists first); returns how many. */
static int children_of(pid_t pid, pid_t *children, int max)
{
    char path[64];
    int count = 0;
    snprintf(path, sizeof path, "/proc/%ld/task", (long)pid);
    DIR *d = opendir(path);
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL) {
        char list[300];
        long child;
        FILE *f;
        if (e->d_name[0] < '0' || e->d_name[0] > '9')
            continue;
        snprintf(list, sizeof list, "/proc/%ld/task/%.20s/children", (long)pid, e->d_name);
        if (!(f = fopen(list, "r")))
            continue;
        while (count < max && fscanf(f, "%ld", &child) == 1)
            children[count++] = (pid_t)child;
        fclose(f);
    }
    if (d)
        closedir(d);
    return count;
}

/* This process's children (not the helper judges it keeps) into found, by a scan of /proc where the kernel keeps no
   lists of children; returns how many. */
static int own_children(pid_t *found, int max)
{
    pid_t listed[256];
    int count = 0, n = have_children_lists() ? children_of(getpid(), listed, 256) : 0;
    for (int i = 0; i < n && count < max; i++)
        if (!is_kept(listed[i]))
            found[count++] = listed[i];
    if (have_children_lists())
        return count;
    DIR *d = opendir("/proc");
    struct dirent *e;
    while (d && count < max && (e = readdir(d)) != NULL) {
        char path[300], line[1024], *name_end;
        int parent = 0;
        FILE *f;
        snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
        if (e->d_name[0] < '0' || e->d_name[0] > '9' || !(f = fopen(path, "r")))
            continue;
        /* The name may hold spaces and parentheses of its choosing: the fields start after its last ')'. */
        if (fgets(line, sizeof line, f) && (name_end = strrchr(line, ')')) &&
            sscanf(name_end + 1, " %*c %d", &parent) == 1 && parent == getpid() && !is_kept((pid_t)atoi(e->d_name)))
            found[count++] = (pid_t)atoi(e->d_name);
        fclose(f);
    }
    if (d)
        closedir(d);
    return count;
}

void sandbox_kill_orphans(void)
{
    for (int round = 0; round < 200; round++) {
        pid_t children[256], found[256];
        int count = 0, n = own_children(children, 256);
        for (int i = 0; i < n; i++)
            if (kill(children[i], SIGKILL) == 0)
                found[count++] = children[i];
        for (int i = 0; i < count; i++) /* leftovers only: a helper judge is waited for by whoever started it */
            waitpid(found[i], NULL, WNOHANG);
        if (!count)
            return;
        usleep(2000);
    }
}

/* A set of pids, open addressing: which processes lie below this one. */
#define PID_SLOTS (MAX_PROCESSES * 2)

static int pid_slot(const pid_t *slots, pid_t pid)
{
    unsigned at = (unsigned)pid * 2654435761u % PID_SLOTS;
    while (slots[at] && slots[at] != pid)
        at = (at + 1) % PID_SLOTS;
    return (int)at;
}

/* What one process holds and has used: its parent, resident pages and CPU ticks (its own and its reaped
   children's). */
struct process_use {
    pid_t pid, parent;
    long pages;
    unsigned long long ticks;
};

/* Reads the use of the process whose stat file f is (pid named); returns 0, or -1 when it is unreadable. */
static int read_use(FILE *f, const char *pid, struct process_use *u)
{
    char line[1024], *name_end;
    unsigned long user, system;
    long child_user, child_system;
    /* Fields 4 (parent), 14 to 17 (CPU ticks) and 24 (resident pages), counted after the name's last ')', for the
       name may hold spaces and parentheses of its choosing. */
    if (!fgets(line, sizeof line, f) || !(name_end = strrchr(line, ')')) ||
        sscanf(name_end + 1, " %*c %d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu %ld %ld %*d %*d %*d %*d %*u "
                             "%*u %ld", &u->parent, &user, &system, &child_user, &child_system, &u->pages) != 6)
        return -1;
    u->pid = (pid_t)atoi(pid);
    u->ticks = user + system + (unsigned long long)(child_user > 0 ? child_user : 0) +
               (unsigned long long)(child_system > 0 ? child_system : 0);
    return 0;
}

/* Reads the use of process pid (its /proc name) into *u; returns 1, or 0 when it is gone or unreadable. */
static int use_of(const char *pid, struct process_use *u)
{
    char path[300];
    FILE *f;
    int read;
    snprintf(path, sizeof path, "/proc/%.20s/stat", pid);
    if (pid[0] < '0' || pid[0] > '9' || !(f = fopen(path, "r")))
        return 0;
    read = read_use(f, pid, u) == 0;
    fclose(f);
    return read;
}

/* Reads the use of the processes below this one (not the helper judges it keeps), down their lists of children;
   returns how many. */
static int read_below(struct process_use *procs)
{
    static pid_t queue[MAX_PROCESSES];
    int count = 0, queued = children_of(getpid(), queue, MAX_PROCESSES), kept_out = 0;
    for (int i = 0; i < queued; i++) /* the helper judges watch their own runs */
        if (!is_kept(queue[i]))
            queue[kept_out++] = queue[i];
    queued = kept_out;
    for (int next = 0; next < queued && count < MAX_PROCESSES; next++) {
        char pid[24];
        snprintf(pid, sizeof pid, "%ld", (long)queue[next]);
        if (use_of(pid, &procs[count]))
            count++;
        queued += children_of(queue[next], queue + queued, MAX_PROCESSES - queued);
    }
    return count;
}

/* Reads every process's use, or where the kernel lists children, only the use of those below this one; returns how
   many. */
static int read_processes(struct process_use *procs)
{
    if (have_children_lists())
        return read_below(procs);
    DIR *d = opendir("/proc");
    struct dirent *e;
    int count = 0;
    while (d && count < MAX_PROCESSES && (e = readdir(d)) != NULL)
        count += use_of(e->d_name, &procs[count]);
    if (d)
        closedir(d);
    return count;
}

/* The resident memory and CPU ticks of every process below this one: a run's, and the orphans it left, which
   come back to this reaper; not the helper judges beside it (sandbox_keep), which watch their own runs. */
static void use_below(size_t *bytes, unsigned long long *ticks)
{
    static struct process_use procs[MAX_PROCESSES];
    static pid_t below[PID_SLOTS];
    int count = read_processes(procs), grew = 1;
    *bytes = 0;
    *ticks = 0;
    memset(below, 0, sizeof below);
    below[pid_slot(below, getpid())] = getpid();
    for (int pass = 0; grew && pass < 64; pass++) { /* one level deeper each pass */
        grew = 0;
        for (int i = 0; i < count; i++) {
            const struct process_use *u = &procs[i];
            int slot = pid_slot(below, u->pid);
            if (below[slot] || !below[pid_slot(below, u->parent)] || (u->parent == getpid() && is_kept(u->pid)))
                continue;
            below[slot] = u->pid;
            *bytes += (size_t)(u->pages > 0 ? u->pages : 0) * (size_t)sysconf(_SC_PAGESIZE);
            *ticks += u->ticks;
            grew = 1;
        }
    }
}

static size_t memory_below(void)
{
    size_t bytes;
    unsigned long long ticks;
    use_below(&bytes, &ticks);
    return bytes;
}

double sandbox_cpu_seconds(void)
{
    size_t bytes;
    unsigned long long ticks;
    use_below(&bytes, &ticks);
    return (double)ticks / (double)sysconf(_SC_CLK_TCK);
}

int sandbox_watch(struct sandbox_child *child)
{
    double now = clk_now_s();
    size_t held;
    if (child->over_memory)
        return -1;
    if (!child->memory_limit || now < child->next_watch)
        return 0;
    child->next_watch = now + WATCH_PERIOD_S;
    held = memory_below();
    if (held > child->outcome.peak_bytes)
        child->outcome.peak_bytes = held;
    if (held <= child->memory_limit)
        return 0;
    child->over_memory = 1;
    kill(-child->pid, SIGKILL);
    kill(child->pid, SIGKILL);
    sandbox_kill_orphans();
    return -1;
}

/* Notes the run's peak in its folder, the largest of its runs there: a solutions run keeps it as the lab's
   measured need (scratch_close_run). */
static void note_peak(const struct sandbox_child *child, size_t peak)
{
    char text[32] = "";
    int fd = open(child->peak_file, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    ssize_t got = fd >= 0 ? read(fd, text, sizeof text - 1) : 0;
    if (fd >= 0)
        close(fd);
    text[got > 0 ? got : 0] = '\0';
    if (strtoull(text, NULL, 10) >= peak)
        return;
    unlink(child->peak_file);
    fd = open(child->peak_file, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd >= 0) {
        snprintf(text, sizeof text, "%zu\n", peak);
        if (write(fd, text, strlen(text)) < 0)
            unlink(child->peak_file);
        close(fd);
    }
}

void sandbox_finish(struct sandbox_child *child, struct sandbox_outcome *outcome)
{
    int status = 0, timed_out = 0, stopping = child->stop_soon && clk_now_s() + 0.5 < child->deadline;
    double deadline = stopping ? clk_now_s() + 0.5 : child->deadline;
    struct rusage usage;
    pid_t done = 0;
    memset(&usage, 0, sizeof usage);
    close_fd(&child->request_fd);
    while (child->output_fd >= 0 && !timed_out && sandbox_watch(child) == 0) {
        struct pollfd pfd = {child->output_fd, POLLIN, 0};
        double left = deadline - clk_now_s();
        timed_out = left <= 0;
        if (!timed_out && poll(&pfd, 1, left < WATCH_PERIOD_S ? (int)(left * 1000) + 1 : 50) > 0)
            sandbox_drain(child);
    }
    while (!timed_out && sandbox_watch(child) == 0 && (done = wait4(child->pid, &status, WNOHANG, &usage)) == 0) {
        timed_out = clk_now_s() >= deadline;
        usleep(1000);
    }
    kill(-child->pid, SIGKILL);
    kill(child->pid, SIGKILL);
    if (done <= 0)
        while (wait4(child->pid, &status, 0, &usage) < 0 && errno == EINTR)
            ;
    kill_leftovers(child->pid);
    show_run(child);
    close_fd(&child->output_fd);
    close_fd(&child->reply_fd);
    if ((size_t)usage.ru_maxrss * 1024 > child->outcome.peak_bytes) /* its largest process, at exit */
        child->outcome.peak_bytes = (size_t)usage.ru_maxrss * 1024;
    *outcome = child->outcome;
    outcome->end = child->over_memory       ? SANDBOX_OUT_OF_MEMORY
                   : timed_out && stopping ? SANDBOX_STOPPED
                   : timed_out             ? SANDBOX_TIMED_OUT
                   : WIFSIGNALED(status)   ? SANDBOX_SIGNALED
                                           : SANDBOX_EXITED;
    outcome->code = timed_out || child->over_memory ? 0 : WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status);
    if (child->wrapped && outcome->end == SANDBOX_EXITED && outcome->code > 128 && outcome->code < 128 + 65) {
        outcome->end = SANDBOX_SIGNALED;
        outcome->code -= 128;
    }
    if (child->peak_file[0] && outcome->end == SANDBOX_EXITED)
        note_peak(child, outcome->peak_bytes);
    memset(&child->outcome, 0, sizeof child->outcome);
}

int sandbox_exec(char *const argv[], const struct sandbox_policy *policy, struct sandbox_outcome *outcome)
{
    struct sandbox_child child;
    if (sandbox_spawn(argv, policy, &child) != 0) {
        *outcome = child.outcome;
        return -1;
    }
    sandbox_finish(&child, outcome);
    return 0;
}

int sandbox_find_program(const char *name, char *path, size_t size)
{
    const char *dirs = getenv("PATH");
    char *copy = strdup(dirs && dirs[0] ? dirs : "/usr/local/bin:/usr/bin:/bin"), *save = NULL;
    int rc = -1;
    if (strchr(name, '/')) { /* a path already: it is used as it is */
        free(copy);
        snprintf(path, size, "%s", name);
        return access(path, X_OK) == 0 ? 0 : -1;
    }
    for (char *dir = strtok_r(copy, ":", &save); copy && dir && rc != 0; dir = strtok_r(NULL, ":", &save)) {
        snprintf(path, size, "%s/%s", dir, name);
        rc = dir[0] == '/' && access(path, X_OK) == 0 ? 0 : -1;
    }
    free(copy);
    return rc;
}

void sandbox_init(void)
{
    prctl(PR_SET_CHILD_SUBREAPER, 1);
    signal(SIGPIPE, SIG_IGN);
}

static const char *signal_hint(int sig)
{
    switch (sig) {
    case SIGSEGV: return "SIGSEGV (probably an out-of-bounds access)";
    case SIGBUS: return "SIGBUS (probably a misaligned or out-of-bounds access)";
    case SIGFPE: return "SIGFPE (an integer division by zero?)";
    case SIGABRT: return "SIGABRT (an assertion or the OpenCL runtime gave up)";
    case SIGILL: return "SIGILL (an illegal instruction)";
    case SIGKILL: return "SIGKILL (killed, perhaps for using too much memory)";
    case SIGXCPU: return "SIGXCPU (it used more CPU time than allowed)";
    case SIGXFSZ: return "SIGXFSZ (it wrote a file larger than allowed)";
    default: return NULL;
    }
}

void sandbox_describe(const struct sandbox_outcome *outcome, int timeout_s, char *text, size_t size)
{
    const char *hint;
    switch (outcome->end) {
    case SANDBOX_TIMED_OUT:
        snprintf(text, size, "timed out after %d s (an infinite loop, or a barrier not every work-item reaches?)",
                 timeout_s);
        break;
    case SANDBOX_STOPPED:
        snprintf(text, size, "broke the grader's protocol and was stopped (what it sent back was not what was asked)");
        break;
    case SANDBOX_OUT_OF_MEMORY:
        snprintf(text, size, "was stopped for using too much memory: its processes held more than %zu MiB together, "
                 "the most a run of this lab may use (twice what the kit's solution needs, at least %zu MiB)",
                 outcome->memory_limit >> 20, SANDBOX_MEMORY_FLOOR >> 20);
        break;
    case SANDBOX_SIGNALED:
        hint = signal_hint(outcome->code);
        if (hint)
            snprintf(text, size, "crashed with %s", hint);
        else
            snprintf(text, size, "crashed with signal %d", outcome->code);
        break;
    case SANDBOX_EXITED:
        snprintf(text, size, "exited with status %d", outcome->code);
        break;
    default:
        snprintf(text, size, "could not be started (fork or pipe failed)");
    }
}

void sandbox_outcome_free(struct sandbox_outcome *outcome)
{
    free(outcome->output);
    outcome->output = NULL;
    outcome->output_length = 0;
}
