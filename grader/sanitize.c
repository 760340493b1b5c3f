#include "sanitize.h"

#include "files.h"
#include "sandbox.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_PROBLEMS 16

int sanitize_available(void)
{
    static int found = -1; /* asked once a run */
    if (found < 0) {
        struct sandbox_outcome outcome;
        char *argv[] = {"sh", "-c", "command -v oclgrind", NULL};
        found = sandbox_exec(argv, 10, 1024, &outcome) == 0 && outcome.end == SANDBOX_EXITED && outcome.code == 0;
        sandbox_outcome_free(&outcome);
    }
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

/* The command that grades lab again inside Oclgrind (with its flags), with mode for the inner grader:
   --sanitizer-run (small cases, no guard bands) or --technique-run (the lab's fixed technique case). */
static int build_argv(const struct grading *g, const struct grade_lab_spec *lab, const char *oclgrind_flag,
                      const char *mode, long only_case, char **argv, char *strings)
{
    char *log = strings, *self = strings + 256, *seed = strings + 4352, *timeout = seed + 32, *the_case = seed + 64;
    char *plugin = strings + 4608;
    ssize_t length = readlink("/proc/self/exe", self, 4000);
    int argc = 0;
    if (length <= 0)
        return -1;
    self[length] = '\0';
    snprintf(log, 256, "%s/%s-oclgrind.log", g->scratch, lab->name);
    snprintf(seed, 32, "%llu", (unsigned long long)g->seed);
    snprintf(timeout, 32, "%d", g->cli->timeout_s);
    snprintf(the_case, 32, "%ld", only_case);
    argv[argc++] = "oclgrind";
    if (strcmp(oclgrind_flag, "--inst-counts") == 0) {
        argv[argc++] = "--inst-counts";
        /* The coalescing measure comes from the kit's own plugin, where it could be built. */
        snprintf(plugin, 4200, "%s/build/grader/oclgrind/libclkit-coalesce.so", g->root);
        if (clk_file_exists(plugin))
            argv[argc++] = "--plugins", argv[argc++] = plugin;
    } else
        argv[argc++] = "--data-races", argv[argc++] = "--uninitialized";
    argv[argc++] = "--log", argv[argc++] = log, argv[argc++] = self;
    argv[argc++] = "--device", argv[argc++] = "oclgrind", argv[argc++] = "--quick", argv[argc++] = (char *)mode;
    argv[argc++] = "--seed", argv[argc++] = seed, argv[argc++] = "--timeout", argv[argc++] = timeout;
    if (g->submission)
        argv[argc++] = "--submission", argv[argc++] = (char *)g->source_dir;
    else if (g->cli->solutions)
        argv[argc++] = "--solutions";
    if (only_case >= 0)
        argv[argc++] = "--case", argv[argc++] = the_case;
    argv[argc++] = (char *)lab->name;
    argv[argc] = NULL;
    return 0;
}

char *sanitize_exec(struct grading *g, const struct grade_lab_spec *lab, const char *oclgrind_flag, const char *mode,
                    long only_case, int limit, char *why, size_t size)
{
    static char strings[4608 + 4200];
    char *argv[32], *log;
    struct sandbox_outcome outcome;
    if (build_argv(g, lab, oclgrind_flag, mode, only_case, argv, strings) != 0) {
        snprintf(why, size, "cannot find the grader's own program to run under Oclgrind");
        return NULL;
    }
    unlink(strings);
    sandbox_exec(argv, limit, 1 << 20, &outcome);
    if (outcome.end != SANDBOX_EXITED || outcome.code == 2 || outcome.code == 127) {
        char how[256];
        sandbox_describe(&outcome, limit, how, sizeof how);
        snprintf(why, size, "Oclgrind %s; its output ends with:\n%s", how,
                 outcome.output && outcome.output_length > 2000 ? outcome.output + outcome.output_length - 2000
                                                                : (outcome.output ? outcome.output : ""));
        sandbox_outcome_free(&outcome);
        return NULL;
    }
    log = clk_file_exists(strings) ? clk_read_text(strings, NULL) : NULL;
    /* Diagnostics go to the log; the instruction counts to the program's own output: keep both. */
    if (log && outcome.output) {
        char *both = malloc(strlen(log) + outcome.output_length + 2);
        if (both)
            sprintf(both, "%s\n%s", log, outcome.output);
        free(log);
        log = both;
    } else if (!log && outcome.output) {
        log = strdup(outcome.output);
    }
    sandbox_outcome_free(&outcome);
    return log ? log : strdup("");
}

int sanitize_lab(struct grading *g, const struct grade_lab_spec *lab, long only_case, int limit, char *text,
                 size_t size)
{
    char *log = sanitize_exec(g, lab, "--data-races", "--sanitizer-run", only_case, limit, text, size);
    int found;
    if (!log)
        return -1;
    found = sanitize_parse(log, text, size);
    free(log);
    return found;
}
