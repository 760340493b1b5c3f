#include "suites.h"

#include "files.h"
#include "sandbox/landlock.h"
#include "sandbox/layers.h"
#include "sandbox/sandbox.h"
#include "timing.h"

#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <string.h>
#include <unistd.h>

static struct sandbox_outcome run(const char *script, int untrusted, int timeout_s, size_t limit)
{
    struct sandbox_outcome outcome;
    struct sandbox_policy policy = {.untrusted = untrusted, .timeout_s = timeout_s, .output_limit = limit,
                                    .writable = "/tmp"};
    char *argv[] = {"/bin/sh", "-c", (char *)script, NULL};
    sandbox_exec(argv, &policy, &outcome);
    return outcome;
}

START_TEST(infinite_loop_times_out)
{
    struct sandbox_outcome outcome = run("while :; do :; done", 1, 1, 1024);
    char text[256];
    ck_assert_int_eq(outcome.end, SANDBOX_TIMED_OUT);
    sandbox_describe(&outcome, 1, text, sizeof text);
    ck_assert_ptr_nonnull(strstr(text, "timed out after 1 s"));
    sandbox_outcome_free(&outcome);
}
END_TEST

START_TEST(crash_is_named)
{
    struct sandbox_outcome outcome = run("kill -SEGV $$", 1, 10, 1024);
    char text[256];
    ck_assert_int_eq(outcome.end, SANDBOX_SIGNALED);
    ck_assert_int_eq(outcome.code, SIGSEGV);
    sandbox_describe(&outcome, 10, text, sizeof text);
    ck_assert_ptr_nonnull(strstr(text, "crashed with SIGSEGV (probably an out-of-bounds access)"));
    sandbox_outcome_free(&outcome);
}
END_TEST

START_TEST(exec_captures_output)
{
    struct sandbox_outcome outcome = run("echo out; echo err >&2; exit 3", 0, 10, 1024);
    ck_assert_int_eq(outcome.end, SANDBOX_EXITED);
    ck_assert_int_eq(outcome.code, 3);
    ck_assert_ptr_nonnull(strstr(outcome.output, "out"));
    ck_assert_ptr_nonnull(strstr(outcome.output, "err"));
    sandbox_outcome_free(&outcome);
}
END_TEST

START_TEST(output_is_capped_and_drained)
{
    struct sandbox_outcome outcome = run("yes | head -c 3000000", 1, 10, 1000);
    ck_assert_int_eq(outcome.end, SANDBOX_EXITED);
    ck_assert_uint_eq(outcome.output_length, 1000);
    ck_assert_uint_ge(outcome.output_dropped, 3000000 - 1000);
    sandbox_outcome_free(&outcome);
}
END_TEST

START_TEST(exec_of_missing_program)
{
    struct sandbox_outcome outcome;
    struct sandbox_policy policy = {.timeout_s = 10, .output_limit = 1024};
    char *argv[] = {"/nonexistent/program", NULL};
    sandbox_exec(argv, &policy, &outcome);
    ck_assert_int_eq(outcome.code, 127);
    ck_assert_ptr_nonnull(strstr(outcome.output, "cannot run /nonexistent/program"));
    sandbox_outcome_free(&outcome);
}
END_TEST

/* A child that closes its output and waits forever still meets the deadline. */
START_TEST(deadline_holds_after_output_closes)
{
    double start = clk_now_s();
    struct sandbox_outcome outcome = run("exec >&- 2>&-; sleep 60", 1, 2, 1024);
    ck_assert_int_eq(outcome.end, SANDBOX_TIMED_OUT);
    ck_assert(clk_now_s() - start < 5.0);
    sandbox_outcome_free(&outcome);
}
END_TEST

/* A child that the judge gives up on (it broke the protocol) is stopped at once, not at its deadline. */
START_TEST(misbehaving_child_is_stopped_at_once)
{
    struct sandbox_policy policy = {.untrusted = 1, .timeout_s = 30, .output_limit = 1024, .writable = "/tmp"};
    struct sandbox_child child;
    struct sandbox_outcome outcome;
    char *argv[] = {"/bin/sh", "-c", "sleep 60", NULL};
    double start = clk_now_s();
    char text[256];
    ck_assert_int_eq(sandbox_spawn(argv, &policy, &child), 0);
    child.stop_soon = 1;
    sandbox_finish(&child, &outcome);
    ck_assert_int_eq(outcome.end, SANDBOX_STOPPED);
    ck_assert(clk_now_s() - start < 5.0);
    sandbox_describe(&outcome, 30, text, sizeof text);
    ck_assert_ptr_nonnull(strstr(text, "protocol"));
    sandbox_outcome_free(&outcome);
}
END_TEST

/* Without bubblewrap, Landlock stops writes outside the run's folder even where the file's mode allows them. */
START_TEST(landlock_keeps_writes_in_the_run_folder)
{
    char target[] = "/tmp/clkit-landlock-XXXXXX", folder[] = "/tmp/clkit-run-XXXXXX", script[256];
    struct sandbox_outcome outcome;
    struct sandbox_policy policy = {.untrusted = 1, .timeout_s = 10, .output_limit = 4096, .writable = folder};
    char *argv[] = {"/bin/sh", "-c", script, NULL};
    int fd = mkstemp(target);
    if (landlock_abi() == 0)
        return; /* no Landlock in this kernel: nothing to check */
    setenv("CLKIT_BUBBLEWRAP", "0", 1);
    ck_assert_int_ge(fd, 0);
    close(fd);
    chmod(target, 0666);
    ck_assert_ptr_nonnull(mkdtemp(folder));
    chmod(folder, 0777);
    snprintf(script, sizeof script, "echo inside > %s/ok; cat %s/ok; echo outside > %s", folder, folder, target);
    sandbox_exec(argv, &policy, &outcome);
    ck_assert_msg(outcome.output && strstr(outcome.output, "inside"), "no write in the run folder: %s",
                  outcome.output ? outcome.output : "");
    ck_assert_msg(outcome.end == SANDBOX_EXITED && outcome.code != 0, "the write outside was allowed");
    sandbox_outcome_free(&outcome);
    unlink(target);
    snprintf(script, sizeof script, "rm -rf %s", folder);
    ck_assert_int_eq(system(script), 0);
}
END_TEST

/* A daemon in a session of its own does not outlive the run. */
START_TEST(daemons_do_not_outlive_the_run)
{
    char path[] = "/tmp/clkit-daemon-XXXXXX", script[256], pid_text[32] = "";
    int fd = mkstemp(path);
    FILE *f;
    long pid = 0;
    sandbox_init(); /* as the grader does: orphans come back to it */
    setenv("CLKIT_BUBBLEWRAP", "0", 1); /* the layers that must hold without bubblewrap's process namespace */
    ck_assert_int_ge(fd, 0);
    close(fd);
    chmod(path, 0666);
    snprintf(script, sizeof script, "setsid sh -c 'echo $$ > %s; exec sleep 60' & sleep 1; exit 0", path);
    struct sandbox_outcome outcome = run(script, 1, 10, 1024);
    sandbox_outcome_free(&outcome);
    f = fopen(path, "r");
    ck_assert_ptr_nonnull(f);
    ck_assert_ptr_nonnull(fgets(pid_text, sizeof pid_text, f));
    fclose(f);
    unlink(path);
    pid = atol(pid_text);
    ck_assert_int_gt(pid, 1);
    ck_assert_msg(kill((pid_t)pid, 0) != 0, "process %ld outlived the run", pid);
}
END_TEST

/* Untrusted code gets stdin, stdout and stderr only, a clean environment, and no root. */
START_TEST(untrusted_code_is_confined)
{
    int leaked = open("/dev/null", O_RDONLY); /* not close-on-exec */
    struct sandbox_outcome outcome;
    setenv("CLKIT_SECRET_FOR_TEST", "visible", 1);
    outcome = run("ls /proc/self/fd | wc -l; env; id -u", 1, 10, 65536);
    ck_assert_int_eq(outcome.end, SANDBOX_EXITED);
    ck_assert_ptr_null(strstr(outcome.output, "CLKIT_SECRET_FOR_TEST"));
    ck_assert_msg(atoi(outcome.output) <= 4, "descriptors open in the child: %s", outcome.output); /* + ls's own */
    if (geteuid() == 0)
        ck_assert_msg(!strstr(outcome.output, "\n0\n"), "untrusted code ran as root:\n%s", outcome.output);
    sandbox_outcome_free(&outcome);
    close(leaked);
}
END_TEST

/* Slurm's choice of GPU reaches the confined run: without it, a task's OpenCL would see every GPU of the node. */
START_TEST(slurms_gpu_choice_reaches_the_run)
{
    static const char *const chosen[] = {"CUDA_VISIBLE_DEVICES", "SLURM_JOB_GPUS", "GPU_DEVICE_ORDINAL",
                                         "ROCR_VISIBLE_DEVICES"};
    struct sandbox_outcome outcome;
    char expected[64];
    for (size_t i = 0; i < sizeof chosen / sizeof chosen[0]; i++)
        setenv(chosen[i], "3", 1);
    outcome = run("env", 1, 10, 65536);
    for (size_t i = 0; i < sizeof chosen / sizeof chosen[0]; i++) {
        snprintf(expected, sizeof expected, "%s=3\n", chosen[i]);
        ck_assert_msg(strstr(outcome.output, expected), "%s lost:\n%s", chosen[i], outcome.output);
        unsetenv(chosen[i]);
    }
    sandbox_outcome_free(&outcome);
}
END_TEST

/* The layers of loop test _i: 0 every layer this machine has, 1 Landlock without bubblewrap. Returns 0 when that
   confinement cannot be had here (the test then has nothing to check). */
static int choose_layers(int landlock_only)
{
    if (landlock_only) {
        setenv("CLKIT_BUBBLEWRAP", "0", 1);
        return landlock_abi() > 0;
    }
    unsetenv("CLKIT_BUBBLEWRAP");
    return access("/usr/bin/bwrap", X_OK) == 0 || landlock_abi() > 0;
}

/* What a run leaves in /dev/shm does not reach the next run, nor the machine's; /run is out of reach. */
START_TEST(shm_and_run_are_private)
{
    char script[512], shm[64], in_run[64];
    struct sandbox_outcome outcome;
    FILE *f;
    if (!choose_layers(_i))
        return;
    snprintf(shm, sizeof shm, "/dev/shm/clkit-leak-%d", (int)getpid());
    snprintf(in_run, sizeof in_run, "/run/clkit-secret-%d", (int)getpid());
    if ((f = fopen(in_run, "w")) != NULL) { /* a file every user may read, in /run */
        fputs("RUN-SECRET\n", f);
        fclose(f);
        chmod(in_run, 0644);
    }
    snprintf(script, sizeof script, "echo SHM-SECRET > %s; cat %s; exit 0", shm, in_run);
    outcome = run(script, 1, 10, 4096);
    int finished = outcome.end == SANDBOX_EXITED, read_run = outcome.output && strstr(outcome.output, "RUN-SECRET");
    sandbox_outcome_free(&outcome);
    snprintf(script, sizeof script, "cat %s; exit 0", shm);
    outcome = run(script, 1, 10, 4096);
    int read_shm = outcome.output && strstr(outcome.output, "SHM-SECRET"), machine_shm = access(shm, F_OK) == 0;
    sandbox_outcome_free(&outcome);
    unlink(shm);
    unlink(in_run);
    ck_assert_msg(finished, "the first run did not finish");
    ck_assert_msg(!read_run, "a run read /run");
    ck_assert_msg(!read_shm, "the next run read what the last left in /dev/shm");
    ck_assert_msg(!machine_shm, "a run wrote into the machine's /dev/shm");
}
END_TEST

/* A Unix socket listening outside the sandbox, in a folder every user may enter: no run connects to it. */
START_TEST(no_connection_to_a_unix_socket_outside)
{
    char folder[] = "/var/tmp/clkit-socket-XXXXXX", script[512];
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    struct sandbox_outcome outcome;
    int listener, peer;
    if (!choose_layers(_i))
        return;
    ck_assert_ptr_nonnull(mkdtemp(folder));
    chmod(folder, 0755);
    snprintf(address.sun_path, sizeof address.sun_path, "%s/s", folder);
    listener = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0);
    ck_assert_int_ge(listener, 0);
    ck_assert_int_eq(bind(listener, (struct sockaddr *)&address, sizeof address), 0);
    chmod(address.sun_path, 0777);
    ck_assert_int_eq(listen(listener, 4), 0);
    snprintf(script, sizeof script,
             "python3 -c 'import socket, sys\n"
             "s = socket.socket(socket.AF_UNIX)\ns.connect(sys.argv[1])\ns.send(b\"hi\")\nprint(\"CONNECTED\")' %s",
             address.sun_path);
    outcome = run(script, 1, 20, 8192);
    peer = accept(listener, NULL, NULL);
    ck_assert_msg(peer < 0 && (errno == EAGAIN || errno == EWOULDBLOCK), "a run connected to the socket outside");
    ck_assert_msg(!outcome.output || !strstr(outcome.output, "CONNECTED"), "%s", outcome.output);
    sandbox_outcome_free(&outcome);
    close(listener);
    unlink(address.sun_path);
    rmdir(folder);
}
END_TEST

/* A run that allocates and touches 3 GiB is stopped at its cap, says so, and leaves nothing behind. */
START_TEST(memory_past_the_cap_is_stopped)
{
    struct sandbox_policy policy = {.untrusted = 1, .timeout_s = 60, .output_limit = 65536, .writable = "/tmp",
                                    .memory_limit = (size_t)256 << 20};
    struct sandbox_outcome outcome;
    char text[512];
    char *argv[] = {"/usr/bin/python3", "-c",
                    "import sys\nheld = []\nfor i in range(48):\n"
                    "    held.append(b'x' * (64 << 20))\n    print('touched', (i + 1) * 64, 'MiB', flush=True)\n", NULL};
    double start = clk_now_s();
    sandbox_init();
    sandbox_exec(argv, &policy, &outcome);
    ck_assert_msg(outcome.end == SANDBOX_OUT_OF_MEMORY, "not stopped for memory (end %d, code %d):\n%s", outcome.end,
                  outcome.code, outcome.output ? outcome.output : "");
    ck_assert_msg(!strstr(outcome.output ? outcome.output : "", "touched 3072 MiB"), "it took 3 GiB");
    ck_assert_msg(outcome.peak_bytes < (size_t)1 << 30, "it held %zu MiB", outcome.peak_bytes >> 20);
    ck_assert_msg(clk_now_s() - start < 30.0, "the run took %.0f s", clk_now_s() - start);
    sandbox_describe(&outcome, 60, text, sizeof text);
    ck_assert_msg(strstr(text, "too much memory") && strstr(text, "256 MiB"), "%s", text);
    sandbox_outcome_free(&outcome);
}
END_TEST

/* A run within its cap is not stopped, and its peak is measured. */
START_TEST(memory_within_the_cap_is_measured)
{
    struct sandbox_policy policy = {.untrusted = 1, .timeout_s = 60, .output_limit = 4096, .writable = "/tmp",
                                    .memory_limit = (size_t)1 << 30};
    struct sandbox_outcome outcome;
    char *argv[] = {"/usr/bin/python3", "-c", "import time\nheld = b'x' * (200 << 20)\ntime.sleep(0.5)\n", NULL};
    sandbox_exec(argv, &policy, &outcome);
    ck_assert_msg(outcome.end == SANDBOX_EXITED && outcome.code == 0, "end %d code %d", outcome.end, outcome.code);
    ck_assert_msg(outcome.peak_bytes >= (size_t)200 << 20 && outcome.peak_bytes < (size_t)1 << 30, "peak %zu MiB",
                  outcome.peak_bytes >> 20);
    sandbox_outcome_free(&outcome);
}
END_TEST

/* Gradings side by side (separate ./grade runs, each starting as worker 0) never confine code as the same user:
   each holds one of its own while it lives, so that none shares another's per-user task cap. */
START_TEST(gradings_side_by_side_hold_users_of_their_own)
{
    enum { GRADINGS = 3 };
    int report[2], hold[2], uids[GRADINGS];
    pid_t pids[GRADINGS];
    if (geteuid() != 0 || !getpwnam("clkit-runner-2"))
        return; /* not root, or the users were never made: one shared user */
    ck_assert_int_eq(pipe(report), 0);
    ck_assert_int_eq(pipe(hold), 0);
    for (int k = 0; k < GRADINGS; k++)
        if ((pids[k] = fork()) == 0) {
            char byte;
            close(hold[1]);
            sandbox_worker(0);
            struct sandbox_outcome outcome = run("id -u", 1, 10, 1024);
            int uid = outcome.output ? atoi(outcome.output) : -1;
            _exit(write(report[1], &uid, sizeof uid) == sizeof uid && read(hold[0], &byte, 1) >= 0 ? 0 : 1);
        }
    for (int k = 0; k < GRADINGS; k++)
        ck_assert_int_eq(read(report[0], &uids[k], sizeof uids[k]), (int)sizeof uids[k]);
    close(hold[1]); /* all have reported while alive: now they may end */
    for (int k = 0; k < GRADINGS; k++)
        waitpid(pids[k], NULL, 0);
    for (int k = 0; k < GRADINGS; k++) {
        ck_assert_msg(uids[k] > 0, "grading %d ran as uid %d", k, uids[k]);
        for (int j = 0; j < k; j++)
            ck_assert_msg(uids[j] != uids[k], "gradings %d and %d both ran as uid %d", j, k, uids[k]);
    }
}
END_TEST

/* A batch's workers confine code as users of their own (./setup makes clkit-runner-1...). */
START_TEST(workers_run_as_users_of_their_own)
{
    struct sandbox_outcome first, second;
    if (geteuid() != 0 || !getpwnam("clkit-runner-1"))
        return; /* not root, or the users were never made: one shared user */
    sandbox_worker(1);
    second = run("id -u", 1, 10, 1024);
    sandbox_worker(0);
    first = run("id -u", 1, 10, 1024);
    ck_assert_msg(first.output && second.output && atoi(first.output) > 0 && atoi(second.output) > 0 &&
                  atoi(first.output) != atoi(second.output), "worker 0 ran as %s, worker 1 as %s", first.output,
                  second.output);
    sandbox_outcome_free(&first);
    sandbox_outcome_free(&second);
}
END_TEST

/* The classmate's run of a_burst_of_tasks_does_not_starve_a_worker_beside, as worker 1 in a process of its own (as
   a batch's worker is, holding its runner user for as long as it lives): says when it has started, on ready, and
   writes its output to the file out. */
static void classmate_worker(int ready, const char *out)
{
    struct sandbox_policy policy = {.untrusted = 1, .timeout_s = 30, .output_limit = 65536, .writable = "/tmp"};
    struct sandbox_child classmate;
    struct sandbox_outcome outcome;
    char *argv[] = {"/bin/sh", "-c",
                    "sleep 3; n=0; for i in $(seq 40); do sleep 4 & n=$((n + 1)); done; echo started $n; wait", NULL};
    FILE *f;
    sandbox_init();
    sandbox_worker(1);
    if (sandbox_spawn(argv, &policy, &classmate) != 0 || write(ready, "1", 1) != 1)
        _exit(1);
    sandbox_finish(&classmate, &outcome);
    if (!(f = fopen(out, "w")))
        _exit(1);
    fputs(outcome.output ? outcome.output : "(no output)", f);
    fclose(f);
    _exit(0);
}

/* A worker whose student fills the task cap in a burst, while a classmate's run beside it (another worker) is
   under way, does not keep the classmate's run from starting its processes. */
START_TEST(a_burst_of_tasks_does_not_starve_a_worker_beside)
{
    struct sandbox_policy policy = {.untrusted = 1, .timeout_s = 30, .output_limit = 65536, .writable = "/tmp"};
    struct sandbox_child burst;
    struct sandbox_outcome ignored;
    char *burst_argv[] = {"/bin/sh", "-c", "for i in $(seq 600); do sleep 12 & done 2>/dev/null; sleep 12", NULL};
    char out[64], flag, *output;
    int ready[2], status = -1;
    if (geteuid() != 0 || !getpwnam("clkit-runner-1") || !choose_layers(_i))
        return;
    snprintf(out, sizeof out, "/tmp/clkit-classmate-%d.txt", (int)getpid());
    sandbox_init();
    sandbox_share_tasks(2);
    ck_assert(pipe(ready) == 0);
    pid_t pid = fork();
    if (pid == 0) {
        close(ready[0]);
        classmate_worker(ready[1], out);
    }
    sandbox_keep(pid, 1); /* a worker beside this one, not a leftover of the burst's run */
    close(ready[1]);
    ck_assert_int_eq(read(ready[0], &flag, 1), 1); /* the classmate holds its user before the burst claims one */
    close(ready[0]);
    sandbox_worker(0);
    ck_assert_int_eq(sandbox_spawn(burst_argv, &policy, &burst), 0);
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    sandbox_keep(pid, 0);
    output = clk_read_text(out, NULL);
    unlink(out);
    ck_assert_msg(status == 0 && output && strstr(output, "started 40"), "the classmate's run was starved (its "
                  "worker: status %d):\n%s", status, output ? output : "");
    free(output);
    burst.stop_soon = 1;
    sandbox_finish(&burst, &ignored);
    sandbox_outcome_free(&ignored);
}
END_TEST

/* --confinement walks the table of layers: each once, said to hold exactly when it holds; loop 1 turns bubblewrap
   and Landlock off by their settings, and both then say no, in the table and in the report's line. */
START_TEST(confinement_lists_every_layer)
{
    char *text = NULL;
    size_t size = 0;
    FILE *out;
    if (_i == 1)
        setenv("CLKIT_BUBBLEWRAP", "0", 1), setenv("CLKIT_LANDLOCK", "0", 1);
    ck_assert_ptr_nonnull(out = open_memstream(&text, &size));
    sandbox_layers_print(out);
    fclose(out);
    for (int i = 0; sandbox_layer_table[i]; i++) {
        const struct sandbox_layer *layer = sandbox_layer_table[i];
        char line[64];
        snprintf(line, sizeof line, "\n%-12s %-6s ", layer->name, layer->holds() ? "yes" : "no");
        const char *at = strstr(text, line);
        ck_assert_msg(at && !strstr(at + 1, line), "%s once: %s", layer->name, text);
        ck_assert_msg(layer->confines && layer->confines[0] && layer->phrase, "%s", layer->name);
    }
    if (_i == 1) {
        ck_assert(!layer_bubblewrap.holds() && !layer_landlock.holds());
        ck_assert_msg(strstr(text, "no bubblewrap (") && !strstr(text, "Landlock: kit hidden"), "%s", text);
    }
    unsetenv("CLKIT_BUBBLEWRAP");
    unsetenv("CLKIT_LANDLOCK");
    free(text);
}
END_TEST

/* The limits layer holds everywhere and reaches the program: an untrusted run may open 256 files, a trusted one
   what the grader may. */
START_TEST(limits_layer_reaches_the_program)
{
    struct sandbox_outcome confined = run("ulimit -n", 1, 10, 4096), trusted = run("ulimit -n", 0, 10, 4096);
    ck_assert(layer_limits.holds());
    ck_assert_msg(confined.output && atoi(confined.output) == 256, "%s", confined.output ? confined.output : "");
    ck_assert_msg(trusted.output && (atoi(trusted.output) != 256 || sysconf(_SC_OPEN_MAX) == 256), "%s",
                  trusted.output ? trusted.output : "");
    sandbox_outcome_free(&confined);
    sandbox_outcome_free(&trusted);
}
END_TEST

/* Under bubblewrap a run's task cap counts its own tasks alone: a run of the same user beside it (gradings of a
   grader that is not root, workers sharing one user) that fills its cap after this one started does not keep this
   one from starting its processes. */
START_TEST(a_burst_of_the_same_user_does_not_starve_a_run_beside)
{
    struct sandbox_policy policy = {.untrusted = 1, .timeout_s = 30, .output_limit = 65536, .writable = "/tmp"};
    struct sandbox_child classmate, burst;
    struct sandbox_outcome outcome, ignored;
    char layers[512];
    char *classmate_argv[] = {"/bin/sh", "-c",
                              "sleep 3; n=0; for i in $(seq 40); do sleep 4 & n=$((n + 1)); done; echo started $n; wait",
                              NULL};
    char *burst_argv[] = {"/bin/sh", "-c", "for i in $(seq 600); do sleep 12 & done 2>/dev/null; sleep 12", NULL};
    if (!choose_layers(0))
        return;
    sandbox_layers(layers, sizeof layers);
    if (!strstr(layers, "bubblewrap:"))
        return; /* no bubblewrap here: runs beside each other are kept apart by users of their own */
    sandbox_init();
    ck_assert_int_eq(sandbox_spawn(classmate_argv, &policy, &classmate), 0);
    ck_assert_int_eq(sandbox_spawn(burst_argv, &policy, &burst), 0);
    sandbox_finish(&classmate, &outcome);
    ck_assert_msg(outcome.output && strstr(outcome.output, "started 40"), "the run beside was starved:\n%s",
                  outcome.output ? outcome.output : "");
    sandbox_outcome_free(&outcome);
    burst.stop_soon = 1;
    sandbox_finish(&burst, &ignored);
    sandbox_outcome_free(&ignored);
}
END_TEST

/* A run's progress is its CPU time, whatever loads the machine: one that spins uses it, one that waits does not
   (the judge's limits count it, so that a right kernel slow under the reference judge keeps its time on a busy
   machine while a hang still ends). */
START_TEST(cpu_time_counts_a_spinning_run_not_a_waiting_one)
{
    struct sandbox_policy policy = {.timeout_s = 30, .output_limit = 4096};
    struct sandbox_child spinning, waiting;
    struct sandbox_outcome outcome;
    char *spin_argv[] = {"/bin/sh", "-c", "while :; do :; done", NULL};
    char *wait_argv[] = {"/bin/sleep", "2", NULL};
    sandbox_init();
    double before = sandbox_cpu_seconds();
    ck_assert_int_eq(sandbox_spawn(wait_argv, &policy, &waiting), 0);
    sleep(1);
    double waited = sandbox_cpu_seconds() - before;
    sandbox_finish(&waiting, &outcome);
    sandbox_outcome_free(&outcome);
    ck_assert_msg(waited < 0.5, "a sleeping run used %.2f s of CPU", waited);
    before = sandbox_cpu_seconds();
    ck_assert_int_eq(sandbox_spawn(spin_argv, &policy, &spinning), 0);
    double spun = 0.0;
    for (int i = 0; i < 600 && spun < 0.3; i++) { /* on a busy machine it gets a core now and then */
        usleep(10000);
        spun = sandbox_cpu_seconds() - before;
    }
    spinning.stop_soon = 1;
    sandbox_finish(&spinning, &outcome);
    sandbox_outcome_free(&outcome);
    ck_assert_msg(spun >= 0.3, "a spinning run used %.2f s of CPU", spun);
}
END_TEST

Suite *sandbox_suite(void)
{
    Suite *s = suite_create("sandbox");
    TCase *tc = tcase_create("confinement");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, infinite_loop_times_out);
    tcase_add_test(tc, crash_is_named);
    tcase_add_test(tc, exec_captures_output);
    tcase_add_test(tc, output_is_capped_and_drained);
    tcase_add_test(tc, exec_of_missing_program);
    tcase_add_test(tc, deadline_holds_after_output_closes);
    tcase_add_test(tc, misbehaving_child_is_stopped_at_once);
    tcase_add_test(tc, landlock_keeps_writes_in_the_run_folder);
    tcase_add_test(tc, daemons_do_not_outlive_the_run);
    tcase_add_test(tc, untrusted_code_is_confined);
    tcase_add_test(tc, slurms_gpu_choice_reaches_the_run);
    tcase_add_loop_test(tc, shm_and_run_are_private, 0, 2); /* every layer, then Landlock without bubblewrap */
    tcase_add_loop_test(tc, no_connection_to_a_unix_socket_outside, 0, 2);
    tcase_add_test(tc, memory_past_the_cap_is_stopped);
    tcase_add_test(tc, memory_within_the_cap_is_measured);
    tcase_add_test(tc, workers_run_as_users_of_their_own);
    tcase_add_loop_test(tc, confinement_lists_every_layer, 0, 2);
    tcase_add_test(tc, limits_layer_reaches_the_program);
    tcase_add_test(tc, gradings_side_by_side_hold_users_of_their_own);
    tcase_add_loop_test(tc, a_burst_of_tasks_does_not_starve_a_worker_beside, 0, 2);
    tcase_add_test(tc, a_burst_of_the_same_user_does_not_starve_a_run_beside);
    tcase_add_test(tc, cpu_time_counts_a_spinning_run_not_a_waiting_one);
    suite_add_tcase(s, tc);
    return s;
}
