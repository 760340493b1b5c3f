#include "sanitize.h"

#include "files.h"
#include "sandbox.h"
#include "scratch.h"

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
    return strstr(p->kind, "race") ? 0 : strstr(p->kind, "Invalid") ? 1 : 2;
}

static int by_importance(const void *a, const void *b)
{
    return importance(a) - importance(b);
}

int sanitize_parse(const char *log, char *text, size_t size)
{
    struct problem problems[MAX_PROBLEMS];
    int count = 0;
    size_t used = 0;
    text[0] = '\0';
    for (const char *p = log; p && *p;) {
        const char *end = strstr(p, "\n\n");
        size_t length = end ? (size_t)(end - p) : strlen(p);
        if (*p != '\t' && *p != '\n' && (strstr(p, " race ") || !strncmp(p, "Invalid", 7) ||
                                         !strncmp(p, "Uninitialized", 13))) {
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
    for (int i = 0; i < count && used < size; i++)
        used += (size_t)snprintf(text + used, size - used, "%s%s in %s at %s (first by %s, %d time%s): %s",
                                 i ? "\n" : "", problems[i].kind, problems[i].kernel[0] ? problems[i].kernel : "?",
                                 problems[i].where[0] ? problems[i].where : "an unknown line",
                                 problems[i].entity[0] ? problems[i].entity : "an unknown work-item",
                                 problems[i].count, problems[i].count == 1 ? "" : "s", hint_for(problems[i].kind));
    return count;
}

/* Oclgrind's command line around the runner: its checks, its log in the run folder, the kit's plugin. */
static void oclgrind_argv(struct grading *g, const struct grade_lab_spec *lab, const char *flag, char **argv,
                          char *program, char *log, char *plugin)
{
    int argc = 0;
    argv[argc++] = program;
    if (strcmp(flag, "--inst-counts") == 0) {
        argv[argc++] = "--inst-counts";
        /* The coalescing measure comes from the kit's own plugin, where it could be built. */
        if (clk_file_exists(plugin))
            argv[argc++] = "--plugins", argv[argc++] = plugin;
    } else
        argv[argc++] = "--data-races", argv[argc++] = "--uninitialized";
    snprintf(log, PATH_MAX + 64, "%s/run-%s/oclgrind.log", g->scratch, lab->name);
    argv[argc++] = "--log", argv[argc++] = log;
    argv[argc] = NULL;
}

char *sanitize_exec(struct grading *g, const struct grade_lab_spec *lab, const char *oclgrind_flag,
                    enum runlab_mode mode, long only_case, int limit, char *why, size_t size)
{
    static char program[PATH_MAX], log_path[PATH_MAX + 64], plugin[PATH_MAX + 64];
    struct lab_run r = {.g = g, .lab = lab, .seed = g->seed, .mode = mode};
    struct grade_lab_result ignored;
    struct sandbox_outcome outcome;
    char *argv[12], *log, *both;
    size_t length = 0;
    memset(&ignored, 0, sizeof ignored);
    snprintf(plugin, sizeof plugin, "%s/kit/bin/libclkit-coalesce.so", g->scratch);
    if (sandbox_find_program("oclgrind", program, sizeof program) != 0) {
        snprintf(why, size, "Oclgrind is not installed");
        return NULL;
    }
    oclgrind_argv(g, lab, oclgrind_flag, argv, program, log_path, plugin);
    scratch_remove(log_path); /* an earlier run's log (or whatever the lab's runner left there) is not this one */
    runlab_open(&r, argv, limit);
    if (!r.setup && !r.refusal)
        runlab_cases(&r, only_case, &ignored);
    if (r.setup || r.refusal)
        snprintf(why, size, "%s", r.setup ? r.setup : r.refusal);
    int failed = r.setup || r.refusal;
    runlab_close(&r, &outcome);
    result_free(&ignored);
    if (failed || outcome.end != SANDBOX_EXITED) {
        char how[256];
        sandbox_describe(&outcome, limit, how, sizeof how);
        if (!failed)
            snprintf(why, size, "Oclgrind %s; its output ends with:\n%s", how,
                     outcome.output && outcome.output_length > 2000 ? outcome.output + outcome.output_length - 2000
                                                                    : (outcome.output ? outcome.output : ""));
        sandbox_outcome_free(&outcome);
        return NULL;
    }
    log = scratch_read_untrusted(log_path, 4u << 20, &length);
    /* Diagnostics go to the log; the instruction counts to Oclgrind's own output: keep both. */
    both = malloc(length + outcome.output_length + 2);
    if (both)
        sprintf(both, "%s\n%s", log ? log : "", outcome.output ? outcome.output : "");
    free(log);
    sandbox_outcome_free(&outcome);
    return both;
}

int sanitize_lab(struct grading *g, const struct grade_lab_spec *lab, long only_case, int limit, char *text,
                 size_t size)
{
    char *log = sanitize_exec(g, lab, "--data-races", RUNLAB_SANITIZER, only_case, limit, text, size);
    int found;
    if (!log)
        return -1;
    found = sanitize_parse(log, text, size);
    free(log);
    return found;
}
