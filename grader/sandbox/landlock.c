#define _GNU_SOURCE /* O_PATH */
#include "sandbox/landlock.h"

#include "sandbox/layers.h"

#include <dirent.h>
#include <fcntl.h>
#include <linux/landlock.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Debian 12's headers stop at ABI 2: the later rights and scopes, as the kernel defines them. */
#define FS_TRUNCATE (1ULL << 14)  /* ABI 3 */
#define FS_IOCTL_DEV (1ULL << 15) /* ABI 5 */
#define NET_BIND_TCP (1ULL << 0)  /* ABI 4 */
#define NET_CONNECT_TCP (1ULL << 1)
#define SCOPE_ABSTRACT_UNIX_SOCKET (1ULL << 0) /* ABI 6 */
#define SCOPE_SIGNAL (1ULL << 1)

/* The ruleset's attributes in the layout of ABI 6; the kernel is told how much of it its ABI reads. */
struct ruleset_attr {
    uint64_t handled_access_fs;
    uint64_t handled_access_net;
    uint64_t scoped;
};

int landlock_abi(void)
{
    long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
    return abi > 0 ? (int)abi : 0;
}

static uint64_t fs_rights(int abi)
{
    uint64_t rights = (1ULL << 13) - 1; /* ABI 1: execute ... make_sym */
    if (abi >= 2)
        rights |= LANDLOCK_ACCESS_FS_REFER;
    if (abi >= 3)
        rights |= FS_TRUNCATE;
    if (abi >= 5)
        rights |= FS_IOCTL_DEV;
    return rights;
}

/* Rights that apply to a file, not only to a folder. */
#define FILE_RIGHTS (LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_READ_FILE | \
                     FS_TRUNCATE | FS_IOCTL_DEV)

static int allow(int ruleset, const char *path, uint64_t rights)
{
    struct landlock_path_beneath_attr rule = {.allowed_access = rights};
    struct stat st;
    int rc;
    /* A link gets no rule: reading through it reaches only what is allowed where it points. */
    if (lstat(path, &st) != 0 || S_ISLNK(st.st_mode))
        return 0;
    if (!S_ISDIR(st.st_mode))
        rule.allowed_access &= FILE_RIGHTS;
    rule.parent_fd = open(path, O_PATH | O_NOFOLLOW | O_CLOEXEC);
    if (rule.parent_fd < 0)
        return 0; /* nothing there to allow */
    rc = (int)syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &rule, 0);
    close(rule.parent_fd);
    return rc;
}

/* 1 when path is folder, 2 when it lies inside it, else 0. */
static int within(const char *path, const char *folder)
{
    size_t length = strlen(folder);
    while (length > 1 && folder[length - 1] == '/')
        length--;
    if (strncmp(path, folder, length) != 0 || (path[length] && path[length] != '/' && length > 1))
        return 0;
    return path[length] == '\0' ? 1 : 2;
}

/* Allows reading everything under folder except the hidden folders: whole siblings where it can, descending only
   along the way to a hidden one. */
static int allow_reading(int ruleset, const char *folder, const char *const *hidden, int count, uint64_t rights,
                         int depth)
{
    int on_the_way = 0, rc = 0;
    DIR *d;
    struct dirent *e;
    for (int i = 0; i < count; i++)
        if (hidden[i] && within(folder, hidden[i]) == 1)
            return 0;
    for (int i = 0; i < count; i++)
        on_the_way |= hidden[i] && (within(hidden[i], folder) == 2 || strcmp(folder, "/") == 0);
    if (!on_the_way || depth > 32 || !(d = opendir(folder)))
        return allow(ruleset, folder, rights);
    while (rc == 0 && (e = readdir(d)) != NULL) {
        char child[4096];
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        snprintf(child, sizeof child, "%s/%s", strcmp(folder, "/") ? folder : "", e->d_name);
        rc = allow_reading(ruleset, child, hidden, count, rights, depth + 1);
    }
    closedir(d);
    return rc;
}

/* Places shared by every run on the machine, which Landlock alone cannot make private: denied outright. */
static const char *const shared_places[] = {"/dev/shm", "/dev/mqueue", "/run", "/var/run"};
#define SHARED_PLACES (int)(sizeof shared_places / sizeof *shared_places)

/* Allows every right on the devices (the GPU's, /dev/null), except the shared places among them. */
static int allow_devices(int ruleset, uint64_t rights)
{
    DIR *d = opendir("/dev");
    struct dirent *e;
    int rc = 0;
    while (d && rc == 0 && (e = readdir(d)) != NULL) {
        char path[300];
        int shared = 0;
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        snprintf(path, sizeof path, "/dev/%s", e->d_name);
        for (int i = 0; i < SHARED_PLACES; i++)
            shared |= strcmp(path, shared_places[i]) == 0;
        if (!shared)
            rc = allow(ruleset, path, rights);
    }
    if (d)
        closedir(d);
    return rc;
}

int landlock_confine(const char *writable, const char *const *hidden, int count)
{
    const char *out_of_reach[64];
    int reach = 0;
    int abi = landlock_abi(), ruleset, rc;
    uint64_t all = fs_rights(abi);
    uint64_t reading = LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR;
    struct ruleset_attr attr = {.handled_access_fs = all,
                                .handled_access_net = abi >= 4 ? NET_BIND_TCP | NET_CONNECT_TCP : 0,
                                .scoped = abi >= 6 ? SCOPE_ABSTRACT_UNIX_SOCKET | SCOPE_SIGNAL : 0};
    size_t size = abi >= 6 ? sizeof attr : abi >= 4 ? 2 * sizeof(uint64_t) : sizeof(uint64_t);
    if (abi == 0)
        return -1;
    for (int i = 0; i < count && reach < 64 - SHARED_PLACES; i++)
        out_of_reach[reach++] = hidden[i];
    for (int i = 0; i < SHARED_PLACES; i++)
        out_of_reach[reach++] = shared_places[i];
    ruleset = (int)syscall(SYS_landlock_create_ruleset, &attr, size, 0);
    if (ruleset < 0)
        return -1;
    rc = allow_reading(ruleset, "/", out_of_reach, reach, reading, 0) | allow_devices(ruleset, all) |
         (writable ? allow(ruleset, writable, all) : 0);
    if (rc == 0)
        rc = (int)syscall(SYS_landlock_restrict_self, ruleset, 0);
    close(ruleset);
    return rc == 0 ? 0 : -1;
}

static int landlock = -1; /* unknown until first asked */

/* The fallback only: where bubblewrap runs, it hides more (and Landlock could not mount inside it). */
static int holds(void)
{
    const char *setting = getenv("CLKIT_LANDLOCK");
    if (landlock < 0)
        landlock = (!setting || strcmp(setting, "0") != 0) && landlock_abi() > 0;
    return landlock == 1 && !layer_bubblewrap.holds();
}

static int apply(struct layer_run *run)
{
    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
    return landlock_confine(run->policy->writable, run->policy->hidden, SANDBOX_MAX_HIDDEN);
}

static void phrase(int held, char *text, size_t size)
{
    snprintf(text, size, "%s%s", held ? "Landlock: kit hidden, no /dev/shm or /run, writes only to its scratch folder"
                                      : "",
             held && landlock_abi() >= 6 ? ", no TCP, no signals out" : "");
}

const struct sandbox_layer layer_landlock = {
    .name = "landlock",
    .confines = "where bubblewrap cannot run: the kit and classmates hidden, no /dev/shm or /run, writes only to "
                "its scratch folder, no TCP and no signals out (ABI 6) (off with CLKIT_LANDLOCK=0)",
    .clause = 1,
    .holds = holds,
    .phrase = phrase,
    .apply = apply,
};
