#include "judge/host_test.h"

#include "files.h"
#include "ledger.h"
#include "wire/compare.h"
#include "judge/device_busy.h"
#include "judge/device_lock.h"
#include "judge/host_probe.h"
#include "judge/source_rules.h"
#include "judge/reference_judge.h"
#include "judge/command_trace.h"
#include "labs/technique.h"
#include "ledgertag.h"
#include "options.h"
#include "problem.h"
#include "sandbox/sandbox.h"
#include "sandbox/scratch.h"
#include "text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#define OUTPUT_KEPT 4096
#define REASON_SIZE 8192
#define MAX_FLAGS 96
#define LEDGER_KEPT (8 << 20) /* the ledger bounds its lines (ledger.h): 2048 commands and 8192 waits fit */

/* A host program's run folder: the scratch copy of its lab folder it is built in, and where its binary and --out
   file go; each run starts in a folder of its own (stage), a fresh copy of the submission under a random name. */
struct host_run {
    char run[PATH_MAX], work[PATH_MAX + 64], binary[PATH_MAX + 16], out[PATH_MAX + 16], stage[PATH_MAX + 64];
    char log[PATH_MAX + 16];    /* Oclgrind's diagnostics of the run under it */
    char ledger[PATH_MAX + 16]; /* what the run did with OpenCL (common/ledger.h) */
    char shown[PATH_MAX + 64];  /* host.c as the user knows it */
    size_t memory_limit;        /* what the lab's host program may hold (scratch_memory_limit) */
    uint64_t key[2];            /* this run's seal on the ledger's lines (common/ledgertag.h) */
    int schedule_checked;       /* lab 12: the lab's size ran and its schedule was judged */
    int schedule_passed;
    char schedule[3200];        /* what the schedule's judgement found */
    int simulated_stood;        /* the run under Oclgrind reached its device: its verdict stands */
};

/* The last lines of what the program printed, for the reason. */
static const char *tail_of(const char *output, size_t keep)
{
    size_t length = output ? strlen(output) : 0;
    return length > keep ? output + length - keep : (output ? output : "");
}

static struct sandbox_policy policy_for(const struct grading *g, const struct host_run *h)
{
    static char kit[sizeof g->scratch + 8]; /* the policy points at it after this returns */
    struct sandbox_policy p = {.untrusted = 1, .workdir = h->work, .readable = kit, .writable = h->run,
                               .timeout_s = g->config.timeout_s, .output_limit = 1 << 20,
                               .memory_limit = h->memory_limit};
    snprintf(kit, sizeof kit, "%s/kit", g->scratch);
    memcpy(p.hidden, g->hidden, sizeof p.hidden);
    return p;
}

/* The compiler and flags the kit builds host programs with (build/host-flags, one per line, "--" before the
   libraries), around the scratch copy's source, library and headers. */
static int build_argv(const struct grading *g, const struct host_run *h, char **argv, char *words, size_t size)
{
    char path[PATH_MAX + 32], *text, *save = NULL, *line;
    static char cc[PATH_MAX], include[PATH_MAX + 32], library[PATH_MAX + 32], source_dir[PATH_MAX + 96];
    static char source[PATH_MAX + 96];
    int argc = 0, libraries = 0;
    snprintf(path, sizeof path, "%s/build/host-flags", g->root);
    if (!(text = clk_read_text(path, NULL)))
        return -1;
    snprintf(words, size, "%s", text);
    free(text);
    snprintf(include, sizeof include, "-I%s/kit/include", g->scratch);
    snprintf(library, sizeof library, "%s/kit/lib/libclkit.a", g->scratch);
    snprintf(source_dir, sizeof source_dir, "-DCLK_SOURCE_DIR=\"%s\"", h->work);
    /* Relative to the run's folder, where the compiler runs: its messages then name host.c, not a scratch path. */
    snprintf(source, sizeof source, "host.c");
    for (line = strtok_r(words, "\n", &save); line && argc < MAX_FLAGS - 8; line = strtok_r(NULL, "\n", &save)) {
        if (argc == 0 && sandbox_find_program(line, cc, sizeof cc) != 0)
            return -1;
        if (argc == 0)
            argv[argc++] = cc;
        else if (strcmp(line, "--") == 0 && !libraries) {
            libraries = 1;
            argv[argc++] = include, argv[argc++] = source_dir, argv[argc++] = source, argv[argc++] = library;
        } else if (argc > 0)
            argv[argc++] = line;
    }
    argv[argc++] = "-o", argv[argc++] = (char *)h->binary;
    argv[argc] = NULL;
    return argc > 8 && libraries ? 0 : -1;
}

/* Builds the program from the scratch copy, confined like any submitted code; on failure says why in reason. */
static int build(const struct grading *g, struct host_run *h, char *reason, size_t size)
{
    static char words[8192];
    char *argv[MAX_FLAGS];
    struct sandbox_policy p = policy_for(g, h);
    struct sandbox_outcome outcome;
    int rc = 0;
    if (build_argv(g, h, argv, words, sizeof words) != 0) {
        snprintf(reason, size, "the grader cannot find the compiler or the flags the kit builds host programs with "
                 "(%s/build/host-flags): run make", g->root);
        return -1;
    }
    sandbox_exec(argv, &p, &outcome);
    if (outcome.end != SANDBOX_EXITED || outcome.code != 0) {
        char how[256];
        sandbox_describe(&outcome, p.timeout_s, how, sizeof how);
        snprintf(reason, size, "%s does not compile (the compiler %s):\n%s", h->shown, how,
                 tail_of(outcome.output, OUTPUT_KEPT));
        rc = -1;
    }
    sandbox_outcome_free(&outcome);
    return rc;
}

/* Writes text to a new file at path, never through a link that confined code may have left there. */
static int write_new_file(const char *path, const char *text)
{
    size_t length = strlen(text);
    int fd, rc;
    scratch_remove(path);
    if ((fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644)) < 0)
        return -1;
    rc = write(fd, text, length) == (ssize_t)length ? 0 : -1;
    return close(fd) == 0 ? rc : -1;
}

/* Checks with the host rules every C source and header beside host.c, which host.c may include ("helper.h"). */
static int check_sources(const struct hostprog_job *job, const struct host_run *h, char *reason, size_t size)
{
    DIR *dir = opendir(h->work);
    struct dirent *entry;
    int rc = 0;
    while (dir && rc == 0 && (entry = readdir(dir))) {
        size_t length = strlen(entry->d_name);
        char path[sizeof h->work + 260], shown[2 * PATH_MAX + 400];
        if (length < 3 || entry->d_name[length - 2] != '.' ||
            (entry->d_name[length - 1] != 'c' && entry->d_name[length - 1] != 'h') || !strcmp(entry->d_name, "host.c"))
            continue;
        snprintf(path, sizeof path, "%s/%s", h->work, entry->d_name);
        snprintf(shown, sizeof shown, "%s/%s/%s", job->g->source_dir, job->lab->name, entry->d_name);
        rc = rules_check_file(RULES_HOST, path, shown, reason, size);
    }
    if (dir)
        closedir(dir);
    return rc;
}

/* Gives the run the program the lab's runner built, before any submitted code ran, from this very kernel text as a
   host program builds it (lab_run.c): the program's build is then PoCL's cache's, not half a second of its own. */
static void give_kept_program(const struct hostprog_job *job, const struct host_run *h)
{
    char path[PATH_MAX + 96], *source;
    size_t length = 0;
    snprintf(path, sizeof path, "%s/%s", h->work, job->lab->kernel_file);
    if ((source = scratch_read_untrusted(path, SCRATCH_BYTES_LIMIT, &length)) != NULL)
        scratch_link_builds(job->g->root, job->lab->name, h->run, source, length);
    free(source);
}

/* Stages the run folder and gets the binary: the kit's own for the solutions, else built afresh. */
static int prepare(const struct hostprog_job *job, struct host_run *h, char *reason, size_t size)
{
    const struct grading *g = job->g;
    char src[PATH_MAX + 32], copy[PATH_MAX + 96], prebuilt[PATH_MAX + 64];
    snprintf(h->shown, sizeof h->shown, "%s/%s/host.c", g->source_dir, job->lab->name);
    snprintf(src, sizeof src, "%s/%s", g->source_dir, job->lab->name);
    char name[64];
    snprintf(name, sizeof name, "%s%s", job->lab->name, HOSTPROG_RUN);
    if (scratch_open_run(g->root, g->scratch, name, g->config.solutions, h->run, sizeof h->run, reason, size) != 0)
        return -1;
    h->memory_limit = scratch_memory_limit(g->root, name);
    snprintf(h->work, sizeof h->work, "%s/work-host", h->run);
    snprintf(h->binary, sizeof h->binary, "%s/host", h->run);
    snprintf(h->out, sizeof h->out, "%s/out.bin", h->run);
    snprintf(h->log, sizeof h->log, "%s/oclgrind.log", h->run);
    snprintf(h->ledger, sizeof h->ledger, "%s/ledger.txt", h->run);
    /* Nothing an earlier run of this lab left may stand in for what this program builds or writes. */
    scratch_remove(h->log);
    scratch_remove(h->ledger);
    scratch_remove(h->work);
    scratch_remove(h->binary);
    scratch_remove(h->out);
    if (scratch_copy_submission(src, h->work, reason, size) != 0)
        return -1;
    snprintf(copy, sizeof copy, "%s/host.c", h->work);
    if (!clk_file_exists(copy)) {
        snprintf(reason, size, "%s is missing: the submission has no host program", h->shown);
        return -1;
    }
    if (rules_check_file(RULES_HOST, copy, h->shown, reason, size) != 0 || check_sources(job, h, reason, size) != 0)
        return -1;
    if (!g->config.solutions) {
        give_kept_program(job, h);
        return build(g, h, reason, size);
    }
    snprintf(prebuilt, sizeof prebuilt, "%s/build/solutions/%s/host", g->root, job->lab->name);
    return scratch_copy_file(prebuilt, h->binary, 0755, reason, size);
}

/* One run of the host program: the size, whether it is given the probe, and where it runs. */
struct host_check {
    const char *size;
    int probe;        /* given the probe (judge/host_probe.h) under the lab's kernel name, with a secret of its own */
    int fallback;     /* run only where the run under Oclgrind did not stand (not installed, or the judge failed) */
    const char *what; /* for the report: "at the lab's size", "under Oclgrind, ..." */
    int simulated;    /* run under Oclgrind, whose findings fail it */
};

/* The layout of the result a host program writes, so that a matrix is reported by row and column. */
static struct compare_shape host_shape(const struct grade_lab_spec *lab, const size_t *dims, size_t count)
{
    struct compare_shape shape = {.type = lab->family->result_type, .count = count};
    if (lab->family->dim_count == 3)
        shape.rows = dims[0], shape.cols = dims[1];
    else if (lab->family->dim_count == 2) /* the transpose: cols x rows */
        shape.rows = dims[1], shape.cols = dims[0];
    return shape;
}

static void compare_output(const struct grade_lab_spec *lab, const size_t *dims, const float *got,
                           const double *expected, const double *bound, size_t count, char *reason, size_t size)
{
    struct compare_shape shape = host_shape(lab, dims, count);
    struct compare_summary summary;
    compare_result(got, expected, bound, &shape, &summary);
    if (summary.wrong == 0)
        return;
    compare_format(&summary, got, expected, &shape, reason, size);
}

/* What a run's ledger (common/ledger.h) says it did with OpenCL. */
struct ledger_view {
    int ended, queues, oclgrind_queues, no_profiling, launches, live_count;
    int unprofiled_queues; /* queues created without CL_QUEUE_PROFILING_ENABLE: what no_profiling must come from
                              to be the queue's fault (an event asked before it ran answers the same) */
    long forged;    /* the first line without the run's seal (from 1), 0 when every line has it */
    int too_long;   /* larger than LEDGER_KEPT: not read */
    char *text;     /* the unsealed lines, for the schedule (caller frees) */
    char live[256]; /* "2 buffer, 1 kernel": what it never released */
    char grid[512]; /* the first launch with more work-groups than the lab's contract, described; "" when none */
};

/* The extent of the result along each NDRange dimension (dimension 0 along the columns, as the labs fix). */
static void grid_extent(const struct grade_lab_spec *lab, const size_t *dims, size_t *extent)
{
    extent[0] = lab->family->dim_count == 1 ? dims[0] : dims[1];
    extent[1] = lab->family->dim_count == 1 ? 1 : dims[0];
}

/* Notes in v a launch with a work-group wholly past the result (g global, l local, wpt outputs a side each). */
static void check_launch(const size_t *extent, unsigned dims, const size_t *g, const size_t *l, int wpt,
                         struct ledger_view *v)
{
    size_t groups[2] = {1, 1}, needed[2] = {1, 1};
    int past = 0;
    for (unsigned d = 0; d < dims && d < 2; d++) {
        if (l[d] == 0 || wpt <= 0)
            return; /* the implementation chose the work-group: nothing to count */
        groups[d] = (g[d] + l[d] - 1) / l[d];
        needed[d] = (extent[d] + (size_t)wpt * l[d] - 1) / ((size_t)wpt * l[d]);
        past |= groups[d] > needed[d];
    }
    if (!past || v->grid[0])
        return;
    if (dims == 1)
        snprintf(v->grid, sizeof v->grid, "it launched %zu work-groups of %zu where %zu cover the %zu elements: the "
                 "work-groups past them compute nothing (launch ceil(n / local) work-groups)", groups[0], l[0],
                 needed[0], extent[0]);
    else
        snprintf(v->grid, sizeof v->grid, "it launched %zu x %zu work-groups of %zu x %zu work-items where %zu x %zu "
                 "cover the %zu x %zu result at %d x %d outputs per work-item: the work-groups past them compute "
                 "nothing (size the grid from the result: ceil(extent / %s) work-groups a side)", groups[0],
                 groups[1], l[0], l[1], needed[0], needed[1], extent[0], extent[1], wpt, wpt,
                 wpt > 1 ? "(WPT x local), WPT from -DWPT" : "local");
}

/* Reads the ledger the run left, its seal checked with key; the grid is checked against extent where check_grid is
   set. A line without the seal stops the reading: nothing of it is believed. */
static void read_ledger(const char *path, const uint64_t key[2], const size_t *extent, int check_grid,
                        struct ledger_view *v)
{
    size_t length = 0;
    char *text = scratch_read_untrusted(path, LEDGER_KEPT, &length), *save = NULL, *copy;
    struct stat st;
    memset(v, 0, sizeof *v);
    v->too_long = !text && lstat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > LEDGER_KEPT;
    if (text && trace_unseal(text, key, &v->forged) != 0) {
        free(text);
        return;
    }
    v->text = text ? strdup(text) : NULL;
    copy = text;
    for (char *line = copy ? strtok_r(copy, "\n", &save) : NULL; line; line = strtok_r(NULL, "\n", &save)) {
        size_t g[2] = {0, 0}, l[2] = {0, 0};
        unsigned dims = 0;
        int profiling = 0, wpt = 1, count = 0;
        char kind[32];
        if (sscanf(line, "queue %d", &profiling) == 1) /* the queue's platform: "Oclgrind" under the judge */
            v->queues++, v->oclgrind_queues += strstr(line, " Oclgrind") != NULL, v->unprofiled_queues += !profiling;
        else if (strcmp(line, "no-profiling") == 0)
            v->no_profiling = 1;
        else if (sscanf(line, "launch %u %zu %zu %zu %zu %d", &dims, &g[0], &g[1], &l[0], &l[1], &wpt) == 6) {
            v->launches++;
            if (check_grid)
                check_launch(extent, dims, g, l, wpt, v);
        } else if (sscanf(line, "live %31s %d", kind, &count) == 2 && count > 0) {
            v->live_count += count;
            clk_append(v->live, sizeof v->live, "%s%d %s%s", v->live[0] ? ", " : "", count, kind,
                       count > 1 ? "s" : "");
        } else if (strcmp(line, "end") == 0)
            v->ended = 1;
    }
    free(text);
}

/* Why a run whose result is right still fails by its ledger, in reason; returns 1 when it does. */
static int ledger_fault(const struct ledger_view *v, char *reason, size_t size)
{
    if (v->too_long)
        snprintf(reason, size, "the grader's record of its OpenCL calls is larger than the grader reads (%d MiB): "
                 "something in the program wrote to that file", LEDGER_KEPT >> 20);
    else if (v->forged)
        snprintf(reason, size, "the grader's record of its OpenCL calls holds a line that the grader's ledger did "
                 "not write (line %ld): something in the program wrote to that file, and nothing in it is believed",
                 v->forged);
    else if (v->launches == 0)
        snprintf(reason, size, "it wrote the result without launching a kernel through OpenCL");
    else if (!v->ended)
        snprintf(reason, size, "it did not exit through main's return or exit(), so the grader could not count the "
                 "OpenCL objects it released");
    else if (v->live_count > 0)
        snprintf(reason, size, "the result is right, but it never released %s: release every OpenCL object it "
                 "creates (clReleaseMemObject, clReleaseKernel, clReleaseProgram, clReleaseCommandQueue, "
                 "clReleaseContext, clReleaseEvent) before it exits", v->live);
    else if (v->grid[0])
        snprintf(reason, size, "the result is right, but %s", v->grid);
    else
        return 0;
    return 1;
}

static int check_output(const struct hostprog_job *job, const struct host_run *h, const struct host_check *check,
                        float secret, int status, char *reason, size_t size)
{
    size_t dims[3] = {0, 0, 0}, length = 0, count, expected_count;
    enum clk_problem_kind kind = job->lab->family->problem;
    double *expected = NULL, *bound = NULL;
    char *bytes;
    int passed = 0;
    clk_parse_dims(check->size, dims, job->lab->family->dim_count);
    expected_count = check->probe ? probe_reference(kind, dims, job->seed, secret, &expected, &bound)
                                  : clk_problem_reference(kind, dims, job->seed, &expected, &bound);
    bytes = scratch_read_untrusted(h->out, expected_count * sizeof(float) + 4096, &length);
    count = length / sizeof(float);
    reason[0] = '\0';
    if (!bytes && status != 0)
        snprintf(reason, size, "it exited with status %d and wrote no --out file", status);
    else if (!bytes)
        snprintf(reason, size, "it wrote no --out file (or not a plain file of the right size): write the result "
                 "with clk_write_floats");
    else if (count != expected_count || length % sizeof(float))
        snprintf(reason, size, "its --out file holds %zu bytes; %zu floats expected", length, expected_count);
    else
        compare_output(job->lab, dims, (const float *)bytes, expected, bound, count, reason, size);
    passed = reason[0] == '\0';
    free(bytes);
    free(expected);
    free(bound);
    return passed;
}

/* The command line of one run: the program (under Oclgrind when the check is simulated) and its options. */
static void run_argv(const struct hostprog_job *job, const struct host_run *h, const struct host_check *check,
                     const char *seed, char **argv)
{
    static char oclgrind[PATH_MAX];
    int argc = 0;
    if (check->simulated && sandbox_find_program("oclgrind", oclgrind, sizeof oclgrind) == 0)
        argv[argc++] = oclgrind, argv[argc++] = "--log", argv[argc++] = (char *)h->log;
    argv[argc++] = (char *)h->binary;
    argv[argc++] = "--size", argv[argc++] = (char *)check->size;
    argv[argc++] = "--seed", argv[argc++] = (char *)seed;
    /* Relative to the folder it starts in, which holds the submission, or the probe under the same name. */
    argv[argc++] = "--kernel", argv[argc++] = (char *)job->lab->kernel_file;
    argv[argc++] = "--out", argv[argc++] = (char *)h->out;
    /* Oclgrind is the only device a program sees under it. */
    if (job->g->config.device && !check->simulated)
        argv[argc++] = "--device", argv[argc++] = (char *)job->g->config.device;
    argv[argc] = NULL;
}

/* A fresh folder for one run under a random name, holding a copy of the submission and, for the probe, the probe
   in the lab kernel's place with a new secret (*secret); made before any confined code runs in it. */
static int stage_run(const struct hostprog_job *job, struct host_run *h, const struct host_check *check,
                     float *secret, char *reason, size_t size)
{
    const struct grading *g = job->g;
    unsigned char name[8];
    char src[PATH_MAX + 32], path[PATH_MAX + 160], *text = NULL;
    int rc = -1;
    if (h->stage[0])
        scratch_remove(h->stage);
    if (probe_random(name, sizeof name) != 0 || !(*secret = probe_secret())) {
        snprintf(reason, size, "the grader has no random numbers for its probe (getrandom failed)");
        return -1;
    }
    snprintf(h->stage, sizeof h->stage, "%s/", h->run);
    for (size_t i = 0; i < sizeof name; i++)
        clk_append(h->stage, sizeof h->stage, "%02x", name[i]);
    snprintf(src, sizeof src, "%s/%s", g->source_dir, job->lab->name);
    if (scratch_copy_submission(src, h->stage, reason, size) != 0)
        return -1;
    if (!check->probe)
        return 0;
    snprintf(path, sizeof path, "%s/%s", g->kernels_dir, job->lab->family->probe_file);
    text = probe_source(path, job->lab->kernel_name, *secret);
    snprintf(path, sizeof path, "%s/%s", h->stage, job->lab->kernel_file);
    rc = text && write_new_file(path, text) == 0 ? 0 : -1;
    if (rc != 0)
        snprintf(reason, size, "the grader cannot stage its probe kernel %s/%s", g->kernels_dir,
                 job->lab->family->probe_file);
    free(text);
    return rc;
}

/* What Oclgrind found in the run under it: the number of problems, described (kernel:line and a hint) in text. */
static int simulated_findings(const struct host_run *h, char *text, size_t size)
{
    size_t length = 0;
    char *log = scratch_read_untrusted(h->log, 1 << 20, &length), found[6144];
    int count = log ? sanitize_parse(log, found, sizeof found) : 0;
    if (count > 0)
        snprintf(text, size, "Oclgrind found %s:\n%s%s", count == 1 ? "a problem" : "problems", found,
                 strstr(found, "on local memory") ? "\nhint: a __local argument holds as many bytes as clSetKernelArg "
                 "gives it: one float per work-item is local_size * sizeof(float)" : "");
    free(log);
    return count;
}

/* The verdict of the run under Oclgrind, which stands only when it ran on Oclgrind's device; *note says what the
   check found, or why it did not run (the judge's failure costs nothing). */
static int simulated_verdict(struct host_run *h, const struct ledger_view *v, const struct sandbox_outcome *o,
                             int passed, const char *head, char *reason, size_t size, const char **note)
{
    char found[6400], how[256];
    static char why[512];
    h->simulated_stood = 0;
    if (simulated_findings(h, found, sizeof found) > 0) {
        h->simulated_stood = 1;
        if (passed)
            snprintf(reason, size, "%s%s", head, found);
        else
            clk_append(reason, size, "\n%s", found);
        return 0;
    }
    /* Oclgrind writes its log as it starts, and its platform is the only one a program sees under it. */
    if (v->oclgrind_queues == 0 || !clk_file_exists(h->log)) {
        *note = "not run under Oclgrind: its runtime did not load (the run never reached Oclgrind's device), a fault "
                "of the reference judge's, not of the program, so the check of __local sizes did not run";
        return 1;
    }
    if (o->end != SANDBOX_EXITED || (o->code != 0 && o->code != 1)) {
        sandbox_describe(o, 0, how, sizeof how);
        snprintf(why, sizeof why, "not run under Oclgrind: Oclgrind failed (it %.*s), a fault of the reference "
                 "judge's, not of the program, so the check of __local sizes did not run", (int)strcspn(how, "("),
                 how);
        *note = why;
        return 1;
    }
    h->simulated_stood = 1;
    *note = passed ? "under Oclgrind no bad access" : *note;
    return passed;
}

/* Lab 12: judges the run's commands (judge/command_trace.h): a race or a broken contract fails the run (its result is
   right only by the device's luck); at the lab's size the overlap is judged too, for the technique test, in h. Returns
   1 when the run still passes. */
static int schedule_verdict(const struct hostprog_job *job, struct host_run *h, const struct host_check *check,
                            const struct ledger_view *v, const char *head, char *reason, size_t size)
{
    struct trace_verdict t;
    int lab_size = !check->probe && !check->simulated && strcmp(check->size, job->lab->host_size) == 0;
    int rc = trace_check(v->text ? v->text : "", lab_size, &t);
    if (rc == 1 && t.unsafe) {
        snprintf(reason, size, "%sthe result is right, but %s", head, t.why);
        h->schedule_checked = 1, h->schedule_passed = 0;
        snprintf(h->schedule, sizeof h->schedule, "%s%s", head, t.why);
        return 0;
    }
    if (!lab_size)
        return 1;
    h->schedule_checked = 1, h->schedule_passed = rc == 0;
    if (rc == 0)
        snprintf(h->schedule, sizeof h->schedule, "--size %s: %d chunks in one pipeline; every upload before its "
                 "kernel and every download after it by events, wait lists or queue order; no buffer reused before "
                 "its last user ends; the next chunk's upload and the last chunk's download free to run beside each "
                 "kernel%s%s", check->size, t.kernels, t.measured[0] ? "\n" : "", t.measured);
    else
        snprintf(h->schedule, sizeof h->schedule, "%s%s%s%s", head, t.why, t.measured[0] ? "\n" : "", t.measured);
    return 1;
}

/* A fresh key for the run's ledger, in the file beside it (key_path) that the ledger reads and deletes before the
   program's main (common/ledgertag.h); returns 0, or -1 with why. */
static int arm_ledger(struct host_run *h, char *key_path, size_t path_size, char *reason, size_t size)
{
    char key[33];
    if (probe_random(h->key, sizeof h->key) != 0) {
        snprintf(reason, size, "the grader has no random numbers for its ledger's key (getrandom failed)");
        return -1;
    }
    clk_ledger_key_format(h->key, key);
    snprintf(key_path, path_size, "%s%s", h->ledger, CLK_LEDGER_KEY_SUFFIX);
    if (write_new_file(key_path, key) != 0) {
        snprintf(reason, size, "the grader cannot write its ledger's key (%s)", key_path);
        return -1;
    }
    return 0;
}

/* Lab 12: a wrong result or a crash whose schedule has a race: the race is named as the likely cause, here and in
   the technique test. */
static void schedule_cause(const struct hostprog_job *job, struct host_run *h, const struct host_check *check,
                           const struct ledger_view *v, const char *head, char *reason, size_t size)
{
    struct trace_verdict t;
    if (!(job->lab->technique && job->lab->technique->host_schedule) || check->simulated || v->forged ||
        trace_check(v->text ? v->text : "", 0, &t) != 1 || !t.unsafe)
        return;
    clk_append(reason, size, "\nthe likely cause, from the grader's record of its commands: %s", t.why);
    h->schedule_checked = 1, h->schedule_passed = 0;
    snprintf(h->schedule, sizeof h->schedule, "%s%s", head, t.why);
}

/* Runs the program, on the device beside other workers' cases, or alone where its schedule is judged (lab 12's
   overlap of copies and kernels, which another worker's kernels would break); under Oclgrind it needs no device. */
static void exec_on_device(const struct hostprog_job *job, const struct host_check *check, char **argv,
                           const struct sandbox_policy *p, struct sandbox_outcome *outcome)
{
    int alone = job->lab->technique && job->lab->technique->host_schedule;
    const char *lock = check->simulated ? NULL : judge_config_stage_lock(&job->g->config);
    enum device_lock_mode held = device_lock_take(lock, alone ? DEVICE_LOCK_ALONE : DEVICE_LOCK_SHARED);
    sandbox_exec(argv, p, outcome);
    device_lock_restore(lock, held);
}

/* Runs the program once; returns 1 when it wrote the right result, with why not in reason (and for the run under
   Oclgrind, in *note what the check found). */
static int run(const struct hostprog_job *job, struct host_run *h, const struct host_check *check, char *reason,
               size_t size, const char **note)
{
    const struct grading *g = job->g;
    char seed[32], how[256], head[256], wrong_head[512], setting[PATH_MAX + 128], key_path[sizeof h->ledger + 8];
    char *argv[20];
    size_t dims[3] = {0, 0, 0}, extent[2];
    float secret = 0.0f;
    int passed = 0;
    struct sandbox_policy p = policy_for(g, h);
    struct sandbox_outcome outcome;
    struct ledger_view v;
    if (stage_run(job, h, check, &secret, reason, size) != 0)
        return 0;
    p.workdir = h->stage;
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)job->seed);
    run_argv(job, h, check, seed, argv);
    /* Under Oclgrind every launch is simulated: one will do. */
    snprintf(setting, sizeof setting, "%s=%s%s", CLK_LEDGER_ENV, h->ledger,
             check->simulated ? "\nCLKIT_TIMING_RUNS=1" : "");
    p.setting = setting;
    scratch_remove(h->out);
    scratch_remove(h->log);
    scratch_remove(h->ledger);
    if (arm_ledger(h, key_path, sizeof key_path, reason, size) != 0)
        return 0;
    exec_on_device(job, check, argv, &p, &outcome);
    scratch_remove(key_path); /* a program that never reached OpenCL left it */
    clk_parse_dims(check->size, dims, job->lab->family->dim_count);
    grid_extent(job->lab, dims, extent);
    read_ledger(h->ledger, h->key, extent, job->lab->host_grid_covers, &v);
    snprintf(head, sizeof head, "%s (--size %s --seed %s): ", check->what, check->size, seed);
    snprintf(wrong_head, sizeof wrong_head, "%s%s (--size %s --seed %s): ", check->what,
             check->probe ? ", which computes something else, it did not write that kernel's result (does it run "
                            "the kernel --kernel names?)" : "", check->size, seed);
    reason[0] = '\0';
    if (v.no_profiling && v.unprofiled_queues && !check->simulated) {
        snprintf(reason, size, "%sits command queue was created without CL_QUEUE_PROFILING_ENABLE: "
                 "clGetEventProfilingInfo answered CL_PROFILING_INFO_NOT_AVAILABLE, so it has no kernel time (create "
                 "the queue with that property)", head);
    } else if (outcome.end != SANDBOX_EXITED || (outcome.code != 0 && outcome.code != 1)) {
        sandbox_describe(&outcome, p.timeout_s, how, sizeof how);
        snprintf(reason, size, "%s%s/%s/host %s", head, g->source_dir, job->lab->name, how);
        schedule_cause(job, h, check, &v, head, reason, size); /* a race on a buffer may crash the implementation */
        clk_append(reason, size, "\nits output ends with:\n%s", tail_of(outcome.output, OUTPUT_KEPT));
    } else if (!(passed = check_output(job, h, check, secret, outcome.code, reason + strlen(wrong_head),
                                       size - strlen(wrong_head)))) {
        memcpy(reason, wrong_head, strlen(wrong_head));
        schedule_cause(job, h, check, &v, wrong_head, reason, size);
        clk_append(reason, size, "\nits output ends with:\n%s", tail_of(outcome.output, OUTPUT_KEPT));
    } else if (!check->simulated && ledger_fault(&v, reason + strlen(head), size - strlen(head))) {
        memcpy(reason, head, strlen(head));
        passed = 0;
    } else if (!check->simulated && job->lab->technique && job->lab->technique->host_schedule)
        passed = schedule_verdict(job, h, check, &v, head, reason, size);
    free(v.text);
    if (check->simulated)
        passed = simulated_verdict(h, &v, &outcome, passed, head, reason, size, note);
    /* An altered record is never Oclgrind's failure to load: the run fails with it; where the run stood, its ledger
       is judged as a device run's is (the probe's run on the device is left out then). */
    if (check->simulated && (v.forged || v.too_long || (passed && h->simulated_stood)) &&
        ledger_fault(&v, reason + strlen(head), size - strlen(head))) {
        memcpy(reason, head, strlen(head));
        passed = 0;
    }
    sandbox_outcome_free(&outcome);
    return passed;
}

/* Whether a failed run's reason shows the device short of memory (NVIDIA's driver refuses a context with
   CL_OUT_OF_HOST_MEMORY when another process holds the GPU's memory); not CL_OUT_OF_RESOURCES, which is also how
   NVIDIA reports a kernel's access out of bounds. */
static int short_of_device_memory(const char *reason)
{
    return strstr(reason, "CL_MEM_OBJECT_ALLOCATION_FAILURE") || strstr(reason, "CL_OUT_OF_HOST_MEMORY");
}

/* Runs a check as run does; where the device was short of memory (short_of_device_memory), which another process
   may hold for as long as its own time limit, runs it again after waits that add up to twice the run's limit: a
   neighbour's hold is not the program's fault. */
static int run_patiently(const struct hostprog_job *job, struct host_run *h, const struct host_check *check,
                         char *reason, size_t size, const char **note)
{
    struct busy_patience patience = BUSY_PATIENCE(job->g->config.timeout_s);
    int passed, wait_s;
    while (!(passed = run(job, h, check, reason, size, note)) && !check->simulated &&
           short_of_device_memory(reason) && (wait_s = busy_next_wait(&patience)) > 0)
        sleep((unsigned)wait_s);
    return passed;
}

/* Lab 12's technique test: the schedule of the lab's size, as schedule_verdict judged it. */
static void schedule_test(const struct grade_lab_spec *lab, const struct host_run *h, struct grade_lab_result *result)
{
    double points = labs_test_points(lab, GRADE_TEST_TECHNIQUE);
    static char text[3400];
    if (!h->schedule_checked)
        snprintf(text, sizeof text, "not checked: the host program must run the lab's size with right results "
                 "first (see the host program test)");
    else if (!h->schedule_passed)
        snprintf(text, sizeof text, "%s\nsee %s for the schedule this test asks for", h->schedule, lab->perf.handout);
    else
        snprintf(text, sizeof text, "%s", h->schedule);
    result_add(result, "technique", h->schedule_passed ? points : 0, points, h->schedule_passed, text);
}

void host_test_run(const struct hostprog_job *job, struct grade_lab_result *result)
{
    static struct host_run h;
    char reason[REASON_SIZE] = "";
    const struct grade_lab_spec *lab = job->lab;
    const char *note = "not run under Oclgrind (not installed), so a __local argument too small goes unseen";
    /* The lab's size on the device, then the probe kernel at a small size that is no multiple of the work-group
       size under Oclgrind: a host program passes when it rounds its grid up, handles any size, runs the kernel it
       is given, releases what it creates, launches the grid the lab asks for, and sets up every buffer and __local
       argument at the size the kernel uses. The probe runs on the device only where the run under Oclgrind did not
       stand (not installed, or the judge failed): each device run starts a driver (a quarter of a second on an
       H100, one process at a time; half a second of CPU on PoCL), and the submitted kernel at a small size is the
       device cases' work. With the probe, the kit's own kernel, so that a bug of the submitted kernel is not charged
       twice. */
    const struct host_check checks[] = {
        {.size = lab->host_size, .what = "at the lab's size"},
        {.size = lab->host_small, .probe = 1, .simulated = 1,
         .what = "under Oclgrind, the reference judge, with a kernel of the grader's in place of the lab's"},
        {.size = lab->host_small, .probe = 1, .fallback = 1,
         .what = "on the device, with a kernel of the grader's in place of the lab's"},
    };
    int passed = 0;
    memset(&h, 0, sizeof h);
    if (prepare(job, &h, reason, sizeof reason) == 0) {
        passed = 1;
        for (size_t i = 0; passed && i < sizeof checks / sizeof checks[0]; i++)
            if (!(checks[i].simulated && !sanitize_available()) && !(checks[i].fallback && h.simulated_stood))
                passed = run_patiently(job, &h, &checks[i], reason, sizeof reason, &note);
        if (passed)
            snprintf(reason, sizeof reason, "--size %s and --size %s --seed %llu: all results right, every OpenCL "
                     "object released, the grid the lab asks for; with a kernel of the grader's it writes that "
                     "kernel's result; %s", lab->host_small, lab->host_size, (unsigned long long)job->seed, note);
    }
    if (h.stage[0])
        scratch_remove(h.stage);
    result_add(result, "host program", passed ? lab->points.host : 0, lab->points.host, passed, reason);
    if (lab->technique && lab->technique->host_schedule)
        schedule_test(lab, &h, result);
}
