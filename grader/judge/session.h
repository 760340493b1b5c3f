/* The judge's side of the wire: a confined runner, its requests and replies, each with the run's deadline. */
#ifndef CLKIT_GRADER_SESSION_H
#define CLKIT_GRADER_SESSION_H

#include "sandbox/sandbox.h"
#include "wire/messages.h"

struct session {
    struct sandbox_child child;
    int buffers_fd;   /* the memory file a case's buffers come back through */
    size_t buffers_size;
    struct wire_reader reader;
    int broken; /* the runner died, stalled past the deadline or broke the protocol */
    double ask_limit_s; /* > 0: the next replies must each come within this many seconds */
    int late;           /* a reply did not come within ask_limit_s (the runner is then broken) */
    int cpu_paced;      /* the runner computes on this machine's CPUs (the reference judge, a CPU device): a reply
                           is late, and the run past its deadline, only once the run has also had that much CPU
                           time, so that a busy machine stretches the wait (up to SESSION_STRETCH times), never the
                           verdict */
    double started_at, cpu_at_start, span; /* when the runner started, the CPU time used then, its deadline's span */
    const char *device_lock; /* a batch's lock on the device, held shared through each request (NULL: none) */
};

/* How far a busy machine may stretch a cpu_paced session's ask_limit_s on the wall clock. */
#define SESSION_STRETCH 4.0

/* Starts argv (the runner, perhaps inside Oclgrind) under policy and sends it job; returns 0, or -1. */
int session_start(struct session *s, char *const argv[], const struct sandbox_policy *policy,
                  const struct wire_job *job);

/* Holding the device shared (device_lock; a wait for it moves the deadline on as much), sends a request (type 0:
   none) and waits for a reply of type want of at most max_length bytes; returns 0 with
   reply filled, or -1 when the runner is gone, out of time (its deadline, or ask_limit_s, of CPU time too where
   cpu_paced: then late is set), or
   answered something else. */
int session_ask(struct session *s, uint32_t type, const void *request, size_t length, uint32_t want,
                size_t max_length, struct wire_message *reply);

/* Makes the buffers file hold at least bytes for the next case (it never shrinks); returns 0, or -1. */
int session_size_buffers(struct session *s, size_t bytes);

/* Maps the first bytes of the buffers file read-only; the file is sealed against shrinking, so reading the
   mapping never faults. Returns NULL when it is smaller. */
const void *session_map_buffers(struct session *s, size_t bytes);

/* Unmaps what session_map_buffers returned. */
void session_unmap_buffers(const void *data, size_t bytes);

/* Ends the runner (asking it to exit first when it is still well) and fills outcome with how it ended. */
void session_end(struct session *s, struct sandbox_outcome *outcome);

#endif
