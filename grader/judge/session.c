#define _GNU_SOURCE /* memfd_create */
#include "judge/session.h"
#include "judge/device_lock.h"
#include "timing.h"

#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int session_start(struct session *s, char *const argv[], const struct sandbox_policy *policy,
                  const struct wire_job *job)
{
    memset(&s->reader, 0, sizeof s->reader);
    struct sandbox_policy with_buffers = *policy;
    s->broken = s->late = 0;
    s->ask_limit_s = 0;
    s->buffers_fd = memfd_create("clkit-buffers", MFD_CLOEXEC | MFD_ALLOW_SEALING);
    s->buffers_size = 0;
    /* It only ever grows: a runner cannot shrink it under the judge's mapping. */
    if (s->buffers_fd >= 0 && fcntl(s->buffers_fd, F_ADD_SEALS, F_SEAL_SHRINK) != 0) {
        close(s->buffers_fd);
        s->buffers_fd = -1;
    }
    with_buffers.shared_fd = s->buffers_fd;
    s->started_at = clk_now_s();
    s->cpu_at_start = s->cpu_paced ? sandbox_cpu_seconds() : 0.0;
    s->span = policy->timeout_s;
    if (s->buffers_fd < 0 || sandbox_spawn(argv, &with_buffers, &s->child) != 0) {
        s->broken = 1;
        return -1;
    }
    if (wire_send(s->child.request_fd, WIRE_JOB, job, sizeof *job, NULL, 0) != 0)
        s->broken = 1;
    return s->broken ? -1 : 0;
}

/* Where a cpu_paced run reached limit, on the wall clock, for a span of time from since (its CPU time cpu_at
   then): 1 with the limit moved on by what the run lacks of span in CPU time, while it lacks any and the stretch
   allows (the time the machine withheld being the run's due); 0 when the limit stands. */
static int starved(const struct session *s, double since, double cpu_at, double span, double *limit)
{
    double had = sandbox_cpu_seconds() - cpu_at, now = clk_now_s();
    if (!s->cpu_paced || span <= 0 || had >= span || now >= since + SESSION_STRETCH * span)
        return 0;
    *limit = now + fmax(span - had, 0.25);
    return 1;
}

/* A limit reached at end: the question's (moving the deadline past a later one) or the run's deadline; returns 1
   when the run was starved and waits on. */
static int wait_on(struct session *s, double end, double asked_at, double cpu_at, double *limit)
{
    if (end < s->child.deadline) {
        if (!starved(s, asked_at, cpu_at, s->ask_limit_s, limit))
            return 0;
        if (s->child.deadline < *limit + 1.0)
            s->child.deadline = *limit + 1.0;
        return 1;
    }
    return starved(s, s->started_at, s->cpu_at_start, s->span, &s->child.deadline);
}

/* Waits for one whole message, reading the runner's output meanwhile so that it never blocks on a full pipe. */
static int receive(struct session *s, size_t max_length, struct wire_message *message)
{
    double asked_at = clk_now_s(), cpu_at = s->cpu_paced ? sandbox_cpu_seconds() : 0.0;
    double limit = s->ask_limit_s > 0 ? asked_at + s->ask_limit_s : HUGE_VAL; /* else the deadline, as it moves */
    for (;;) {
        struct pollfd fds[2] = {{s->child.reply_fd, POLLIN, 0}, {s->child.output_fd, POLLIN, 0}};
        double end = limit < s->child.deadline ? limit : s->child.deadline, left = end - clk_now_s();
        int rc;
        if (left <= 0 && wait_on(s, end, asked_at, cpu_at, &limit))
            continue;
        if (left <= 0) {
            s->late = end < s->child.deadline;
            return -1;
        }
        if (sandbox_watch(&s->child) != 0) /* stopped for memory: sandbox_finish says so */
            return -1;
        if (poll(fds, 2, left < 0.05 ? (int)(left * 1000) + 1 : 50) <= 0)
            continue;
        if (fds[1].revents)
            sandbox_drain(&s->child);
        if (!fds[0].revents)
            continue;
        rc = wire_read_some(s->child.reply_fd, max_length, &s->reader);
        if (rc < 0)
            return -1;
        if (rc == 1) {
            *message = s->reader.message;
            memset(&s->reader, 0, sizeof s->reader);
            return 0;
        }
    }
}

int session_ask(struct session *s, uint32_t type, const void *request, size_t length, uint32_t want,
                size_t max_length, struct wire_message *reply)
{
    double waited = device_lock_waited_s();
    enum device_lock_mode held = device_lock_take(s->device_lock, DEVICE_LOCK_SHARED);
    int rc = 0;
    waited = device_lock_waited_s() - waited; /* the runner sat idle meanwhile: not its time */
    s->child.deadline += waited;
    s->started_at += waited;
    memset(reply, 0, sizeof *reply);
    if (s->broken || (type && wire_send(s->child.request_fd, type, request, length, NULL, 0) != 0) ||
        receive(s, max_length, reply) != 0 || reply->type != want) {
        wire_message_free(reply);
        s->broken = 1;
        rc = -1;
    }
    device_lock_restore(s->device_lock, held);
    return rc;
}

int session_size_buffers(struct session *s, size_t bytes)
{
    if (bytes > s->buffers_size) {
        if (ftruncate(s->buffers_fd, (off_t)bytes) != 0)
            return -1;
        s->buffers_size = bytes;
    }
    return 0;
}

const void *session_map_buffers(struct session *s, size_t bytes)
{
    void *data;
    if (bytes == 0 || bytes > s->buffers_size)
        return NULL;
    data = mmap(NULL, bytes, PROT_READ, MAP_SHARED | MAP_POPULATE, s->buffers_fd, 0);
    return data == MAP_FAILED ? NULL : data;
}

void session_unmap_buffers(const void *data, size_t bytes)
{
    if (data)
        munmap((void *)data, bytes);
}

void session_end(struct session *s, struct sandbox_outcome *outcome)
{
    if (!s->broken)
        wire_send(s->child.request_fd, WIRE_END, NULL, 0, NULL, 0);
    else
        s->child.stop_soon = 1; /* a runner that died is reaped at once; one that misbehaves is stopped */
    wire_message_free(&s->reader.message);
    sandbox_finish(&s->child, outcome);
    if (s->buffers_fd >= 0)
        close(s->buffers_fd);
    s->buffers_fd = -1;
}
