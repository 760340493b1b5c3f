#include "judge/device_busy.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define CPU_SAMPLES 3
#define GPU_APPS 64

void busy_mark_root(void)
{
    char pid[32];
    if (getenv(BUSY_ROOT_ENV))
        return;
    snprintf(pid, sizeof pid, "%ld", (long)getpid());
    setenv(BUSY_ROOT_ENV, pid, 1);
}

/* The parent of pid from /proc, or -1 when it is gone. */
static pid_t parent_of(pid_t pid)
{
    char path[64], text[512], *close;
    FILE *f;
    long ppid = -1;
    snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
    if (!(f = fopen(path, "r")))
        return -1;
    if (fgets(text, sizeof text, f) && (close = strrchr(text, ')')) != NULL)
        sscanf(close + 1, " %*c %ld", &ppid);
    fclose(f);
    return (pid_t)ppid;
}

int busy_is_ours(pid_t pid)
{
    const char *root_text = getenv(BUSY_ROOT_ENV);
    pid_t root = root_text ? (pid_t)atol(root_text) : getpid();
    for (int depth = 0; pid > 1 && depth < 64; depth++) {
        if (pid == root)
            return 1;
        pid = parent_of(pid);
    }
    return 0;
}

/* Threads of other programs (not the grading's, not the kernel's own) in state R now. */
static int other_runnable(void)
{
    DIR *procs = opendir("/proc");
    struct dirent *p;
    int count = 0;
    while (procs && (p = readdir(procs)) != NULL) {
        char path[300], text[512], *close;
        DIR *tasks;
        struct dirent *t;
        pid_t pid = (pid_t)atol(p->d_name);
        if (!isdigit((unsigned char)p->d_name[0]) || parent_of(pid) == 2 || pid == 2)
            continue;
        snprintf(path, sizeof path, "/proc/%s/task", p->d_name);
        int running = 0;
        for (tasks = opendir(path); tasks && (t = readdir(tasks)) != NULL;) {
            FILE *f;
            snprintf(path, sizeof path, "/proc/%s/task/%.20s/stat", p->d_name, t->d_name);
            if (!isdigit((unsigned char)t->d_name[0]) || !(f = fopen(path, "r")))
                continue;
            if (fgets(text, sizeof text, f) && (close = strrchr(text, ')')) != NULL && close[1] && close[2] == 'R')
                running++;
            fclose(f);
        }
        if (tasks)
            closedir(tasks);
        if (running && !busy_is_ours(pid))
            count += running;
    }
    if (procs)
        closedir(procs);
    return count;
}

int busy_cpu_verdict(const int *runnable, int samples, int cores)
{
    int fewest = samples > 0 ? runnable[0] : 0;
    for (int i = 1; i < samples; i++)
        if (runnable[i] < fewest)
            fewest = runnable[i];
    return samples > 0 && 2 * fewest >= (cores > 1 ? cores : 1);
}

static int busy_cpu(char *text, size_t size)
{
    int runnable[CPU_SAMPLES], cores = (int)sysconf(_SC_NPROCESSORS_ONLN), fewest;
    for (int i = 0; i < CPU_SAMPLES; i++) {
        runnable[i] = other_runnable();
        if (i + 1 < CPU_SAMPLES)
            nanosleep(&(struct timespec){.tv_nsec = 30 * 1000 * 1000}, NULL);
    }
    if (!busy_cpu_verdict(runnable, CPU_SAMPLES, cores))
        return 0;
    fewest = runnable[0];
    for (int i = 1; i < CPU_SAMPLES; i++)
        fewest = runnable[i] < fewest ? runnable[i] : fewest;
    snprintf(text, size, "this machine was busy: other programs kept %d or more threads ready to run on its %d "
             "cores", fewest, cores);
    return 1;
}

struct gpu_app {
    long pid;
    char uuid[64], name[96];
};

/* The compute processes nvidia-smi lists; returns how many (0 when it is not there). */
static int gpu_apps(struct gpu_app *apps, int max)
{
    FILE *f = popen("nvidia-smi --query-compute-apps=pid,gpu_uuid,process_name --format=csv,noheader 2>/dev/null",
                    "r");
    char line[512];
    int count = 0;
    while (f && count < max && fgets(line, sizeof line, f))
        if (sscanf(line, "%ld, %63[^,], %95[^\n]", &apps[count].pid, apps[count].uuid, apps[count].name) == 3)
            count++;
    if (f)
        pclose(f);
    return count;
}

/* Another process on the GPU that this grading's runner uses: where the runner's own entry shows its GPU, only
   that GPU's; where no listed process is visible here (another pid namespace), any past the runner's one. */
static int busy_gpu(char *text, size_t size)
{
    struct gpu_app apps[GPU_APPS];
    int count = gpu_apps(apps, GPU_APPS), visible = 0;
    const char *mine = NULL;
    for (int i = 0; i < count; i++) {
        int exists = parent_of((pid_t)apps[i].pid) >= 0;
        visible += exists;
        if (exists && busy_is_ours((pid_t)apps[i].pid))
            mine = apps[i].uuid;
    }
    for (int i = 0; i < count; i++) {
        int exists = parent_of((pid_t)apps[i].pid) >= 0;
        if (exists && !busy_is_ours((pid_t)apps[i].pid) && (!mine || strcmp(apps[i].uuid, mine) == 0)) {
            snprintf(text, size, "the GPU was busy: another process (%.80s, pid %ld) was using it", apps[i].name,
                     apps[i].pid);
            return 1;
        }
    }
    if (visible == 0 && count > 1) {
        snprintf(text, size, "the GPU was busy: nvidia-smi lists %d processes on this machine's GPUs, this "
                 "grader's one of them", count);
        return 1;
    }
    return 0;
}

int busy_device(int is_gpu, const char *device_name, char *text, size_t size)
{
    text[0] = '\0';
    if (is_gpu)
        return device_name && strstr(device_name, "NVIDIA") ? busy_gpu(text, size) : 0;
    return busy_cpu(text, size);
}

int busy_next_wait(struct busy_patience *p)
{
    int wait_s = p->next_s;
    if (p->waited_s + wait_s > p->limit_s)
        return 0;
    p->waited_s += wait_s;
    p->next_s *= 2;
    return wait_s;
}
