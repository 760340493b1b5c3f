/* The seccomp layer: no Unix socket of its own, no io_uring, no system call of another ABI. */
#include "sandbox/layers.h"

#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>

#if defined(__x86_64__)
#define NATIVE_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define NATIVE_ARCH AUDIT_ARCH_AARCH64
#endif

/* A pathname socket outside (an instructor's session, a system service) is reachable through any layer that
   leaves its path visible, and io_uring could open one behind the filter's back. Pairs of connected sockets stay
   allowed. */
static int apply(struct layer_run *run)
{
    (void)run;
    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
#ifdef NATIVE_ARCH
    struct sock_filter code[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, NATIVE_ARCH, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EACCES),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000, 4, 0), /* x32's numbers */
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_io_uring_setup, 3, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_socket, 0, 3),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AF_UNIX, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EACCES),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    struct sock_fprog program = {.len = sizeof code / sizeof *code, .filter = code};
    return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program, 0, 0) == 0 ? 0 : -1;
#else
    return 0; /* no filter written for this architecture: the other layers only */
#endif
}

static int holds(void)
{
#ifdef NATIVE_ARCH
    return 1;
#else
    return 0;
#endif
}

static void phrase(int held, char *text, size_t size)
{
    snprintf(text, size, "%s", held ? "no Unix sockets of its own" : "");
}

const struct sandbox_layer layer_seccomp = {
    .name = "seccomp",
    .confines = "no Unix socket of its own (an instructor's session, a system service), no io_uring, no system "
                "call of another ABI; no new privileges",
    .holds = holds,
    .phrase = phrase,
    .apply = apply,
};
