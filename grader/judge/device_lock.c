#include "judge/device_lock.h"

#include "timing.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

/* This process's hold: the lock and gate files it opened, and the mode held. */
static struct {
    pid_t pid;
    int lock, gate;
    enum device_lock_mode held;
    char path[PATH_MAX];
    double waited;
    volatile double *total; /* the batch's tally of this worker's waits, where it keeps one */
    pid_t total_owner;
} state = {.lock = -1, .gate = -1};

static void lock_file(int fd, int operation)
{
    while (flock(fd, operation) != 0 && errno == EINTR)
        ;
}

/* Opens path and its gate for this process: a fork's inherited descriptors are closed (its parent's hold stays
   its parent's: flock holds belong to the open file, not to each descriptor) and its own opened. Returns 0 or -1. */
static int open_for(const char *path)
{
    char gate[PATH_MAX + 8];
    if (state.pid == getpid() && state.lock >= 0 && strcmp(state.path, path) == 0)
        return 0;
    if (state.lock >= 0)
        close(state.lock);
    if (state.gate >= 0)
        close(state.gate);
    if (state.pid != getpid())
        state.waited = 0.0;
    state.pid = getpid();
    state.held = DEVICE_LOCK_NONE;
    snprintf(state.path, sizeof state.path, "%s", path);
    snprintf(gate, sizeof gate, "%s.gate", path);
    state.lock = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    state.gate = open(gate, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (state.lock >= 0 && state.gate >= 0)
        return 0;
    fprintf(stderr, "grade: cannot open the device's lock %s: %s (timings may overlap other workers' runs)\n", path,
            strerror(errno));
    return -1;
}

/* With CLKIT_DEVICE_LOCK_LOG=FILE, appends each change of hold as a line "time pid from to waited" (modes 0 none,
   1 shared, 2 alone): where a class's time goes, for tests/class_rate.sh. */
static void log_move(enum device_lock_mode from, enum device_lock_mode to, double waited)
{
    const char *path = getenv("CLKIT_DEVICE_LOCK_LOG");
    char line[128];
    int fd = path && path[0] ? open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600) : -1;
    if (fd < 0)
        return;
    int length = snprintf(line, sizeof line, "%.6f %ld %d %d %.6f\n", clk_now_s(), (long)getpid(), (int)from,
                          (int)to, waited);
    if (write(fd, line, (size_t)length) != length) /* one write: lines of workers side by side never mix */
        length = 0;
    close(fd);
}

static void move_to(enum device_lock_mode mode)
{
    double start = clk_now_s();
    if (mode == state.held)
        return;
    if (mode == DEVICE_LOCK_NONE || (state.held == DEVICE_LOCK_SHARED && mode == DEVICE_LOCK_ALONE))
        lock_file(state.lock, LOCK_UN); /* an upgrade waits at the gate holding nothing, so two never deadlock */
    if (mode == DEVICE_LOCK_SHARED && state.held == DEVICE_LOCK_ALONE) {
        lock_file(state.lock, LOCK_SH); /* a downgrade: Linux converts it at once, no timing slips in */
    } else if (mode != DEVICE_LOCK_NONE) {
        lock_file(state.gate, LOCK_EX); /* behind a timing that waits */
        lock_file(state.lock, mode == DEVICE_LOCK_ALONE ? LOCK_EX : LOCK_SH);
        lock_file(state.gate, LOCK_UN);
    }
    log_move(state.held, mode, clk_now_s() - start);
    state.held = mode;
    state.waited += clk_now_s() - start;
    if (state.total && state.total_owner == getpid())
        *state.total += clk_now_s() - start;
}

enum device_lock_mode device_lock_take(const char *path, enum device_lock_mode mode)
{
    enum device_lock_mode before;
    if (!path || !path[0] || open_for(path) != 0)
        return DEVICE_LOCK_NONE;
    before = state.held;
    if (mode > before) /* a hold already as strong covers it (a case asked for while timing alone) */
        move_to(mode);
    return before;
}

void device_lock_restore(const char *path, enum device_lock_mode mode)
{
    if (path && path[0] && open_for(path) == 0)
        move_to(mode);
}

double device_lock_waited_s(void)
{
    return state.pid == getpid() ? state.waited : 0.0;
}

void device_lock_share_waits(volatile double *total)
{
    state.total = total;
    state.total_owner = getpid();
}
