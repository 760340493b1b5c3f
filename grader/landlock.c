#define _GNU_SOURCE /* O_PATH */
#include "landlock.h"

#include <fcntl.h>
#include <linux/landlock.h>
#include <stdint.h>
#include <string.h>
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

static int allow(int ruleset, const char *path, uint64_t rights)
{
    struct landlock_path_beneath_attr rule = {.allowed_access = rights};
    int rc;
    rule.parent_fd = open(path, O_PATH | O_CLOEXEC);
    if (rule.parent_fd < 0)
        return 0; /* nothing there to allow */
    rc = (int)syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &rule, 0);
    close(rule.parent_fd);
    return rc;
}

int landlock_confine(const char *writable)
{
    int abi = landlock_abi(), ruleset, rc;
    uint64_t all = fs_rights(abi);
    uint64_t reading = LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR;
    struct ruleset_attr attr = {.handled_access_fs = all,
                                .handled_access_net = abi >= 4 ? NET_BIND_TCP | NET_CONNECT_TCP : 0,
                                .scoped = abi >= 6 ? SCOPE_ABSTRACT_UNIX_SOCKET | SCOPE_SIGNAL : 0};
    size_t size = abi >= 6 ? sizeof attr : abi >= 4 ? 2 * sizeof(uint64_t) : sizeof(uint64_t);
    if (abi == 0)
        return -1;
    ruleset = (int)syscall(SYS_landlock_create_ruleset, &attr, size, 0);
    if (ruleset < 0)
        return -1;
    rc = allow(ruleset, "/", reading) | allow(ruleset, "/dev", all) | (writable ? allow(ruleset, writable, all) : 0);
    if (rc == 0)
        rc = (int)syscall(SYS_landlock_restrict_self, ruleset, 0);
    close(ruleset);
    return rc == 0 ? 0 : -1;
}
