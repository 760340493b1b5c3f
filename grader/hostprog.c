#include "hostprog.h"

#include "files.h"
#include "options.h"
#include "rules.h"
#include "sandbox.h"
#include "scratch.h"
#include "verify.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define OUTPUT_KEPT 4096
#define REASON_SIZE 8192
#define MAX_FLAGS 96

/* A host program's run folder: the scratch copy of its lab folder, and where its binary and --out file go. */
struct host_run {
    char run[PATH_MAX], work[PATH_MAX + 64], binary[PATH_MAX + 16], out[PATH_MAX + 16], kernel[PATH_MAX + 128];
    char shown[PATH_MAX + 64]; /* host.c as the user knows it */
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
                               .timeout_s = g->cli->timeout_s, .output_limit = 1 << 20};
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
    snprintf(source, sizeof source, "%s/host.c", h->work);
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

/* Stages the run folder and gets the binary: the kit's own for the solutions, else built afresh. */
static int prepare(const struct hostprog_job *job, struct host_run *h, char *reason, size_t size)
{
    const struct grading *g = job->g;
    char src[PATH_MAX + 32], copy[PATH_MAX + 96], prebuilt[PATH_MAX + 64];
    snprintf(h->shown, sizeof h->shown, "%s/%s/host.c", g->source_dir, job->lab->name);
    snprintf(src, sizeof src, "%s/%s", g->source_dir, job->lab->name);
    if (scratch_open_run(g->root, g->scratch, job->lab->name, h->run, sizeof h->run, reason, size) != 0)
        return -1;
    snprintf(h->work, sizeof h->work, "%s/work-host", h->run);
    snprintf(h->binary, sizeof h->binary, "%s/host", h->run);
    snprintf(h->out, sizeof h->out, "%s/out.bin", h->run);
    /* Nothing an earlier run of this lab left may stand in for what this program builds or writes. */
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
    if (!g->cli->solutions)
        return build(g, h, reason, size);
    snprintf(prebuilt, sizeof prebuilt, "%s/build/solutions/%s/host", g->root, job->lab->name);
    return scratch_copy_file(prebuilt, h->binary, 0755, reason, size);
}

static void check_output(const struct hostprog_job *job, const struct host_run *h, int status, char *reason,
                         size_t size, int *passed)
{
    size_t dims[3] = {0, 0, 0}, length = 0, count, expected_count, first = 0, wrong;
    double *expected = NULL, *bound = NULL;
    char *bytes;
    clk_parse_dims(job->lab->host_size, dims, job->lab->family->dim_count);
    expected_count = job->lab->family->host_reference(dims, job->seed, &expected, &bound);
    bytes = scratch_read_untrusted(h->out, expected_count * sizeof(float) + 4096, &length);
    count = length / sizeof(float);
    if (!bytes && status != 0)
        snprintf(reason, size, "it exited with status %d and wrote no --out file", status);
    else if (!bytes)
        snprintf(reason, size, "it wrote no --out file (or not a plain file of the right size): write the result "
                 "with clk_write_floats");
    else if (count != expected_count || length % sizeof(float))
        snprintf(reason, size, "its --out file holds %zu bytes; %zu floats expected", length, expected_count);
    else if ((wrong = clk_count_wrong((const float *)bytes, expected, bound, count, &first)) != 0)
        snprintf(reason, size, "%zu of %zu results wrong; first at index %zu: expected %.9g, got %.9g", wrong, count,
                 first, expected[first], (double)((const float *)bytes)[first]);
    else {
        snprintf(reason, size, "--size %s --seed %llu: all %zu results right", job->lab->host_size,
                 (unsigned long long)job->seed, count);
        *passed = 1;
    }
    free(bytes);
    free(expected);
    free(bound);
}

static void run(const struct hostprog_job *job, const struct host_run *h, char *reason, size_t size, int *passed)
{
    const struct grading *g = job->g;
    char seed[32], how[256];
    char *argv[14];
    int argc = 0;
    struct sandbox_policy p = policy_for(g, h);
    struct sandbox_outcome outcome;
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)job->seed);
    argv[argc++] = (char *)h->binary;
    argv[argc++] = "--size", argv[argc++] = (char *)job->lab->host_size;
    argv[argc++] = "--seed", argv[argc++] = seed;
    argv[argc++] = "--kernel", argv[argc++] = (char *)h->kernel;
    argv[argc++] = "--out", argv[argc++] = (char *)h->out;
    if (g->cli->device)
        argv[argc++] = "--device", argv[argc++] = (char *)g->cli->device;
    argv[argc] = NULL;
    sandbox_exec(argv, &p, &outcome);
    if (outcome.end != SANDBOX_EXITED || (outcome.code != 0 && outcome.code != 1)) {
        sandbox_describe(&outcome, p.timeout_s, how, sizeof how);
        snprintf(reason, size, "%s/%s/host %s\nits output ends with:\n%s", g->source_dir, job->lab->name, how,
                 tail_of(outcome.output, OUTPUT_KEPT));
    } else {
        check_output(job, h, outcome.code, reason, size, passed);
        if (!*passed)
            snprintf(reason + strlen(reason), size - strlen(reason), "\nits output ends with:\n%s",
                     tail_of(outcome.output, OUTPUT_KEPT));
    }
    sandbox_outcome_free(&outcome);
}

void hostprog_test(const struct hostprog_job *job, struct grade_lab_result *result)
{
    static struct host_run h;
    char reason[REASON_SIZE];
    int passed = 0;
    memset(&h, 0, sizeof h);
    if (prepare(job, &h, reason, sizeof reason) == 0)
        run(job, &h, reason, sizeof reason, &passed);
    result_add(result, "host program", passed ? job->lab->points.host : 0, job->lab->points.host, passed, reason);
}
