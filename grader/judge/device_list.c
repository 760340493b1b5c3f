#include "judge/device_list.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

int device_list(struct clk_device_info *infos, int max)
{
    size_t size = sizeof(int) + (size_t)max * sizeof *infos;
    int *shared = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0), count = 0;
    pid_t pid;
    if (shared == MAP_FAILED)
        return 0;
    *shared = 0;
    fflush(NULL);
    if ((pid = fork()) == 0) {
        int found = clk_enumerate_devices((struct clk_device_info *)(shared + 1), max);
        *shared = found > 0 ? found : 0;
        _exit(0);
    }
    while (pid > 0 && waitpid(pid, NULL, 0) < 0 && errno == EINTR)
        ;
    if (pid > 0 && (count = *shared) > 0)
        memcpy(infos, shared + 1, (size_t)count * sizeof *infos);
    munmap(shared, size);
    return count;
}
