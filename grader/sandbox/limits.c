/* The limits layer: the run's processes, CPU time, file sizes, open files and memory, by rlimit; the judge's watch
   (sandbox_watch) holds all of its processes together to its memory cap. */
#include "sandbox/layers.h"

#include <stdio.h>
#include <sys/stat.h>

#define FILE_SIZE_LIMIT ((rlim_t)256 << 20)

size_t sandbox_memory_limit_of(const struct sandbox_policy *p)
{
    return !p->untrusted ? 0 : p->memory_limit ? p->memory_limit : SANDBOX_MEMORY_DEFAULT;
}

static void set_limit(int resource, rlim_t value)
{
    struct rlimit limit = {value, value};
    setrlimit(resource, &limit);
}

/* Each process gets a hard limit above the watched cap, for what one could take between two samples. NVIDIA's
   driver reserves far more address space than it uses: cap the data segment there instead. */
static int apply(struct layer_run *run)
{
    const struct sandbox_policy *p = run->policy;
    struct stat st;
    set_limit(RLIMIT_FSIZE, FILE_SIZE_LIMIT);
    set_limit(RLIMIT_NOFILE, LAYER_OPEN_FILES);
    set_limit(RLIMIT_CPU, (rlim_t)(4 * p->timeout_s + 30));
    set_limit(stat("/dev/nvidiactl", &st) == 0 ? RLIMIT_DATA : RLIMIT_AS,
              (rlim_t)sandbox_memory_limit_of(p) * 2 + ((rlim_t)2 << 30));
    if (!run->tasks_inside[0]) /* else bubblewrap's namespace holds the cap, counting only this run's tasks */
        set_limit(RLIMIT_NPROC, run->tasks);
    return 0;
}

static int holds(void)
{
    return 1;
}

static void phrase(int held, char *text, size_t size)
{
    snprintf(text, size, "%s", held ? "memory (from the lab's measured need)/process/CPU/file limits" : "");
}

const struct sandbox_layer layer_limits = {
    .name = "limits",
    .confines = "memory (its processes together, from the lab's measured need), processes, CPU time, file size, "
                "open files",
    .holds = holds,
    .phrase = phrase,
    .apply = apply,
};
