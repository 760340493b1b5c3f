/* Isolation: run untrusted work in a child process with a time limit and resource limits. */
#ifndef CLKIT_GRADER_SANDBOX_H
#define CLKIT_GRADER_SANDBOX_H

#include <stddef.h>

enum sandbox_end { SANDBOX_EXITED, SANDBOX_SIGNALED, SANDBOX_TIMED_OUT, SANDBOX_FAILED };

/* How the child ended and what it wrote to its pipe (NUL-terminated, caller frees). */
struct sandbox_outcome {
    enum sandbox_end end;
    int code; /* exit status, or the signal number */
    char *output;
    size_t output_length;
};

/* Called in the child; writes its report to fd and returns the exit status. */
typedef int (*sandbox_fn)(void *context, int fd);

/* Runs fn in a child under timeout_s seconds; on_data (when not NULL) sees the output as it arrives. */
int sandbox_run(sandbox_fn fn, void *context, int timeout_s,
                void (*on_data)(void *context, const char *data, size_t length), void *data_context,
                struct sandbox_outcome *outcome);

/* Runs argv[0] with stdout and stderr captured into outcome->output (at most max_output bytes kept). */
int sandbox_exec(char *const argv[], int timeout_s, size_t max_output, struct sandbox_outcome *outcome);

/* Describes an outcome in words: "timed out after 30 s", "crashed with SIGSEGV (...)", "exited with status 3". */
void sandbox_describe(const struct sandbox_outcome *outcome, int timeout_s, char *text, size_t size);

/* Frees the output held by outcome. */
void sandbox_outcome_free(struct sandbox_outcome *outcome);

#endif
