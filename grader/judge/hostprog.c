#include "judge/hostprog.h"

#include "files.h"
#include "judge/compare.h"
#include "judge/rules.h"
#include "judge/sanitize.h"
#include "options.h"
#include "problem.h"
#include "runner/sandbox.h"
#include "runner/scratch.h"
#include "text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#define OUTPUT_KEPT 4096
#define REASON_SIZE 8192
#define MAX_FLAGS 96
#define PROBE_FILE "clkit-probe.cl" /* the probe kernel, in the host program's folder */

/* A host program's run folder: the scratch copy of its lab folder, and where its binary and --out file go. */
struct host_run {
    char run[PATH_MAX], work[PATH_MAX + 64], binary[PATH_MAX + 16], out[PATH_MAX + 16], kernel[PATH_MAX + 128];
    char log[PATH_MAX + 16];   /* Oclgrind's diagnostics of the run under it */
    char shown[PATH_MAX + 64]; /* host.c as the user knows it */
    size_t memory_limit;       /* what the lab's host program may hold (scratch_memory_limit) */
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
                               .timeout_s = g->cli->timeout_s, .output_limit = 1 << 20,
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

/* Copies the lab's probe kernel into the run folder under the lab's kernel name; called before any confined code
   has run there, so that no link it could leave in its place is followed by the judge. */
static int stage_probe(const struct hostprog_job *job, const struct host_run *h)
{
    char path[PATH_MAX + 160], *text, *at, *staged;
    int rc;
    snprintf(path, sizeof path, "%s/%s", job->g->kernels_dir, job->lab->family->probe_file);
    if (!(text = clk_read_text(path, NULL)))
        return -1;
    at = strstr(text, "PROBE_KERNEL(");
    staged = at ? malloc(strlen(text) + strlen(job->lab->kernel_name) + 1) : NULL;
    if (staged)
        sprintf(staged, "%.*s%s%s", (int)(at - text), text, job->lab->kernel_name, at + strlen("PROBE_KERNEL"));
    snprintf(path, sizeof path, "%s/%s", h->work, PROBE_FILE);
    rc = staged && write_new_file(path, staged) == 0 ? 0 : -1;
    free(staged);
    free(text);
    return rc;
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
    if (scratch_open_run(g->root, g->scratch, name, h->run, sizeof h->run, reason, size) != 0)
        return -1;
    h->memory_limit = scratch_memory_limit(g->root, name);
    snprintf(h->work, sizeof h->work, "%s/work-host", h->run);
    snprintf(h->binary, sizeof h->binary, "%s/host", h->run);
    snprintf(h->out, sizeof h->out, "%s/out.bin", h->run);
    snprintf(h->log, sizeof h->log, "%s/oclgrind.log", h->run);
    /* Nothing an earlier run of this lab left may stand in for what this program builds or writes. */
    scratch_remove(h->log);
    scratch_remove(h->work);
    scratch_remove(h->binary);
    scratch_remove(h->out);
    /* Relative to its folder, so that the compiled kernel's cache key is the same on every run. */
    snprintf(h->kernel, sizeof h->kernel, "%s", job->lab->kernel_file);
    if (scratch_copy_submission(src, h->work, reason, size) != 0)
        return -1;
    snprintf(copy, sizeof copy, "%s/host.c", h->work);
    if (!clk_file_exists(copy)) {
        snprintf(reason, size, "%s is missing: the submission has no host program", h->shown);
        return -1;
    }
    if (rules_check_file(RULES_HOST, copy, h->shown, reason, size) != 0)
        return -1;
    if (stage_probe(job, h) != 0) {
        snprintf(reason, size, "the grader cannot stage its probe kernel %s/%s", g->kernels_dir,
                 job->lab->family->probe_file);
        return -1;
    }
    if (!g->cli->solutions)
        return build(g, h, reason, size);
    snprintf(prebuilt, sizeof prebuilt, "%s/build/solutions/%s/host", g->root, job->lab->name);
    return scratch_copy_file(prebuilt, h->binary, 0755, reason, size);
}

/* One run of the host program: the size, the kernel it is given and the result it must write. */
struct host_check {
    const char *size;
    const char *kernel; /* relative to its folder */
    int probe; /* the reference is the probe kernel's (clk_problem_probe) */
    const char *what;   /* for the report: "--size 1000" or "the probe kernel" */
    int simulated;      /* run under Oclgrind, whose findings fail it */
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

/* Returns 1 when the program's output reports a kernel time of zero or less: a queue without profiling. */
static int reports_no_time(const char *output, double *ms)
{
    for (const char *line = output; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        const char *at = strstr(line, ": "), *end = strchr(line, '\n');
        if (at && (!end || at < end) && sscanf(at + 2, "%lf ms", ms) == 1 && strstr(at, " ms") &&
            (!end || strstr(at, " ms") < end))
            return *ms <= 0.0;
    }
    return 0;
}

static int check_output(const struct hostprog_job *job, const struct host_run *h, const struct host_check *check,
                        int status, char *reason, size_t size)
{
    size_t dims[3] = {0, 0, 0}, length = 0, count, expected_count;
    double *expected = NULL, *bound = NULL;
    char *bytes;
    int passed = 0;
    clk_parse_dims(check->size, dims, job->lab->family->dim_count);
    expected_count = clk_problem_reference(job->lab->family->problem, dims, job->seed, check->probe, &expected, &bound);
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
    argv[argc++] = "--kernel", argv[argc++] = (char *)check->kernel;
    argv[argc++] = "--out", argv[argc++] = (char *)h->out;
    /* Oclgrind is the only device a program sees under it. */
    if (job->g->cli->device && !check->simulated)
        argv[argc++] = "--device", argv[argc++] = (char *)job->g->cli->device;
    argv[argc] = NULL;
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

/* Whether a run under Oclgrind failed through Oclgrind: its runtime never loaded (it writes its log as it starts),
   or the run ended by a signal, a limit or an odd status with nothing found, where the program exits 0 or 1. */
static int simulator_failed(const struct host_run *h, const struct sandbox_outcome *outcome)
{
    return !clk_file_exists(h->log) || outcome->end != SANDBOX_EXITED || (outcome->code != 0 && outcome->code != 1);
}

/* Runs the program once; returns 1 when it wrote the right result, 2 when the check could not be made under
   Oclgrind through Oclgrind's fault (why in reason), 0 otherwise, with why not in reason. */
static int run(const struct hostprog_job *job, const struct host_run *h, const struct host_check *check,
               char *reason, size_t size)
{
    const struct grading *g = job->g;
    char seed[32], how[256], head[256], found[6400];
    char *argv[20];
    int passed = 0;
    double ms = 0.0;
    struct sandbox_policy p = policy_for(g, h);
    struct sandbox_outcome outcome;
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)job->seed);
    run_argv(job, h, check, seed, argv);
    if (check->simulated)
        p.setting = "CLKIT_TIMING_RUNS=1"; /* every launch is simulated: one will do */
    scratch_remove(h->out);
    scratch_remove(h->log);
    sandbox_exec(argv, &p, &outcome);
    snprintf(head, sizeof head, "%s (--size %s --seed %s --kernel %s): ", check->what, check->size, seed,
             check->kernel);
    reason[0] = '\0';
    if (outcome.end != SANDBOX_EXITED || (outcome.code != 0 && outcome.code != 1)) {
        sandbox_describe(&outcome, p.timeout_s, how, sizeof how);
        snprintf(reason, size, "%s%s/%s/host %s\nits output ends with:\n%s", head, g->source_dir, job->lab->name, how,
                 tail_of(outcome.output, OUTPUT_KEPT));
    } else if (!(passed = check_output(job, h, check, outcome.code, reason + strlen(head), size - strlen(head)))) {
        memcpy(reason, head, strlen(head));
        clk_append(reason, size, "\nits output ends with:\n%s", tail_of(outcome.output, OUTPUT_KEPT));
    } else if (reports_no_time(outcome.output ? outcome.output : "", &ms)) {
        snprintf(reason, size, "%sthe result is right, but it reports a kernel time of %.3f ms: a queue created "
                 "without CL_QUEUE_PROFILING_ENABLE has no event times (create it with that property)", head, ms);
        passed = 0;
    }
    if (check->simulated && simulated_findings(h, found, sizeof found) > 0) {
        if (passed)
            snprintf(reason, size, "%s%s", head, found);
        else
            clk_append(reason, size, "\n%s", found);
        passed = 0;
    } else if (check->simulated && simulator_failed(h, &outcome)) {
        /* The same program and probe passed on the device: Oclgrind's failure is not held against it. */
        sandbox_describe(&outcome, p.timeout_s, how, sizeof how);
        snprintf(reason, size, "not run under Oclgrind: %s", clk_file_exists(h->log) ? "Oclgrind failed (it " :
                 "its runtime did not load (the program ");
        clk_append(reason, size, "%.*s), a fault of the reference judge's, not of the program", (int)strcspn(how, "("),
                   how);
        passed = 2;
    }
    sandbox_outcome_free(&outcome);
    return passed;
}

void hostprog_test(const struct hostprog_job *job, struct grade_lab_result *result)
{
    static struct host_run h;
    static char probe[] = PROBE_FILE;
    char reason[REASON_SIZE] = "";
    const struct grade_lab_spec *lab = job->lab;
    /* A small size that is no multiple of the work-group size, the lab's size, the probe kernel, and the small size
       under Oclgrind: a host program passes when it rounds its grid up, handles any size, runs the kernel it is
       given, and sets up every buffer and __local argument at the size the kernel uses. */
    struct host_check checks[] = {
        {.size = lab->host_small, .kernel = h.kernel, .probe = 0,
         .what = "a small size, no multiple of a work-group"},
        {.size = lab->host_size, .kernel = h.kernel, .probe = 0,
         .what = "the lab's size"},
        {.size = lab->host_small, .kernel = probe, .probe = 1,
         .what = "with the kit's probe kernel, which computes something else, it did not write the probe's result "
                 "(does it run the kernel --kernel names?)"},
        /* With the probe, the kit's own kernel, so that a bug of the submitted kernel is not charged twice. */
        {.size = lab->host_small, .kernel = probe, .probe = 1,
         .what = "under Oclgrind, the reference judge, with the kit's probe kernel", .simulated = 1},
    };
    size_t count = sizeof checks / sizeof checks[0] - (sanitize_available() ? 0 : 1);
    int passed = 0;
    char simulated[512] = "not run under Oclgrind (not installed), so a __local argument too small goes unseen";
    memset(&h, 0, sizeof h);
    if (prepare(job, &h, reason, sizeof reason) == 0) {
        passed = 1;
        for (size_t i = 0; passed && i < count; i++)
            passed = run(job, &h, &checks[i], reason, sizeof reason);
        /* Claimed only where Oclgrind ran the program (run says so with 1; 2: it could not). */
        if (passed && count == sizeof checks / sizeof checks[0])
            snprintf(simulated, sizeof simulated, "%s", passed == 2 ? reason : "under Oclgrind no bad access");
        if (passed)
            snprintf(reason, sizeof reason, "--size %s and --size %s --seed %llu: all results right; with the kit's "
                     "probe kernel it writes the probe's result; %s", lab->host_small, lab->host_size,
                     (unsigned long long)job->seed, simulated);
    }
    result_add(result, "host program", passed ? lab->points.host : 0, lab->points.host, passed != 0, reason);
}
