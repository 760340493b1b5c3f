#include "judge/sanitize.h"

#include "files.h"
#include "runner/sandbox.h"
#include "runner/scratch.h"
#include "text.h"

#include <limits.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_PROBLEMS 16

int sanitize_available(void)
{
    static int found = -1; /* asked once a run */
    char path[PATH_MAX];
    if (found < 0)
        found = sandbox_find_program("oclgrind", path, sizeof path) == 0;
    return found;
}

/* One distinct problem: what, where, who first, how often. */
struct problem {
    char kind[96];
    char kernel[64];
    char where[160];
    char entity[96];
    int count;
};

static const char *hint_for(const char *kind)
{
    if (strstr(kind, "data race") && strstr(kind, "local"))
        return "work-items share local memory without a barrier between the write and the read";
    if (strstr(kind, "data race"))
        return "two work-items write the same global element, or one reads what another writes";
    if (strstr(kind, "Invalid"))
        return "an index outside the buffer: check the bounds of every access";
    if (strstr(kind, "divergence"))
        return "a barrier inside a branch or loop that not every work-item of the group takes: move it out";
    if (strstr(kind, "Uninitialized"))
        return "a value that was never written is used: local memory not filled yet, or a missing barrier";
    return "see the Oclgrind documentation";
}

/* "Read-write data race at local memory address 0x..." -> "Read-write data race on local memory";
   "Uninitialized value written to local memory address 0x..." -> "... written to local memory". */
static void kind_of(const char *line, char *kind, size_t size)
{
    const char *at = strstr(line, " at ");
    const char *address = strstr(line, " address");
    int line_length = (int)strcspn(line, "\n");
    if (at && address && address > at)
        snprintf(kind, size, "%.*s on%.*s", (int)(at - line), line, (int)(address - at - 3), at + 3);
    else if (address)
        snprintf(kind, size, "%.*s", (int)(address - line), line);
    else
        snprintf(kind, size, "%.*s", line_length, line);
}

static void read_details(const char *block, struct problem *p)
{
    const char *kernel = strstr(block, "\tKernel: ");
    const char *entity = strstr(block, "Entity: ");
    const char *first = strstr(block, "First entity: ");
    const char *line = strstr(block, "\tAt line ");
    if (kernel)
        sscanf(kernel, "\tKernel: %63s", p->kernel);
    if (first)
        entity = first + 6;
    if (entity) {
        entity += 8;
        entity += strspn(entity, " ");
        snprintf(p->entity, sizeof p->entity, "%.*s", (int)strcspn(entity, "\n"), entity);
    }
    const char *group = strstr(block, "\tWork-group: "), *only = strstr(block, "\tOnly ");
    if (!entity && group)
        snprintf(p->entity, sizeof p->entity, "work-group %.*s%s%.*s", (int)strcspn(group + 13, "\n"), group + 13,
                 only ? ", where " : "", only ? (int)strcspn(only + 1, "\n") : 0, only ? only + 1 : "");
    if (line) {
        int number = 0;
        const char *of = strstr(line, " of ");
        sscanf(line, "\tAt line %d", &number);
        if (of)
            snprintf(p->where, sizeof p->where, "%.*s:%d", (int)strcspn(of + 4, ":\n"), of + 4, number);
    }
}

static int add_problem(struct problem *problems, int count, const struct problem *p)
{
    for (int i = 0; i < count; i++)
        if (!strcmp(problems[i].kind, p->kind) && !strcmp(problems[i].where, p->where)) {
            problems[i].count++;
            return count;
        }
    if (count < MAX_PROBLEMS)
        problems[count++] = *p;
    return count;
}

/* Races and bad accesses first: an uninitialised value is often only their consequence. */
static int importance(const struct problem *p)
{
    return strstr(p->kind, "divergence") ? 0 : strstr(p->kind, "race") ? 1 : strstr(p->kind, "Invalid") ? 2 : 3;
}

static int by_importance(const void *a, const void *b)
{
    return importance(a) - importance(b);
}

int sanitize_parse(const char *log, char *text, size_t size)
{
    struct problem problems[MAX_PROBLEMS];
    int count = 0;
    text[0] = '\0';
    for (const char *p = log; p && *p;) {
        const char *end = strstr(p, "\n\n");
        size_t length = end ? (size_t)(end - p) : strlen(p);
        if (*p != '\t' && *p != '\n' && (strstr(p, " race ") || !strncmp(p, "Invalid", 7) ||
                                         !strncmp(p, "Uninitialized", 13) || !strncmp(p, "Work-group divergence", 21))) {
            struct problem problem = {.count = 1};
            char *block = strndup(p, length);
            kind_of(block, problem.kind, sizeof problem.kind);
            read_details(block, &problem);
            count = add_problem(problems, count, &problem);
            free(block);
        }
        p = end ? end + 2 : NULL;
    }
    qsort(problems, (size_t)count, sizeof problems[0], by_importance);
    for (int i = 0; i < count; i++)
        clk_append(text, size, "%s%s in %s at %s (first by %s, %d time%s): %s", i ? "\n" : "", problems[i].kind,
                   problems[i].kernel[0] ? problems[i].kernel : "?",
                   problems[i].where[0] ? problems[i].where : "an unknown line",
                   problems[i].entity[0] ? problems[i].entity : "an unknown work-item", problems[i].count,
                   problems[i].count == 1 ? "" : "s", hint_for(problems[i].kind));
    return count;
}

/* The command line, with or without the uninitialised-value checker (which cannot simulate every kernel). */
static int oclgrind_command(struct grading *g, const struct grade_lab_spec *lab, int uninitialized,
                            struct oclgrind_command *c)
{
    int argc = 0;
    if (sandbox_find_program("oclgrind", c->program, sizeof c->program) != 0)
        return -1;
    c->argv[argc++] = c->program;
    c->argv[argc++] = "--data-races";
    if (uninitialized)
        c->argv[argc++] = "--uninitialized";
    snprintf(c->plugin, sizeof c->plugin, "%s/kit/bin/libclkit-coalesce.so", g->scratch);
    if (clk_file_exists(c->plugin))
        c->argv[argc++] = "--plugins", c->argv[argc++] = c->plugin;
    snprintf(c->log, sizeof c->log, "%s/run-%s%s/oclgrind.log", g->scratch, lab->name, RUNLAB_REFERENCE_RUN);
    c->argv[argc++] = "--log", c->argv[argc++] = c->log;
    c->argv[argc] = NULL;
    return 0;
}

int sanitize_wrapper(struct grading *g, const struct grade_lab_spec *lab, struct oclgrind_command *command)
{
    return oclgrind_command(g, lab, 1, command);
}

/* Reads what Oclgrind left in the run folder: its diagnostics and the plugin's counts (neither holds the kernel's
   printf, which goes to the output). */
static void read_findings(struct grading *g, const struct grade_lab_spec *lab, const char *log_path,
                          struct reference *ref)
{
    char counts_path[PATH_MAX + 96];
    size_t length = 0;
    char *log = scratch_read_untrusted(log_path, 4u << 20, &length), *counts;
    ref->findings = sanitize_parse(log ? log : "", ref->findings_text, sizeof ref->findings_text);
    free(log);
    snprintf(counts_path, sizeof counts_path, "%s/run-%s%s/work/clkit-counts.txt", g->scratch, lab->name,
             RUNLAB_REFERENCE_RUN);
    counts = scratch_read_untrusted(counts_path, 1u << 20, &length);
    ref->counted = counts && ref->log->technique_ran &&
                   counts_parse(counts, &ref->counts) == 0;
    free(counts);
}

/* One reference run; returns 1 when Oclgrind itself failed on the kernel (a fatal error in its log, which the
   kernel cannot write to), with the error in ref->why. */
static int run_once(struct grading *g, const struct grade_lab_spec *lab, uint64_t seed, size_t max_local,
                    long only_case, int uninitialized, struct reference *ref)
{
    static struct oclgrind_command command;
    struct lab_run r = {.g = g, .lab = lab, .seed = seed, .mode = RUNLAB_REFERENCE};
    char *log, *fatal;
    size_t length = 0;
    if (oclgrind_command(g, lab, uninitialized, &command) != 0) {
        snprintf(ref->why, sizeof ref->why, "Oclgrind is not installed (sudo apt-get install oclgrind)");
        return 0;
    }
    scratch_remove(command.log); /* an earlier run's log (or whatever the lab's runner left there) is not this one */
    runlab_open(&r, command.argv, 2 * g->cli->timeout_s + 30);
    if (r.setup || r.refusal) {
        snprintf(ref->why, sizeof ref->why, "Oclgrind could not run the kernel: %.1900s", r.setup ? r.setup : r.refusal);
        runlab_close(&r, NULL);
        return 0;
    }
    runlab_run_cases(&r, max_local, only_case, ref->log);
    runlab_close(&r, NULL);
    log = scratch_read_untrusted(command.log, 4u << 20, &length);
    if (log && (fatal = strstr(log, "OCLGRIND FATAL ERROR"))) {
        const char *what = strchr(fatal, '\n');
        snprintf(ref->why, sizeof ref->why, "Oclgrind cannot simulate this kernel (%.*s, a limit of Oclgrind's, not "
                 "a fault of the kernel)", what ? (int)strcspn(what + 1, "\n") : 0, what ? what + 1 : "");
        free(log);
        return 1;
    }
    free(log);
    ref->ran = 1;
    read_findings(g, lab, command.log, ref);
    return 0;
}

void sanitize_run(struct grading *g, const struct grade_lab_spec *lab, uint64_t seed, size_t max_local,
                  long only_case, struct reference *ref)
{
    struct case_log *given = ref->log;
    memset(ref, 0, sizeof *ref);
    ref->log = given;
    ref->log_given = given != NULL;
    if (!ref->log && !(ref->log = calloc(1, sizeof *ref->log))) {
        snprintf(ref->why, sizeof ref->why, "the grader ran out of host memory");
        return;
    }
    /* Oclgrind's uninitialised-value checker cannot simulate some instructions (LLVM's freeze): without it the
       other checks still stand. */
    if (run_once(g, lab, seed, max_local, only_case, 1, ref) == 1) {
        memset(ref->log, 0, sizeof *ref->log);
        run_once(g, lab, seed, max_local, only_case, 0, ref);
    }
}

void sanitize_free(struct reference *ref)
{
    if (!ref->log_given)
        free(ref->log);
    ref->log = NULL;
}
