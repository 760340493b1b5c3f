/* What a confined program may see and use: the policy that the sandbox and its layers read. */
#ifndef CLKIT_GRADER_SANDBOX_POLICY_H
#define CLKIT_GRADER_SANDBOX_POLICY_H

#include <stddef.h>

/* The memory cap of a run whose need was never measured (no ./grade --solutions on this machine yet), and the
   least any run gets (a compiler, an OpenCL runtime). */
#define SANDBOX_MEMORY_DEFAULT ((size_t)2 << 30)
#define SANDBOX_MEMORY_FLOOR ((size_t)1 << 30)

#define SANDBOX_MAX_HIDDEN 8

/* What a confined program may see and use. */
struct sandbox_policy {
    int untrusted;           /* submitted code: every layer; 0: the grader's own tools, with session and deadline */
    const char *workdir;     /* where it starts; NULL: the grader's own */
    const char *readable;    /* a folder it sees read-only under bubblewrap (the scratch copy of the kit) */
    const char *writable;    /* the one folder it may write: HOME, TMPDIR and caches live there */
    const char *hidden[SANDBOX_MAX_HIDDEN]; /* folders it must not see (the kit, classmates); NULL entries unused */
    int timeout_s;
    size_t output_limit;     /* bytes of output kept; the rest is read and dropped */
    int wire;                /* give it a request pipe on stdin and a reply pipe on fd 3 */
    int shared_fd;           /* > 0: also passed to it as fd 4 (the wire's buffers file) */
    const char *setting;     /* untrusted: more NAME=value lines (one a line) in its clean environment, or NULL */
    size_t memory_limit;     /* untrusted: bytes all its processes may hold together; 0: SANDBOX_MEMORY_DEFAULT */
};

#endif
