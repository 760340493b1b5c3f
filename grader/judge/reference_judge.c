#include "judge/reference_judge.h"

#include "files.h"
#include "sandbox/sandbox.h"
#include "sandbox/scratch.h"
#include "judge/safetext.h"
#include "text.h"
#include "timing.h"

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

/* Moves *p past an lvalue: a name and any [index] after it (brackets balanced); returns 0 when there is no name. */
static int skip_lvalue(const char **p)
{
    const char *at = *p;
    if (!(*at == '_' || (*at >= 'a' && *at <= 'z') || (*at >= 'A' && *at <= 'Z')))
        return 0;
    while (*at == '_' || (*at >= 'a' && *at <= 'z') || (*at >= 'A' && *at <= 'Z') || (*at >= '0' && *at <= '9'))
        at++;
    for (at += strspn(at, " \t"); *at == '['; at += strspn(at, " \t")) {
        int depth = 0;
        do
            depth += *at == '[' ? 1 : *at == ']' ? -1 : 0;
        while (*at && *at != '\n' && *at != ';' && (at++, depth > 0));
        if (depth != 0)
            return 0;
    }
    *p = at;
    return 1;
}

/* Whether the kernel's line at where ("lab7/transpose.cl:22", under root) is a plain copy, "x[i] = y;" or
   "x[i] = y[j];": a copy moves never-written bits without using them, and if they ever reach an output, an address
   or a branch, Oclgrind reports that use itself (its shadow follows copies). */
static int is_plain_copy(const char *root, const char *where)
{
    char path[PATH_MAX];
    const char *colon = strrchr(where, ':'), *p;
    size_t length = 0;
    int number = colon ? atoi(colon + 1) : 0, copy = 0;
    if (!root || !colon || number <= 0 || where[0] == '/' || strstr(where, ".."))
        return 0;
    snprintf(path, sizeof path, "%s/%.*s", root, (int)(colon - where), where);
    char *source = scratch_read_untrusted(path, 1u << 20, &length);
    for (p = source; p && *p && number > 1; p++)
        number -= *p == '\n';
    if (p && *p && (p += strspn(p, " \t"), skip_lvalue(&p)) && *p == '=' && p[1] != '=') {
        p++;
        p += strspn(p, " \t");
        copy = skip_lvalue(&p) && *p == ';';
        p += copy ? 1 + strspn(p + 1, " \t\r") : 0;
        copy = copy && (*p == '\n' || *p == '\0' || !strncmp(p, "//", 2) || !strncmp(p, "/*", 2));
    }
    free(source);
    return copy;
}

int sanitize_parse_at(const char *log, const char *root, char *text, size_t size)
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
            if (!(strstr(problem.kind, "Uninitialized value written to local") && is_plain_copy(root, problem.where)))
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

int sanitize_parse(const char *log, char *text, size_t size)
{
    return sanitize_parse_at(log, NULL, text, size);
}

/* The reference judge's runs under Oclgrind. The verdict's attempts judge the whole sample with every check but
   one: a failure is Oclgrind's, and the next attempt leaves out what may have caused it (the kit's plugin). The
   uninitialised-value checker has a run of its own over the sample's structural cases (the short sample of
   runlab_run_cases): it triples the time of a case, and Oclgrind 21.10's checker crashes on some right kernels
   (vload4) or cannot simulate them (LLVM's freeze). */
static const struct attempt {
    int uninitialized, plugin, data_races;
    const char *log;     /* Oclgrind's log, in the lab's reference run folder */
    const char *without; /* what the attempt does not check */
} attempts[] = {
    {.plugin = 1, .data_races = 1, .log = "oclgrind.log", .without = ""},
    {.plugin = 0, .data_races = 1, .log = "oclgrind.log", .without = "the technique counts"},
}, uninitialised_check = {.uninitialized = 1, .plugin = 1 /* its budget */, .log = "oclgrind-uninitialised.log"};

/* The command line of one attempt, with the devices' local memory: Oclgrind's own 32 KB would refuse a right kernel
   that fits a GPU's 48 KB. */
static int oclgrind_command(struct grading *g, const struct grade_lab_spec *lab, const struct attempt *attempt,
                            struct oclgrind_command *c)
{
    int argc = 0;
    if (sandbox_find_program("oclgrind", c->program, sizeof c->program) != 0)
        return -1;
    c->argv[argc++] = c->program;
    if (attempt->data_races)
        c->argv[argc++] = "--data-races";
    c->argv[argc++] = "--local-mem-size", c->argv[argc++] = SANITIZE_LOCAL_MEM_BYTES;
    if (attempt->uninitialized)
        c->argv[argc++] = "--uninitialized";
    snprintf(c->plugin, sizeof c->plugin, "%s/kit/bin/libclkit-coalesce.so", g->scratch);
    if (attempt->plugin && clk_file_exists(c->plugin))
        c->argv[argc++] = "--plugins", c->argv[argc++] = c->plugin;
    snprintf(c->log, sizeof c->log, "%s/run-%s%s/%s", g->scratch, lab->name, RUNLAB_REFERENCE_RUN, attempt->log);
    c->argv[argc++] = "--log", c->argv[argc++] = c->log;
    c->argv[argc] = NULL;
    return 0;
}

int sanitize_wrapper(struct grading *g, const struct grade_lab_spec *lab, struct oclgrind_command *command)
{
    /* As a device, without the checker that crashes on some right kernels: the reference run beside it has it. */
    return oclgrind_command(g, lab, &attempts[0], command);
}

/* Reads what Oclgrind left in the lab's reference run folder, from the verdict's run and the uninitialised-value run:
   its diagnostics (not the kernel's printf, which goes to the output). */
static void read_findings(const struct grading *g, const struct grade_lab_spec *lab, struct reference *ref)
{
    char folder[PATH_MAX], path[PATH_MAX + 64], work[PATH_MAX + 16];
    size_t lengths[2] = {0, 0};
    char *logs[2], *both;
    snprintf(folder, sizeof folder, "%s/run-%s%s", g->scratch, lab->name, RUNLAB_REFERENCE_RUN);
    snprintf(path, sizeof path, "%s/%s", folder, attempts[0].log);
    logs[0] = scratch_read_untrusted(path, 4u << 20, &lengths[0]);
    snprintf(path, sizeof path, "%s/%s", folder, uninitialised_check.log);
    logs[1] = scratch_read_untrusted(path, 4u << 20, &lengths[1]);
    both = calloc(lengths[0] + lengths[1] + 2, 1);
    if (both)
        snprintf(both, lengths[0] + lengths[1] + 2, "%s\n%s", logs[0] ? logs[0] : "", logs[1] ? logs[1] : "");
    snprintf(work, sizeof work, "%s/work", folder);
    ref->findings = sanitize_parse_at(both ? both : "", work, ref->findings_text, sizeof ref->findings_text);
    free(both);
    free(logs[0]);
    free(logs[1]);
}

/* Keeps the plugin's counts of the technique case from the latest attempt that has them, whatever became of the
   cases after it; counts without a single global access are an attempt that Oclgrind cut short in that case. */
static void keep_counts(struct reference *ref)
{
    struct technique_counts counts;
    if (!ref->log->technique_ran || !ref->log->technique_counts[0] ||
        counts_parse(ref->log->technique_counts, &counts) != 0 ||
        counts.global_loads + counts.global_stores + counts.global_atomics <= 0)
        return;
    ref->counts = counts;
    ref->counted = 1;
}

/* Why the run under Oclgrind stopped short, in failure, or "" when it did not: the runner could not start or build
   under it, did not see Oclgrind's device, stopped in a case (a simulated kernel cannot crash the process that
   simulates it: a signal, an exit or a limit is Oclgrind's), or Oclgrind logged a fatal error (which the kernel
   cannot write). */
static void judge_failure(const struct lab_run *r, const struct case_log *log, const char *oclgrind_log,
                          char *failure, size_t size)
{
    const char *fatal = oclgrind_log ? strstr(oclgrind_log, "OCLGRIND FATAL ERROR") : NULL;
    char description[160] = "the technique case", shape[128];
    failure[0] = '\0';
    if (r->setup || r->refusal) {
        const char *why = r->setup ? r->setup : r->refusal, *see = strstr(why, " (see the output");
        snprintf(failure, size, "Oclgrind could not run the kernel (%.*s)", see ? (int)(see - why) : 600, why);
    } else if (!strstr(r->hello.device_name, "Oclgrind"))
        snprintf(failure, size, "Oclgrind's runtime did not load (the runner saw the device '%.100s')",
                 r->hello.device_name);
    else if (fatal) {
        const char *what = strchr(fatal, '\n');
        snprintf(failure, size, "Oclgrind stopped with a fatal error (%.*s)", what ? (int)strcspn(what + 1, "\n") : 0,
                 what ? what + 1 : "");
    } else if (log->stopped_at >= 0) {
        if ((size_t)log->stopped_at < log->count) {
            r->lab->family->describe(&log->cases[log->stopped_at], shape, sizeof shape);
            snprintf(description, sizeof description, "case %s", shape);
        }
        /* The kernel's own hint ("probably an out-of-bounds access") does not apply to a simulator's crash. */
        int how = (int)strcspn(log->how, "(");
        while (how > 0 && log->how[how - 1] == ' ')
            how--;
        snprintf(failure, size, "Oclgrind %.*s in %s", how, log->how, description);
    }
}

/* Appends the last line of output (untrusted: cleaned) to text. */
static void last_line(const char *output, char *text, size_t size)
{
    size_t end = strlen(output);
    while (end > 0 && (output[end - 1] == '\n' || output[end - 1] == ' '))
        end--;
    size_t start = end;
    while (start > 0 && output[start - 1] != '\n')
        start--;
    char *line = strndup(output + start, end - start), *clean = line ? safetext_clean(line, 300) : NULL;
    if (clean && clean[0])
        clk_append(text, size, ": \"%s\"", clean);
    free(clean);
    free(line);
}

/* Runs the cases of one attempt under Oclgrind into log (the short sample for the uninitialised-value run; the
   technique counts, and whether they were lost, are ref's only from the verdict's log, ref->log); returns 0 when it
   ran every case it was given, 1 when Oclgrind failed (what failed in failure; the cases it judged before are in
   log), -1 when it is not installed. */
static int simulate(struct grading *g, const struct grade_lab_spec *lab, uint64_t seed, size_t max_local,
                    long only_case, const struct attempt *attempt, struct case_log *log, struct reference *ref,
                    char *failure, size_t size)
{
    static struct oclgrind_command command;
    struct lab_run r = {.g = g, .lab = lab, .seed = seed, .mode = RUNLAB_REFERENCE,
                        .short_sample = attempt->uninitialized};
    struct sandbox_outcome outcome;
    size_t length = 0;
    char *oclgrind_log;
    if (oclgrind_command(g, lab, attempt, &command) != 0) {
        snprintf(ref->why, sizeof ref->why, "Oclgrind is not installed (sudo apt-get install oclgrind)");
        return -1;
    }
    memset(log, 0, sizeof *log);
    log->stopped_at = log->slow_at = -1;
    scratch_remove(command.log); /* an earlier run's log (or whatever the lab's runner left there) is not this one */
    runlab_open(&r, command.argv, 2 * g->config.timeout_s + 30);
    if (!r.setup && !r.refusal && strstr(r.hello.device_name, "Oclgrind"))
        runlab_run_cases(&r, max_local, only_case, log);
    if (log == ref->log)
        keep_counts(ref);
    oclgrind_log = scratch_read_untrusted(command.log, 4u << 20, &length);
    judge_failure(&r, log, oclgrind_log, failure, size);
    int unstarted = r.setup != NULL;
    runlab_close(&r, &outcome);
    if (unstarted && outcome.output && outcome.output[0]) /* what Oclgrind or the loader said last */
        last_line(outcome.output, failure, size);
    sandbox_outcome_free(&outcome);
    free(oclgrind_log);
    if (failure[0])
        return 1;
    if (log == ref->log)
        ref->counts_lost = !attempt->plugin || !clk_file_exists(command.plugin);
    return 0;
}

/* The uninitialised-value checker over the short sample, after the verdict's run judged every case and found
   nothing: what it finds joins that run's findings (read_findings); its failure is Oclgrind's, and says which check
   was not made. */
static void uninitialised_run(struct grading *g, const struct grade_lab_spec *lab, uint64_t seed, size_t max_local,
                              long only_case, struct reference *ref)
{
    static struct case_log log;
    char failure[1024] = "";
    int rc = simulate(g, lab, seed, max_local, only_case, &uninitialised_check, &log, ref, failure, sizeof failure);
    if (clk_stage_times() && rc == 1)
        fprintf(stderr, "reference judge %s, uninitialised values: %s\n", lab->name, failure);
    if (rc == 1)
        clk_append(ref->why, sizeof ref->why, "%suninitialised values not checked: %.900s (a fault of Oclgrind's, "
                   "not of the kernel)", ref->why[0] ? "; " : "", failure);
    for (size_t i = 0; rc == 0 && i < log.count; i++)
        ref->uninitialised_cases += (size_t)log.ran[i];
}

/* After the last attempt failed: what it found in the cases it judged before it failed stands (a race is a race);
   with nothing found, its partial run does not count, and every case is the device's alone. */
static void keep_findings(struct grading *g, const struct grade_lab_spec *lab, struct reference *ref)
{
    ref->log->stopped_at = -1;
    ref->log->technique_ran = 0;
    read_findings(g, lab, ref);
    ref->ran = ref->findings > 0;
}

void reference_judge_run(struct grading *g, const struct grade_lab_spec *lab, uint64_t seed, size_t max_local,
                         long only_case, struct reference *ref)
{
    struct case_log *given = ref->log;
    char failure[1024] = "", first[1024] = "", path[PATH_MAX + 64];
    size_t a = 0;
    int rc = 1;
    memset(ref, 0, sizeof *ref);
    ref->log = given;
    ref->log_given = given != NULL;
    if (!ref->log && !(ref->log = calloc(1, sizeof *ref->log))) {
        snprintf(ref->why, sizeof ref->why, "the grader ran out of host memory");
        return;
    }
    snprintf(path, sizeof path, "%s/run-%s%s/%s", g->scratch, lab->name, RUNLAB_REFERENCE_RUN,
             uninitialised_check.log);
    scratch_remove(path); /* an earlier judge's (or the lab's runner's): not this one */
    /* Each failure is Oclgrind's: the next attempt leaves out what may have caused it. A run past its budget or
       its time is not tried again: no checker makes a kernel endless, and each try would cost as much again. */
    for (a = 0; a < GRADE_COUNT(attempts) && rc == 1 && !(a > 0 && (ref->log->over_budget || ref->log->out_of_time));
         a++) {
        rc = simulate(g, lab, seed, max_local, only_case, &attempts[a], ref->log, ref, failure, sizeof failure);
        if (a == 0)
            snprintf(first, sizeof first, "%s", failure);
        if (clk_stage_times() && rc == 1)
            fprintf(stderr, "reference judge %s, attempt %zu: %s\n", lab->name, a + 1, failure);
    }
    if (rc == 1 && ref->log->over_budget && ref->log->stopped_at >= 0) {
        /* Not Oclgrind's failure: a launch that runs past its budget of simulated instructions, far more than a
           right kernel needs, hangs there, whatever a device's compiler made of it; the verdict says so. A run that
           only took too long is the judge's failure (below): time never decides the kernel's verdict. */
        read_findings(g, lab, ref);
        ref->ran = 1;
        return;
    }
    if (rc == 0 && a > 1)
        snprintf(ref->why, sizeof ref->why, "%s not checked: with every check, %.900s (a fault of Oclgrind's, not "
                 "of the kernel)", attempts[a - 1].without, first);
    if (rc == 0) {
        ref->ran = 1;
        read_findings(g, lab, ref);
        /* A race, a bad access or a divergence fails the kernel already, and often causes the uninitialised value
           the checker would add: the student fixes it first, and the checker's run is saved. The technique case
           alone (RUNLAB_NO_CASE) leaves the checker no case: no run, and nothing to say. */
        if (only_case != RUNLAB_NO_CASE && ref->findings == 0) {
            uninitialised_run(g, lab, seed, max_local, only_case, ref);
            read_findings(g, lab, ref);
        } else if (only_case != RUNLAB_NO_CASE)
            clk_append(ref->why, sizeof ref->why, "%suninitialised values not looked for: the problems above come "
                       "first", ref->why[0] ? "; " : "");
    } else if (rc == 1) {
        snprintf(ref->why, sizeof ref->why, "the reference judge could not simulate this kernel: %.900s%s%.600s (a "
                 "fault of Oclgrind's, not of the kernel), so the device's verdict stands and no points are lost for "
                 "it", first, a == 1 ? "" : strcmp(first, failure) ? "; without its optional checks, "
                 : ", with and without its optional checks", a > 1 && strcmp(first, failure) ? failure : "");
        ref->judge_failed = 1;
        ref->counts_lost = !ref->counted;
        keep_findings(g, lab, ref);
    }
}

void sanitize_free(struct reference *ref)
{
    if (!ref->log_given)
        free(ref->log);
    ref->log = NULL;
}

int reference_same_case(const struct grade_case *a, const struct grade_case *b)
{
    return a->data == b->data && !memcmp(a->dims, b->dims, sizeof a->dims) && a->local[0] == b->local[0] &&
           a->local[1] == b->local[1] && a->groups == b->groups && a->tile == b->tile &&
           a->wpt == b->wpt;
}

const struct case_verdict *reference_verdict_of(const struct reference *ref, const struct grade_case *c)
{
    for (size_t i = 0; ref && ref->ran && ref->log && i < ref->log->count; i++)
        if (ref->log->ran[i] && reference_same_case(&ref->log->cases[i], c))
            return &ref->log->verdicts[i];
    return NULL;
}
