#include "suites.h"

#include "judge/device_lock.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

static char *shell(const char *command, int timeout_s, int expected_status)
{
    char *output;
    int status = run_in_kit(command, timeout_s, &output);
    ck_assert_msg(status == expected_status, "%s: status %d\n%s", command, status, output);
    return output;
}

static char *read_file(const char *path)
{
    char *text = NULL, command[512];
    snprintf(command, sizeof command, "cat '%s'", path);
    run_in_kit(command, 10, &text);
    return text;
}

START_TEST(grades_a_class_past_a_crash)
{
    char *output, *csv, *carol, *alice;
    int status = run_in_kit(
        "rm -rf build/check-class build/check-results && mkdir -p build/check-class/alice/lab1 "
        "build/check-class/bob/lab1 build/check-class/carol/lab1 && "
        "cp solutions/lab1/vadd.cl solutions/lab1/host.c build/check-class/alice/lab1/ && "
        /* alice keeps predictions: one the grader's launch confirms, one it cannot time under --quick */
        "printf '## Question 1\\npredict: 100,032\\nanswer: 1,563 groups\\n## Question 3\\npredict: 50%%\\n' "
        "> build/check-class/alice/lab1/answers.md && "
        "cp tests/fixtures/lab1/local-id/lab1/vadd.cl solutions/lab1/host.c build/check-class/bob/lab1/ && "
        "cp tests/fixtures/lab1/crash/lab1/vadd.cl labs/lab1/host.c build/check-class/carol/lab1/",
        30, &output);
    free(output);
    ck_assert_int_eq(status, 0);
    status = run_in_kit("NO_COLOR=1 ./grade --quick --seed 11 --submission build/check-class "
                        "--results build/check-results lab1 2>&1",
                        300, &output);
    ck_assert_msg(status == 0, "status %d\n%s", status, output);
    ck_assert_ptr_nonnull(strstr(output, "grading 3 submissions"));
    free(output);

    csv = read_file("build/check-results/scores.csv");
    ck_assert_msg(strstr(csv, "student,lab1,total,max,predicted,within,status\n"), "%s", csv);
    ck_assert_msg(strstr(csv, "alice,10.00,10.00,10.00,2,1,all passed\n"), "%s", csv);
    ck_assert_msg(strstr(csv, "\nbob,"), "%s", csv);
    ck_assert_msg(strstr(csv, "\ncarol,0.00,0.00,10.00,0,0,some failed\n"), "%s", csv);
    alice = read_file("build/check-results/alice.json");
    ck_assert_ptr_nonnull(strstr(alice, "\"score\":\t10,"));
    ck_assert_msg(strstr(alice, "\"predicted\":\t2,") && strstr(alice, "\"within\":\t1\n"), "%s", alice);
    ck_assert_msg(strstr(read_file("build/check-results/alice.txt"),
                         "question 1: predicted 100032; measured 100032, work-items"), "alice.txt lacks her prediction");
    carol = read_file("build/check-results/carol.txt");
    ck_assert_ptr_nonnull(strstr(carol, "crashed with SIGSEGV"));
    ck_assert_ptr_nonnull(strstr(read_file("build/check-results/bob.txt"), "only the first work-group"));
    free(csv);
    free(alice);
    free(carol);
}
END_TEST

START_TEST(several_submission_folders)
{
    char *output;
    int status = run_in_kit("NO_COLOR=1 ./grade --quick --submission tests/fixtures/lab2/no-stride-loop "
                            "--submission tests/fixtures/lab1/local-id --results build/check-results2 lab2 2>&1",
                            300, &output);
    ck_assert_msg(status == 0 && strstr(output, "grading 2 submissions"), "status %d\n%s", status, output);
    free(output);
    /* local-id has no lab2 folder: that lab fails with its full points, and the batch goes on. */
    output = read_file("build/check-results2/scores.csv");
    ck_assert_msg(strstr(output, "local-id,0.00,0.00,12.00,0,0,some failed"), "%s", output);
    ck_assert_msg(strstr(output, "no-stride-loop,"), "%s", output);
    free(output);
}
END_TEST

/* Three workers side by side on the one CPU device (--jobs 3) grade the class to the same CSV, row for row, as one
   worker does. Runs after grades_a_class_past_a_crash, whose class and results it reuses. */
START_TEST(side_by_side_grades_the_same)
{
    char *output, *one, *two;
    int status = run_in_kit("rm -rf build/check-results-2 && NO_COLOR=1 ./grade --quick --seed 11 --jobs 3 "
                            "--device cpu --submission build/check-class --results build/check-results-2 lab1 2>&1",
                            300, &output);
    ck_assert_msg(status == 0 && strstr(output, "3 workers side by side"), "status %d\n%s", status, output);
    ck_assert_msg(strstr(output, "carol") && strstr(output, "alice") && strstr(output, "bob"), "%s", output);
    free(output);
    one = read_file("build/check-results/scores.csv");
    two = read_file("build/check-results-2/scores.csv");
    ck_assert_msg(strlen(one) > 40 && strcmp(one, two) == 0, "one at a time:\n%s\nside by side:\n%s", one, two);
    free(one);
    free(two);
    two = read_file("build/check-results-2/carol.txt");
    ck_assert_ptr_nonnull(strstr(two, "crashed with SIGSEGV"));
    free(two);
}
END_TEST

/* A class whose names attack the files the grader writes: a formula name, a name with a line break and tabs, two
   names that clean to one ("bob smith", wrong, beside "bob_smith", right), a student named index, a 252-byte name,
   a stray file first; and a results folder with a planted link and a stale results file. Every right student gets
   their own full marks, the refused ones a row that says why, the CSV one line per entry, the report its pages. */
START_TEST(hostile_names_break_no_file)
{
    char *output, *csv, *index;
    free(shell("rm -rf build/check-hostile build/check-hostile-results build/check-hostile-report && "
               "sh tests/make_class.sh build/check-hostile 2 >/dev/null && cd build/check-hostile && "
               "cp -r s01 bob_smith && cp -r s02 'bob smith' && cp -r s01 index && cp -r s01 -- -lead && "
               "cp -r s01 \"$(printf 'x%.0s' $(seq 252))\" && cp -r s01 \"$(printf 'eve\\nfake\\tsolutions\\t')\" && "
               "touch 000stray && mkdir -p ../check-hostile-results && echo untouched > ../check-hostile-victim && "
               "ln -s ../check-hostile-victim ../check-hostile-results/s01.txt && "
               "cp ../../tests/fixtures/reports/ghost.record ../check-hostile-results/", 30, 0));
    free(shell("NO_COLOR=1 ./grade --quick --seed 5 --submission build/check-hostile --results "
               "build/check-hostile-results --html build/check-hostile-report lab1 >/dev/null 2>&1", 300, 0));
    /* Right students score 10 of 10, the wrong kernel 3.27: the rows are each student's own. */
    output = shell("awk -F, 'NR > 1 && $2 + 0 == 10 { print $1 }' build/check-hostile-results/scores.csv", 10, 0);
    ck_assert_str_eq(output, "\"'-lead\"\nbob_smith\nindex\ns01\n"
                             "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx-9007009e\n");
    free(output);
    csv = read_file("build/check-hostile-results/scores.csv");
    ck_assert_msg(strstr(csv, "'bob smith' has the file name bob_smith") &&
                  strstr(csv, "control characters ('eve\\nfake\\tsolutions\\t')") && !strstr(csv, "\nfake") &&
                  strstr(csv, "\ns02,3.27,"), "%s", csv);
    output = shell("awk 'END { print NR }' build/check-hostile-results/scores.csv; "
                   "cat build/check-hostile-victim; xmllint --noout build/check-hostile-report/index.html "
                   "build/check-hostile-report/students/*.html && echo well-formed", 30, 0);
    ck_assert_str_eq(output, "10\nuntouched\nwell-formed\n"); /* the header and nine entries */
    free(output);
    index = read_file("build/check-hostile-report/index.html");
    ck_assert_msg(strstr(index, "<h1>clkit: the class</h1>") && strstr(index, "<p>9 students.</p>") &&
                  strstr(index, "<tr><td>exact cases</td><td>5 of 6 (83%)</td></tr>") && !strstr(index, "ghost") &&
                  strstr(index, "href=\"students/index.html\""), "%s", index);
    free(index);
    free(csv);
}
END_TEST

/* Two workers side by side, each confining code as its own user: a student who looks for the other worker's
   scratch folder through /proc and fills the task cap in bursts reads nothing of a classmate's, and the classmate's
   right solution keeps its marks; with bubblewrap, then with Landlock alone. */
START_TEST(a_worker_neither_reads_nor_starves_another)
{
    char command[1024], *output, *mallory, *csv;
    int status;
    snprintf(command, sizeof command,
             "rm -rf build/check-neighbours build/check-neighbours-results && mkdir -p build/check-neighbours/alice "
             "build/check-neighbours/mallory && cp -r solutions/lab1 build/check-neighbours/alice/ && "
             "cp -r tests/fixtures/attacks/worker-neighbour/lab1 build/check-neighbours/mallory/ && "
             "%s NO_COLOR=1 ./grade --quick --seed 5 --devices cpu,cpu --submission build/check-neighbours "
             "--results build/check-neighbours-results lab1 2>&1", _i ? "CLKIT_BUBBLEWRAP=0" : "");
    status = run_in_kit(command, 300, &output);
    ck_assert_msg(status == 0 && strstr(output, "2 workers side by side"), "status %d\n%s", status, output);
    free(output);
    mallory = read_file("build/check-neighbours-results/mallory.txt");
    ck_assert_msg(strstr(mallory, "clkit-attack saw"), "the attack did not run:\n%s", mallory);
    ck_assert_msg(!strstr(mallory, "READ A CLASSMATE'S FILE"), "a worker read another's files:\n%s", mallory);
    free(mallory);
    csv = read_file("build/check-neighbours-results/scores.csv");
    output = read_file("build/check-neighbours-results/alice.txt");
    ck_assert_msg(strstr(csv, "\nalice,10.00,10.00,10.00,0,0,all passed\n"), "%s\n%s", csv, output);
    free(output);
    free(csv);
}
END_TEST

/* On a GPU, side by side: a student whose host program takes all the device's memory and keeps it costs the two
   right students beside it nothing (a failure a neighbour could cause is graded again alone). Needs a GPU. */
START_TEST(a_neighbour_holding_the_device_costs_nobody)
{
    char *output, *csv;
    int gpus = run_in_kit("./grade --list-devices 2>&1 | grep -q '\\[gpu\\]'", 30, &output);
    free(output);
    if (gpus != 0)
        return; /* no GPU: workers on a CPU device hold it for whole labs, and no neighbour runs beside */
    free(shell("rm -rf build/check-hog build/check-hog-results && mkdir -p build/check-hog/alice build/check-hog/bob "
               "build/check-hog/mallory && cp -r solutions/lab1 build/check-hog/alice/ && "
               "cp -r solutions/lab1 build/check-hog/bob/ && "
               "cp -r tests/fixtures/attacks/device-memory/lab1 build/check-hog/mallory/", 30, 0));
    free(shell("NO_COLOR=1 ./grade --quick --seed 5 --device gpu --jobs 3 --submission build/check-hog "
               "--results build/check-hog-results lab1 2>&1", 300, 0));
    csv = read_file("build/check-hog-results/scores.csv");
    ck_assert_msg(strstr(csv, "\nalice,10.00,10.00,10.00,") && strstr(csv, "\nbob,10.00,10.00,10.00,") &&
                  strstr(csv, "\nmallory,7.00,"), "%s", csv);
    free(csv);
}
END_TEST

/* On a GPU, one grading (no batch, no device lock) beside a process that holds all the device's memory for a while,
   as a neighbour's grading or a program left running may: the right kernel and host program lose nothing (their
   cases wait for the memory), and the hog really held it. Needs a GPU. */
START_TEST(one_grading_beside_a_memory_hog_loses_nothing)
{
    char *output, *hog;
    int gpus = run_in_kit("./grade --list-devices 2>&1 | grep -q '\\[gpu\\]'", 30, &output);
    free(output);
    if (gpus != 0)
        return; /* no GPU: a CPU device's memory is the machine's, and the hog refuses it */
    output = shell("rm -f build/check-hog.out && (build/tests/device_hog gpu 12 > build/check-hog.out &) && "
                   "for i in $(seq 1 100); do grep -q holding build/check-hog.out 2>/dev/null && break; sleep 0.2; "
                   "done && NO_COLOR=1 ./grade --quick --seed 5 --device gpu --solutions lab1 2>&1", 300, 0);
    hog = read_file("build/check-hog.out");
    ck_assert_msg(strstr(hog, "holding ") && !strstr(hog, "holding 0 GiB"), "%s", hog);
    ck_assert_msg(strstr(output, "total: 10.0 / 10 points"), "%s", output);
    free(hog);
    free(output);
}
END_TEST

/* A class of more entries than one run grades is refused whole, not cut short. */
START_TEST(too_many_entries_are_refused)
{
    char *output;
    free(shell("rm -rf build/check-crowd && mkdir -p build/check-crowd/s0/lab1 && cd build/check-crowd && "
               "seq 1 1024 | sed 's/^/f/' | xargs touch", 30, 0));
    output = shell("./grade --quick --submission build/check-crowd --results build/check-crowd-results lab1 2>&1", 30, 2);
    ck_assert_msg(strstr(output, "more than 1024 entries"), "%s", output);
    free(output);
}
END_TEST

/* What workers did on the device, in the order it happened: each hold recorded once taken and before it ends. */
struct device_event {
    int worker, alone, taken;
};
struct device_log {
    int count;
    struct device_event events[4096];
};

static struct device_log *new_log(void)
{
    struct device_log *log = mmap(NULL, sizeof *log, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    ck_assert_ptr_ne(log, MAP_FAILED);
    log->count = 0;
    return log;
}

static void record(struct device_log *log, int worker, int alone, int taken)
{
    int at = __atomic_fetch_add(&log->count, 1, __ATOMIC_SEQ_CST);
    if (at < 4096)
        log->events[at] = (struct device_event){.worker = worker, .alone = alone, .taken = taken};
}

/* A fresh lock file in its own private folder, as a batch makes one. */
static void lock_path(char *path, size_t size)
{
    char dir[] = "/tmp/clkit-check-lock-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, size, "%s/device-0.lock", dir);
}

/* A fake worker's stages: correctness work (shared), and in every other round a timing (alone) in the middle of
   it, which asks for the device shared again (a request while timing) without giving up its hold. */
static void fake_worker(const char *path, struct device_log *log, int worker, int rounds)
{
    for (int round = 0; round < rounds; round++) {
        enum device_lock_mode before = device_lock_take(path, DEVICE_LOCK_SHARED);
        record(log, worker, 0, 1);
        usleep(300);
        if ((round + worker) % 2 == 0) {
            record(log, worker, 0, 0);
            enum device_lock_mode held = device_lock_take(path, DEVICE_LOCK_ALONE);
            record(log, worker, 1, 1);
            enum device_lock_mode inner = device_lock_take(path, DEVICE_LOCK_SHARED); /* a case while timing */
            usleep(300);
            device_lock_restore(path, inner);
            usleep(300);
            record(log, worker, 1, 0);
            device_lock_restore(path, held);
            record(log, worker, 0, 1);
        }
        usleep(300);
        record(log, worker, 0, 0);
        device_lock_restore(path, before);
    }
}

/* Five workers, each timing inside its correctness work: every timing is alone, no other worker's work (nor
   another timing) between its start and its end; every worker finishes (no deadlock). */
START_TEST(a_timing_never_overlaps_other_device_work)
{
    enum { WORKERS = 5, ROUNDS = 20 };
    struct device_log *log = new_log();
    char path[128];
    int alone = 0, status;
    lock_path(path, sizeof path);
    for (int w = 0; w < WORKERS; w++)
        if (fork() == 0) {
            fake_worker(path, log, w, ROUNDS);
            _exit(0);
        }
    for (int w = 0; w < WORKERS; w++) {
        ck_assert_int_gt(wait(&status), 0);
        ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    }
    ck_assert_int_le(log->count, 4096);
    for (int i = 0; i < log->count; i++) {
        const struct device_event *e = &log->events[i];
        if (!e->alone || !e->taken)
            continue;
        alone++;
        for (int j = i + 1; j < log->count && !(log->events[j].worker == e->worker && log->events[j].alone); j++)
            ck_assert_msg(log->events[j].worker == e->worker, "worker %d's timing (event %d) overlaps worker %d's "
                          "%s (event %d)", e->worker, i, log->events[j].worker,
                          log->events[j].alone ? "timing" : "device work", j);
    }
    ck_assert_int_eq(alone, WORKERS * ROUNDS / 2);
    munmap(log, sizeof *log);
}
END_TEST

/* Waits up to 30 s for a byte on fd; returns 1 when one came. */
static int byte_within(int fd)
{
    struct pollfd p = {.fd = fd, .events = POLLIN};
    char c;
    return poll(&p, 1, 30000) == 1 && read(fd, &c, 1) == 1;
}

/* Two workers' correctness work runs side by side: each holds the device shared until it sees the other hold it
   too (were the hold exclusive, neither would). */
START_TEST(correctness_work_runs_side_by_side)
{
    int to_child[2], to_parent[2], status;
    char path[128];
    lock_path(path, sizeof path);
    ck_assert(pipe(to_child) == 0 && pipe(to_parent) == 0);
    if (fork() == 0) {
        device_lock_take(path, DEVICE_LOCK_SHARED);
        _exit(write(to_parent[1], "x", 1) == 1 && byte_within(to_child[0]) ? 0 : 1);
    }
    ck_assert_msg(byte_within(to_parent[0]), "the first worker never held the device");
    enum device_lock_mode before = device_lock_take(path, DEVICE_LOCK_SHARED);
    ck_assert_int_eq(write(to_child[1], "x", 1), 1);
    ck_assert_int_gt(wait(&status), 0);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the second hold never came while the first stood");
    device_lock_restore(path, before);
}
END_TEST

/* Whether a process holds path's gate: a timing is waiting for the device. */
static int gate_held(const char *path)
{
    char gate[160];
    snprintf(gate, sizeof gate, "%s.gate", path);
    int fd = open(gate, O_RDWR | O_CLOEXEC), held = fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) != 0 &&
                                                    errno == EWOULDBLOCK;
    if (fd >= 0)
        close(fd);
    return held;
}

/* A timing that waits for the device keeps new correctness work out: work asked for after it comes after it, so a
   class's steady stream of cases never starves the timings. */
START_TEST(a_waiting_timing_goes_before_later_work)
{
    struct device_log *log = new_log();
    char path[128];
    pid_t timing, later;
    int status;
    lock_path(path, sizeof path);
    enum device_lock_mode before = device_lock_take(path, DEVICE_LOCK_SHARED);
    if ((timing = fork()) == 0) {
        device_lock_take(path, DEVICE_LOCK_ALONE);
        record(log, 1, 1, 1);
        _exit(0);
    }
    for (int i = 0; i < 3000 && !gate_held(path); i++)
        usleep(10000);
    ck_assert_msg(gate_held(path), "the timing never came to wait at the gate");
    if ((later = fork()) == 0) {
        device_lock_take(path, DEVICE_LOCK_SHARED);
        record(log, 2, 0, 1);
        _exit(0);
    }
    usleep(100000); /* room for a wrong lock to let the later work in first (it must not) */
    record(log, 0, 0, 0);
    device_lock_restore(path, before);
    ck_assert(waitpid(timing, &status, 0) == timing && waitpid(later, &status, 0) == later);
    ck_assert_int_eq(log->count, 3);
    ck_assert_msg(log->events[0].worker == 0 && log->events[1].worker == 1 && log->events[2].worker == 2,
                  "order: %d %d %d", log->events[0].worker, log->events[1].worker, log->events[2].worker);
    munmap(log, sizeof *log);
}
END_TEST

Suite *batch_suite(void)
{
    Suite *s = suite_create("batch");
    TCase *tc = tcase_create("class");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, grades_a_class_past_a_crash);
    tcase_add_test(tc, several_submission_folders);
    tcase_add_test(tc, side_by_side_grades_the_same);
    tcase_add_loop_test(tc, a_worker_neither_reads_nor_starves_another, 0, 2);
    tcase_add_test(tc, a_neighbour_holding_the_device_costs_nobody);
    tcase_add_test(tc, one_grading_beside_a_memory_hog_loses_nothing);
    suite_add_tcase(s, tc);
    tc = tcase_create("hostile class");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, hostile_names_break_no_file);
    tcase_add_test(tc, too_many_entries_are_refused);
    suite_add_tcase(s, tc);
    tc = tcase_create("device lock");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, a_timing_never_overlaps_other_device_work);
    tcase_add_test(tc, correctness_work_runs_side_by_side);
    tcase_add_test(tc, a_waiting_timing_goes_before_later_work);
    suite_add_tcase(s, tc);
    return s;
}
