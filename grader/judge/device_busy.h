/* Whether the device is shared while a kernel is timed: another process on the NVIDIA GPU in use, or the CPU
   oversubscribed by other programs. A timing taken then is not trusted to take points away. */
#ifndef CLKIT_GRADER_BUSY_H
#define CLKIT_GRADER_BUSY_H

#include <stddef.h>
#include <sys/types.h>

/* The environment variable naming the grader's first process: its descendants (runners, workers) are its own. */
#define BUSY_ROOT_ENV "CLKIT_GRADER_PID"

/* Records this process as the grading's root, unless a parent grader already did. */
void busy_mark_root(void);

/* Whether pid is the grading's root or descends from it. */
int busy_is_ours(pid_t pid);

/* Returns 1 with what keeps the device busy in text (one line), else 0: on an NVIDIA GPU (device_name), another
   process that nvidia-smi lists on it; on a CPU device, threads of other programs ready to run for at least half
   of the cores, throughout a short look. */
int busy_device(int is_gpu, const char *device_name, char *text, size_t size);

/* The CPU's verdict from counts: busy when the fewest other runnable threads seen reach half the cores. */
int busy_cpu_verdict(const int *runnable, int samples, int cores);

/* The waits for a device whose memory another process holds (it may hold it for as long as its own time limit):
   doubling from 1 s, adding up to at most twice the run's limit (BUSY_PATIENCE). */
struct busy_patience {
    int next_s, waited_s, limit_s;
};
#define BUSY_PATIENCE(timeout_s) ((struct busy_patience){.next_s = 1, .limit_s = 2 * (timeout_s)})

/* The next wait in seconds, counted as waited, or 0 once the waits are spent. */
int busy_next_wait(struct busy_patience *p);

#endif
