#include "sandbox.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define OUTPUT_LIMIT (16u << 20)

/* No core files, and a cap on file sizes so a runaway write cannot fill the disk. */
static void limit_resources(void)
{
    struct rlimit no_core = {0, 0};
    struct rlimit file_size = {1u << 30, 1u << 30};
    setrlimit(RLIMIT_CORE, &no_core);
    setrlimit(RLIMIT_FSIZE, &file_size);
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int append(struct sandbox_outcome *outcome, const char *data, size_t length, size_t limit)
{
    char *grown;
    if (outcome->output_length + length > limit)
        length = limit - outcome->output_length;
    grown = realloc(outcome->output, outcome->output_length + length + 1);
    if (!grown)
        return -1;
    memcpy(grown + outcome->output_length, data, length);
    outcome->output = grown;
    outcome->output_length += length;
    grown[outcome->output_length] = '\0';
    return 0;
}

/* Reads the child's pipe until it closes or the deadline passes; returns 1 on time-out. */
static int collect(int fd, double deadline, size_t limit, struct sandbox_outcome *outcome,
                   void (*on_data)(void *, const char *, size_t), void *data_context)
{
    char chunk[4096];
    for (;;) {
        struct pollfd pfd = {fd, POLLIN, 0};
        double left = deadline - now_seconds();
        int ready;
        ssize_t got;
        if (left <= 0)
            return 1;
        ready = poll(&pfd, 1, (int)(left * 1000) + 1);
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready <= 0)
            continue;
        got = read(fd, chunk, sizeof chunk);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return 0;
        append(outcome, chunk, (size_t)got, limit);
        if (on_data)
            on_data(data_context, chunk, (size_t)got);
    }
}

static void finish(pid_t pid, int timed_out, struct sandbox_outcome *outcome)
{
    int status = 0;
    if (timed_out)
        kill(-pid, SIGKILL), kill(pid, SIGKILL);
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (timed_out) {
        outcome->end = SANDBOX_TIMED_OUT;
    } else if (WIFSIGNALED(status)) {
        outcome->end = SANDBOX_SIGNALED;
        outcome->code = WTERMSIG(status);
    } else {
        outcome->end = SANDBOX_EXITED;
        outcome->code = WEXITSTATUS(status);
    }
    /* Anything the child left running in its process group goes with it. */
    kill(-pid, SIGKILL);
}

static int start(int pipe_fds[2], pid_t *pid, struct sandbox_outcome *outcome)
{
    memset(outcome, 0, sizeof *outcome);
    fflush(NULL);
    if (pipe(pipe_fds) != 0) {
        outcome->end = SANDBOX_FAILED;
        return -1;
    }
    *pid = fork();
    if (*pid < 0) {
        close(pipe_fds[0]);
        close(pipe_fds[1]);
        outcome->end = SANDBOX_FAILED;
        return -1;
    }
    if (*pid == 0) {
        setpgid(0, 0);
        limit_resources();
        close(pipe_fds[0]);
    }
    return 0;
}

int sandbox_run(sandbox_fn fn, void *context, int timeout_s,
                void (*on_data)(void *context, const char *data, size_t length), void *data_context,
                struct sandbox_outcome *outcome)
{
    int fds[2];
    pid_t pid;
    int timed_out;
    if (start(fds, &pid, outcome) != 0)
        return -1;
    if (pid == 0)
        _exit(fn(context, fds[1]));
    close(fds[1]);
    timed_out = collect(fds[0], now_seconds() + timeout_s, OUTPUT_LIMIT, outcome, on_data, data_context);
    close(fds[0]);
    finish(pid, timed_out, outcome);
    return 0;
}

int sandbox_exec(char *const argv[], int timeout_s, size_t max_output, struct sandbox_outcome *outcome)
{
    int fds[2];
    pid_t pid;
    int timed_out;
    if (start(fds, &pid, outcome) != 0)
        return -1;
    if (pid == 0) {
        dup2(fds[1], STDOUT_FILENO);
        dup2(fds[1], STDERR_FILENO);
        close(fds[1]);
        execvp(argv[0], argv);
        fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    close(fds[1]);
    timed_out = collect(fds[0], now_seconds() + timeout_s, max_output, outcome, NULL, NULL);
    close(fds[0]);
    finish(pid, timed_out, outcome);
    return 0;
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
