#include "judge/verdict.h"

#include "files.h"
#include "judge/compiler_recheck.h"
#include "judge/mismatch.h"
#include "judge/source_rules.h"
#include "labs/technique.h"
#include "text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DETAIL_SIZE 8192

/* One test's tally over the cases, with the details of the first failures. */
struct tally {
    int cases, failed;
    int unearned; /* passed, but earns nothing because the values are wrong */
    int mapped;   /* a failure with a mismatch map was shown in full */
    char details[DETAIL_SIZE];
};

/* How the device and the reference judge compare on the cases both ran, and what the device made of the
   disagreeing cases with the kernel built without optimisation. */
struct agreement {
    int device_wrong;   /* the device computed wrong values where the reference judge computed right ones */
    long first;         /* the first such case */
    int miscompiled;    /* of those, right on the device built without optimisation: its compiler's fault */
    long first_miscompiled;
    int still_wrong;    /* of those, wrong on the device without optimisation too, or not run again */
    long first_still_wrong;
    int excluded;       /* device-only cases set aside: the device's compiler is shown wrong, or the kernel races */
    int racy;           /* the reference judge found a race, a bad access, an uninitialised value */
};

/* What one case contributes: its verdicts and where they come from. */
struct merged {
    int values_ok, memory_ok;
    const char *values, *memory;
    int from_reference; /* the values are wrong under the reference judge, right on the device */
    int miscompiled;    /* wrong on the device as built, right without optimisation */
    int disagrees;      /* wrong on the device, also without optimisation, right under the reference judge */
};

/* The device's verdict on case i with the kernel built without optimisation, or NULL when it was not run again. */
static const struct case_verdict *unoptimised_verdict(const struct case_log *unoptimised, size_t i)
{
    return unoptimised && i < unoptimised->count && unoptimised->ran[i] ? &unoptimised->verdicts[i] : NULL;
}

static void compare_runs(const struct case_log *device, const struct reference *ref,
                         const struct case_log *unoptimised, struct agreement *a)
{
    memset(a, 0, sizeof *a);
    a->first = a->first_miscompiled = a->first_still_wrong = -1;
    /* With a race or an access outside the buffers, what the device computed is luck: only the reference judge's
       cases count. */
    a->racy = ref && ref->ran && ref->findings > 0;
    for (size_t i = 0; i < device->count; i++) {
        const struct case_verdict *rv = reference_verdict_of(ref, &device->cases[i]);
        const struct case_verdict *uv = unoptimised_verdict(unoptimised, i);
        if (!device->ran[i] || !rv || device->verdicts[i].values_ok || !rv->values_ok)
            continue;
        if (a->device_wrong++ == 0)
            a->first = (long)i;
        if (uv && uv->values_ok && a->miscompiled++ == 0)
            a->first_miscompiled = (long)i;
        else if (!(uv && uv->values_ok) && a->still_wrong++ == 0)
            a->first_still_wrong = (long)i;
    }
}

/* A case's verdict: right only when right on the device (as built, or without optimisation where that shows its
   compiler at fault) and under the reference judge where it ran the case; memory safety from every run. Returns 0
   when the case does not count. */
static int merge_case(const struct case_log *device, const struct reference *ref, const struct case_log *unoptimised,
                      size_t i, struct agreement *a, struct merged *m)
{
    const struct case_verdict *dv = device->ran[i] ? &device->verdicts[i] : NULL;
    const struct case_verdict *rv = reference_verdict_of(ref, &device->cases[i]);
    const struct case_verdict *uv = unoptimised_verdict(unoptimised, i);
    int device_ok;
    memset(m, 0, sizeof *m);
    if (!dv)
        return 0;
    /* No device is believed on a kernel that races; a device-only case the device got wrong, and did not run
       again, counts for nothing once its compiler is shown to miscompile this kernel (and nothing else). */
    if (!rv && (a->racy || (!dv->values_ok && !uv && a->miscompiled > 0 && a->still_wrong == 0))) {
        a->excluded++;
        return 0;
    }
    m->miscompiled = !dv->values_ok && uv && uv->values_ok;
    device_ok = dv->values_ok || m->miscompiled;
    m->values_ok = device_ok && (!rv || rv->values_ok);
    m->from_reference = rv && !rv->values_ok && device_ok;
    m->disagrees = !device_ok && rv && rv->values_ok;
    m->values = m->from_reference ? rv->values : uv && !uv->values_ok ? uv->values : dv->values;
    m->memory_ok = dv->memory_ok && (!rv || rv->memory_ok) && (!uv || uv->memory_ok);
    m->memory = !dv->memory_ok ? dv->memory : uv && !uv->memory_ok ? uv->memory : rv ? rv->memory : "";
    return 1;
}

/* Adds a failed case to a tally: the first in full, with its replay command (under the reference judge when
   only it ran the case), the next two in a line. */
static void tally_failure(struct tally *t, const struct grading *g, uint64_t seed, size_t index,
                          const char *description, const char *why, int reference_only)
{
    char head[256];
    /* The first failure in full, and the first with a map of the matrix (a 1 x 1 case has none). */
    int first_map = !t->mapped && strstr(why, MISMATCH_ROW) != NULL;
    t->failed++;
    t->mapped |= first_map;
    if (t->failed > 3 && !g->config.verbose && !first_map)
        return;
    snprintf(head, sizeof head, "\ncase %zu (%s): ", index, description);
    if (t->failed == 1 || g->config.verbose || first_map) {
        char replay[PATH_MAX + 256], device[160] = "";
        int length = (int)strlen(g->replay);
        /* A case only the reference judge ran replays there: its --device in place of the grading's. */
        if (reference_only && g->config.device)
            snprintf(device, sizeof device, " --device %s", g->config.device);
        if (device[0] && length >= (int)strlen(device) && !strcmp(g->replay + length - strlen(device), device))
            length -= (int)strlen(device);
        clk_append(t->details, sizeof t->details, "%s%s", head, why);
        snprintf(replay, sizeof replay, "\n  replay: %.*s%s --case %zu --seed %llu", length, g->replay,
                 reference_only ? " --device oclgrind" : "", index, (unsigned long long)seed);
        clk_append(t->details, sizeof t->details, "%s", replay);
    } else {
        const char *newline = strchr(why, '\n');
        char first_line[256];
        snprintf(first_line, sizeof first_line, "%.*s", newline ? (int)(newline - why) : (int)strlen(why), why);
        clk_append(t->details, sizeof t->details, "%s%s", head, first_line);
    }
}

static void tally_pass(struct tally *t, const struct grading *g, size_t index, const char *description)
{
    char line[256];
    if (!g->config.verbose)
        return;
    snprintf(line, sizeof line, "\ncase %zu (%s): ok", index, description);
    clk_append(t->details, sizeof t->details, "%s", line);
}

/* Adds a tally as a test; ok and failed are formats taking the case counts; extra follows the first line. */
static void report_tally(const struct grading *g, struct grade_lab_result *result, const char *name, double points,
                         const struct tally *t, const char *ok, const char *failed, const char *extra)
{
    size_t size = 2 * DETAIL_SIZE + 512;
    char *reason = malloc(size);
    if (!reason)
        return;
    if (t->cases == 0 && extra[0])
        snprintf(reason, size, "no case counts: %s", extra + 1), extra = "";
    else if (t->cases == 0 && g->config.only_case >= 0)
        snprintf(reason, size, "not run: --case selects a case of another test");
    else if (t->cases == 0)
        snprintf(reason, size, "no case counts: every case of this test was set aside (see the exact cases)");
    else if (t->failed == 0 && t->unearned)
        snprintf(reason, size, "no unsafe access, but %d of %d cases compute wrong values, and memory safety "
                 "counts only where the values are right", t->unearned, t->cases);
    else if (t->failed == 0)
        snprintf(reason, size, ok, t->cases);
    else
        snprintf(reason, size, failed, t->failed, t->cases);
    clk_append(reason, size, "%s%s%s", extra, t->details,
               t->failed > 3 && !strstr(t->details, "-v lists") ? "\n(and more: -v lists every case)" : "");
    double earned = t->cases ? points * (t->cases - t->failed - t->unearned) / t->cases : 0.0;
    result_add(result, name, earned, points, t->cases > 0 && t->failed == 0 && t->unearned == 0, reason);
    free(reason);
}

/* Tallies the reference judge's case i into the exact and memory tallies. */
static void tally_reference_case(const struct grading *g, const struct grade_lab_spec *lab, uint64_t seed,
                                 const struct case_log *log, size_t i, struct tally *tallies)
{
    const struct case_verdict *v = &log->verdicts[i];
    char description[128];
    lab->family->describe(&log->cases[i], description, sizeof description);
    tallies[0].cases++;
    tallies[2].cases++;
    if (!v->values_ok)
        tally_failure(&tallies[0], g, seed, i, description, v->values, 1);
    else
        tally_pass(&tallies[0], g, i, description);
    if (!v->memory_ok)
        tally_failure(&tallies[2], g, seed, i, description, v->memory, 1);
    else if (!v->values_ok)
        tallies[2].unearned++;
}

/* With a finding, the reference judge's own cases, whatever the device could launch: the same on every device. */
static void tally_reference(const struct grading *g, const struct grade_lab_spec *lab, uint64_t seed,
                            const struct case_log *log, struct tally *tallies)
{
    for (size_t i = 0; i < log->count; i++)
        if (log->ran[i])
            tally_reference_case(g, lab, seed, log, i, tallies);
}

/* Whether the device's list holds case c (it may not have run it). */
static int device_lists(const struct case_log *device, const struct grade_case *c)
{
    for (size_t i = 0; i < device->count; i++)
        if (reference_same_case(&device->cases[i], c))
            return 1;
    return 0;
}

/* The reference judge's cases that no device lists (tiles past GRADE_PORTABLE_LOCAL) count as exact cases. */
static void tally_reference_only(const struct grading *g, const struct grade_lab_spec *lab, uint64_t seed,
                                 const struct case_log *device, const struct reference *ref, struct tally *tallies)
{
    for (size_t i = 0; ref && ref->ran && i < ref->log->count; i++)
        if (ref->log->ran[i] && !device_lists(device, &ref->log->cases[i]))
            tally_reference_case(g, lab, seed, ref->log, i, tallies);
}

/* The timed run, checked on a sample of its result, is one more real case: a kernel may be right only on small
   sizes. Once the device's compiler is shown to miscompile the kernel, a wrong timed run is its doing, not counted. */
static void tally_timed(const struct case_log *device, const struct agreement *a, struct tally *real)
{
    if (!device->timed_checked || (device->timed_wrong && a->miscompiled > 0 && a->still_wrong == 0))
        return;
    real->cases++;
    if (device->timed_wrong) {
        real->failed++;
        clk_append(real->details, sizeof real->details, "\n%s%s", device->timed_detail,
                   "\n  (the timed run's size comes from the device's profile; --quick leaves it out)");
    }
}

/* The words before a case's wrong values: which judge found them wrong. */
static const char *values_source(const struct merged *m)
{
    if (m->from_reference)
        return "right on the device, but wrong under Oclgrind, the reference judge (a kernel must be right on "
               "both): ";
    if (m->disagrees)
        return "right under Oclgrind, the reference judge, but wrong on the device, also when built without "
               "optimisation (a kernel must be right on both): ";
    return "";
}

/* Tallies every case that counts into the exact, real and memory tallies. */
static void tally_cases(const struct grading *g, const struct grade_lab_spec *lab, uint64_t seed,
                        const struct case_log *device, const struct reference *ref,
                        const struct case_log *unoptimised, struct agreement *a, struct tally *tallies)
{
    if (a->racy) {
        tally_reference(g, lab, seed, ref->log, tallies);
        return;
    }
    for (size_t i = 0; i < device->count; i++) {
        struct merged m;
        char description[128], values[4600];
        struct tally *t = &tallies[device->cases[i].data == GRADE_EXACT ? 0 : 1], *memory = &tallies[2];
        if (!merge_case(device, ref, unoptimised, i, a, &m))
            continue;
        lab->family->describe(&device->cases[i], description, sizeof description);
        snprintf(values, sizeof values, "%s%s", values_source(&m), m.values);
        t->cases++;
        memory->cases++;
        if (m.values_ok && m.miscompiled && g->config.verbose)
            clk_append(t->details, sizeof t->details, "\ncase %zu (%s): right without optimisation; as built: %.300s",
                       i, description, device->verdicts[i].values);
        else if (m.values_ok)
            tally_pass(t, g, i, description);
        else
            tally_failure(t, g, seed, i, description, values, 0);
        if (!m.memory_ok)
            tally_failure(memory, g, seed, i, description, m.memory, 0);
        else if (!m.values_ok)
            memory->unearned++;
    }
    tally_reference_only(g, lab, seed, device, ref, tallies);
    tally_timed(device, a, &tallies[1]);
}

/* The first two lines of a case's wrong values (the count, the first wrong element) on one line. */
static void evidence(const char *values, char *text, size_t size)
{
    size_t n = 0;
    for (int lines = 0; *values && n + 3 < size; values++) {
        if (*values == '\n' && ++lines == 2)
            break;
        if (*values == '\n') {
            text[n++] = ';';
            while (values[1] == ' ')
                values++;
            text[n++] = ' ';
        } else
            text[n++] = *values;
    }
    text[n] = '\0';
}

/* The note on a device that computed wrong what the reference judge computed right: its compiler shown at fault
   (right when built without optimisation), with the evidence, or the kernel wrong on the device, for review. */
static void suspect_note(const struct grading *g, const struct case_log *device, uint64_t seed,
                         const struct agreement *a, char *text, size_t size)
{
    text[0] = '\0';
    if (a->racy) {
        snprintf(text, size, "\nthe kernel races or reaches outside its buffers (see memory safety): what a device "
                 "computes then is luck, so only the small cases that the reference judge ran count");
        return;
    }
    if (a->miscompiled > 0) {
        char wrong[300];
        evidence(device->verdicts[a->first_miscompiled].values, wrong, sizeof wrong);
        snprintf(text, size, "\nthe device's compiler miscompiled this kernel: %d case%s wrong on the device as built "
                 "%s right under Oclgrind, the reference judge, and right on the device built without optimisation "
                 "(-cl-opt-disable), so %s as right%s%.0d%s\n  evidence, case %ld as built: %s; without "
                 "optimisation: right\n  see it: %.400s --case %ld --seed %llu -v",
                 a->miscompiled, a->miscompiled == 1 ? "" : "s", a->miscompiled == 1 ? "is" : "are",
                 a->miscompiled == 1 ? "it counts" : "they count", a->excluded ? " (" : "", a->excluded,
                 a->excluded ? " wrong cases too large for Oclgrind, not run again, are not counted)" : "",
                 a->first_miscompiled, wrong, g->replay,
                 a->first_miscompiled, (unsigned long long)seed);
    }
    if (a->still_wrong > 0)
        clk_append(text, size, "\n%d case%s right under Oclgrind, the reference judge, %s wrong on the device, also "
                   "built without optimisation: the kernel is wrong on the device and loses %s (the disagreement "
                   "is flagged for review: does the kernel behave differently under the reference judge?)\n  see "
                   "it: %.400s --case %ld --seed %llu -v, then the same with --device oclgrind",
                   a->still_wrong, a->still_wrong == 1 ? "" : "s", a->still_wrong == 1 ? "is" : "are",
                   a->still_wrong == 1 ? "it" : "them", g->replay, a->first_still_wrong, (unsigned long long)seed);
}

/* Where the reference judge stopped, if it did: the checks it made stop there. */
static void reference_stop(const struct grade_lab_spec *lab, const struct reference *ref, char *text, size_t size)
{
    const struct case_log *log = ref->log;
    char description[128];
    if (log->stopped_at < 0 || (size_t)log->stopped_at >= log->count) {
        if (log->stopped_at >= 0)
            snprintf(text, size, "\nthe reference judge %s in the technique case", log->how);
        return;
    }
    lab->family->describe(&log->cases[log->stopped_at], description, sizeof description);
    snprintf(text, size, "\nthe reference judge %s in case %ld (%s): the cases after it were not checked", log->how,
             log->stopped_at, description);
}

/* What the memory-safety test adds from the reference judge: its findings, or the checks it could not make. */
static void reference_note(const struct grade_lab_spec *lab, const struct reference *ref, char *text, size_t size)
{
    char stop[2560] = "";
    if (!ref || !ref->ran)
        snprintf(text, size, "\nnot checked without the reference judge: data races, out-of-bounds accesses the "
                 "device hides, uninitialised values, barrier divergence (%s)",
                 ref && ref->why[0] ? ref->why : "Oclgrind did not run");
    else {
        size_t ran = 0;
        for (size_t i = 0; i < ref->log->count; i++)
            ran += (size_t)ref->log->ran[i];
        reference_stop(lab, ref, stop, sizeof stop);
        if (ref->why[0]) /* the checks Oclgrind could not make, and why */
            clk_append(stop, sizeof stop, "\n%.1500s", ref->why);
        if (ref->findings > 0)
            snprintf(text, size, "\nOclgrind, the reference judge, found %d problem%s:\n%s%s", ref->findings,
                     ref->findings == 1 ? "" : "s", ref->findings_text, stop);
        else {
            char uninitialised[96] = ""; /* said only where the checker ran (ref->why says why else) */
            if (ref->uninitialised_cases > 0)
                snprintf(uninitialised, sizeof uninitialised, ", and no uninitialised value in %zu of them",
                         ref->uninitialised_cases);
            snprintf(text, size, "\nOclgrind, the reference judge, found no data race, out-of-bounds access or "
                     "barrier divergence in %zu small case%s%s%s", ran, ran == 1 ? "" : "s", uninitialised, stop);
        }
    }
}

/* Whether the reference judge finished every small case without a barrier divergence: then a large case that did
   not finish on the device is slow, not endless. */
static int reference_finished(const struct reference *ref)
{
    return ref && ref->ran && ref->log->stopped_at < 0 && !strstr(ref->findings_text, "divergence");
}

/* The case the device stopped in, counting a slow case that the reference judge does not vouch for. */
static long device_stop(const struct case_log *device, const struct reference *ref, const char **how)
{
    *how = device->how;
    if (device->stopped_at >= 0 || device->slow_at < 0 || reference_finished(ref))
        return device->stopped_at;
    *how = device->slow_how;
    return device->slow_at;
}

/* The note on a large case that did not finish, the reference judge having finished every small case: the kernel
   is far too slow, and the cases as large are left out. Returns the test the note belongs to, or -1. */
static int slow_note(const struct grade_lab_spec *lab, const struct case_log *device, const struct reference *ref,
                     char *text, size_t size)
{
    char description[128];
    text[0] = '\0';
    if (device->stopped_at >= 0 || device->slow_at < 0 || !reference_finished(ref))
        return -1;
    lab->family->describe(&device->cases[device->slow_at], description, sizeof description);
    snprintf(text, size, "\ncase %ld (%s) %s on this device%s%.0zu%s: every small case finished under the "
             "reference judge, so the kernel is judged far too slow here rather than wrong, and %s not count (the "
             "speed test is not timed; does each work-item do only its share of the work?)",
             device->slow_at, description, device->slow_how, device->slow_skipped ? ", nor did the " : "",
             device->slow_skipped, device->slow_skipped ? " cases as large run" : "",
             device->slow_skipped ? "these cases do" : "it does");
    return device->cases[device->slow_at].data == GRADE_EXACT ? GRADE_TEST_EXACT : GRADE_TEST_REAL;
}

/* Where the cases stopped counting, if they did: the device or the reference judge stopped in a case, or the
   kernel's results are undefined (a barrier not every work-item reaches: some devices hang there, others go on).
   Writes why to text and returns the test it stopped in, or -1. */
static int find_stop(const struct grade_lab_spec *lab, const struct case_log *device, const struct reference *ref,
                     char *text, size_t size)
{
    char description[128];
    const struct case_log *log = ref && ref->ran ? ref->log : NULL;
    const char *how;
    long stopped_at = device_stop(device, ref, &how);
    if (stopped_at >= 0) {
        const struct grade_case *c = &device->cases[stopped_at];
        lab->family->describe(c, description, sizeof description);
        snprintf(text, size, "the kernel %s in case %ld of %zu (%s)%s%s%s", how, stopped_at + 1, device->count,
                 description, device->last_words[0] ? "\nthe runner's last words: " : "", device->last_words,
                 reference_finished(ref) && !strncmp(how, "did not finish", 14)
                     ? "\nunder the reference judge every small case finished: the kernel is far too slow rather than "
                       "endless (does each work-item do only its share of the work?)"
                     : "");
        return c->data == GRADE_EXACT ? GRADE_TEST_EXACT : GRADE_TEST_REAL;
    }
    if (log && log->stopped_at >= 0 && (size_t)log->stopped_at < log->count) {
        lab->family->describe(&log->cases[log->stopped_at], description, sizeof description);
        snprintf(text, size, "under Oclgrind, the reference judge, whose verdict stands, the kernel %s in case %s",
                 log->how, description);
        return GRADE_TEST_EXACT;
    }
    if (log && log->stopped_at >= 0 && !strncmp(log->how, "did not finish", 14)) { /* the technique case */
        lab->family->describe(&lab->technique->shape, description, sizeof description);
        snprintf(text, size, "under Oclgrind, the reference judge, whose verdict stands, the kernel %s in the "
                 "technique case (%s)", log->how, description);
        return GRADE_TEST_EXACT;
    }
    if (log && strstr(ref->findings_text, "divergence")) {
        snprintf(text, size, "the kernel's results are undefined: a barrier that not every work-item of a group "
                 "reaches (some devices hang there, others go on)");
        return GRADE_TEST_EXACT;
    }
    return -1;
}

/* Cases that stopped counting: the test they stopped in says why, with what the reference judge found; the tests
   after it were not run. */
static void report_stop(const struct grade_lab_spec *lab, int first, const char *why, const struct reference *ref,
                        struct grade_lab_result *result)
{
    static char reason[12288], note[9000];
    reference_note(lab, ref, note, sizeof note);
    snprintf(reason, sizeof reason, "%s%s", why, note);
    result_add(result, labs_test_name(lab, (enum grade_test_kind)first), 0,
               labs_test_points(lab, (enum grade_test_kind)first), 0, reason);
    snprintf(reason, sizeof reason, "not run: the cases stopped counting in an earlier test");
    for (int t = first + 1; t <= GRADE_TEST_MEMORY; t++)
        result_add(result, labs_test_name(lab, (enum grade_test_kind)t), 0,
                   labs_test_points(lab, (enum grade_test_kind)t), 0,
                   t == GRADE_TEST_MEMORY && ref && ref->findings ? note + 1 : reason);
}

/* A cause that the kernel's source shows for what the judges saw, named in the report and as a key. */
struct diagnosis {
    const char *cause; /* VERDICT_CAUSE_..., or NULL */
    char text[768];
};

/* Looks in the kernel's source for the cause of a failure: a private accumulator never set (values wrong
   somewhere, or an uninitialised value found), a return before a barrier (a divergent barrier), a barrier that
   does not fence local memory (a race on local memory). */
static void diagnose(const struct grading *g, const struct grade_lab_spec *lab, const struct reference *ref,
                     int wrong_somewhere, struct diagnosis *d)
{
    char path[PATH_MAX + 160];
    const char *found = ref && ref->ran ? ref->findings_text : "";
    struct rules_flaw flaw;
    char *text;
    d->cause = NULL;
    d->text[0] = '\0';
    snprintf(path, sizeof path, "%s/%s/%s", g->source_dir, lab->name, lab->kernel_file);
    if (!(text = clk_file_exists(path) ? clk_read_text(path, NULL) : NULL))
        return;
    if ((wrong_somewhere || strstr(found, "Uninitialized")) && rules_find_flaw(text, RULES_FLAW_UNINITIALISED, &flaw)) {
        d->cause = VERDICT_CAUSE_UNINITIALISED;
        snprintf(d->text, sizeof d->text, "\n%.300s:%d: the private variable '%s' is never set before '%s +=' (line "
                 "%d) reads it: it starts undefined (Oclgrind happens to read 0, a device whatever its register "
                 "held); start it at 0", path, flaw.line, flaw.name, flaw.name, flaw.other_line);
    } else if (strstr(found, "divergence") && rules_find_flaw(text, RULES_FLAW_EARLY_RETURN, &flaw)) {
        d->cause = VERDICT_CAUSE_EARLY_RETURN;
        snprintf(d->text, sizeof d->text, "\n%.300s:%d: this 'return' comes before the barrier at line %d: the "
                 "work-items that return never reach it, while the rest of the group waits there (skip the work, "
                 "not the barrier: every work-item must reach each barrier)", path, flaw.line, flaw.other_line);
    } else if (strstr(found, "data race on local memory") &&
               rules_find_flaw(text, RULES_FLAW_GLOBAL_FENCE, &flaw)) {
        d->cause = VERDICT_CAUSE_WRONG_FENCE;
        snprintf(d->text, sizeof d->text, "\n%.300s:%d: this barrier fences %s only, but the work-items share "
                 "local memory: the barrier is there, its flag is wrong (use CLK_LOCAL_MEM_FENCE)", path, flaw.line,
                 flaw.name);
    }
    free(text);
}

/* Names the cause on every correctness test that failed: the source's, else a failed case's own. */
static void name_cause(struct grade_lab_result *result, const struct diagnosis *d)
{
    for (int t = 0; d->cause && t < result->test_count; t++)
        if (!result->tests[t].passed && (!strcmp(result->tests[t].name, "exact cases") ||
                                          !strcmp(result->tests[t].name, "real cases") ||
                                          !strcmp(result->tests[t].name, "memory safety")))
            snprintf(result->tests[t].cause, sizeof result->tests[t].cause, "%s", d->cause);
}

/* The cause a wrong case's values name themselves (a read outside the inputs), or NULL. */
static const char *case_cause(const struct case_log *device)
{
    for (size_t i = 0; i < device->count; i++)
        if (device->ran[i] && !device->verdicts[i].values_ok && device->verdicts[i].cause)
            return device->verdicts[i].cause;
    return NULL;
}

/* Whether the device or the reference judge computed a case wrong. */
static int wrong_somewhere(const struct case_log *device, const struct reference *ref)
{
    for (size_t i = 0; i < device->count; i++)
        if (device->ran[i] && !device->verdicts[i].values_ok)
            return 1;
    for (size_t i = 0; ref && ref->ran && i < ref->log->count; i++)
        if (ref->log->ran[i] && !ref->log->verdicts[i].values_ok)
            return 1;
    return 0;
}

/* The key the exact or real test names as the cause of a disagreement between the judges ("" for none). */
static void set_cause(struct grade_lab_result *result, const char *cause)
{
    if (result->test_count > 0 && cause[0])
        snprintf(result->tests[result->test_count - 1].cause, sizeof result->tests[0].cause, "%s", cause);
}

/* The cause of the failure, from the kernel's source or a wrong case's own pattern; an uninitialised private
   variable makes every result undefined, which stops the cases (stopped_in, stop). */
static void find_cause(const struct grading *g, const struct grade_lab_spec *lab, const struct case_log *device,
                       const struct reference *ref, struct diagnosis *d, int *stopped_in, char *stop, size_t size)
{
    diagnose(g, lab, ref, wrong_somewhere(device, ref), d);
    if (!d->cause && (d->cause = case_cause(device)) != NULL)
        snprintf(d->text, sizeof d->text, "\non the device, the NaN that the grader puts around the inputs reached "
                 "the result: the kernel reads outside its inputs");
    if (*stopped_in < 0 && d->cause && !strcmp(d->cause, VERDICT_CAUSE_UNINITIALISED)) {
        /* What the kernel computes is undefined: luck on one device, 0 under the simulator. */
        snprintf(stop, size, "the kernel's results are undefined: it reads a private variable before setting it");
        *stopped_in = GRADE_TEST_EXACT;
    }
    clk_append(stop, size, "%s", d->text);
}

/* The memory-safety test: the reference judge's findings, else the tally of the device's cases. */
static void report_memory(const struct grading *g, const struct grade_lab_spec *lab, const struct reference *ref,
                          const struct tally *memory, const struct diagnosis *d, struct grade_lab_result *result)
{
    static char note[9000];
    reference_note(lab, ref, note, sizeof note);
    if (ref && ref->ran && ref->findings > 0) {
        clk_append(note, sizeof note, "%s", d->text);
        result_add(result, "memory safety", 0, lab->points.memory, 0, note + 1);
    } else
        report_tally(g, result, "memory safety", lab->points.memory, memory,
                     "no write outside the buffers and no input changed in %d cases",
                     "%d of %d cases wrote outside a buffer or changed an input", note);
}

/* A crash the recheck cleared (recheck_cleared_crash): device's log with the crash undone, where the case it crashed
   in and those run again after it count as not computed as built and right without optimisation (so the miscompile
   rules weigh them), and the note that says so. */
static const struct case_log *clear_crash(const struct grading *g, const struct grade_lab_spec *lab, uint64_t seed,
                                          const struct case_log *device, const struct case_log *unoptimised,
                                          char *note, size_t size)
{
    static struct case_log cleared;
    long at = device->stopped_at;
    size_t again = 0;
    char description[128];
    memcpy(&cleared, device, sizeof cleared);
    cleared.stopped_at = -1;
    for (size_t i = (size_t)at; i < device->count; i++)
        if (unoptimised->ran[i]) {
            memset(&cleared.verdicts[i], 0, sizeof cleared.verdicts[i]);
            cleared.ran[i] = cleared.verdicts[i].memory_ok = 1;
            snprintf(cleared.verdicts[i].values, sizeof cleared.verdicts[i].values, "not computed as built: the "
                     "kernel %s in case %ld", device->how, at);
            again++;
        }
    lab->family->describe(&device->cases[at], description, sizeof description);
    snprintf(note, size, "\nthe device's compiler is to blame for a crash: as built, the kernel %s in case %ld (%s) "
             "on the device; built without optimisation (-cl-opt-disable), the device ran that case and the %zu "
             "after it right, and Oclgrind, the reference judge, finds the kernel right, so the cases count\n  see "
             "it: %.400s --case %ld --seed %llu -v", device->how, at, description, again - 1, g->replay, at,
             (unsigned long long)seed);
    return &cleared;
}

/* Whether a crash on the device stands though the recheck ran it again, the reference judge finding the kernel
   right: then stop says so, and the stopped test names the disagreement. */
static int crash_stands(const struct case_log *device, const struct reference *ref,
                        const struct case_log *unoptimised, char *stop, size_t size)
{
    if (!unoptimised || unoptimised->count != device->count || !recheck_crash_needed(device, ref))
        return 0;
    clk_append(stop, size, "\nbuilt without optimisation (-cl-opt-disable), the kernel stopped on the device again "
               "(%s): the crash stands, though Oclgrind, the reference judge, finds the kernel right (the "
               "disagreement is flagged for review: is it the device's own failure?)",
               unoptimised->how[0] ? unoptimised->how : "it did not run right");
    return 1;
}

/* The exact-cases test from its tally, with the notes in extra; cleared says a crash was the compiler's. */
static void report_exact(const struct grading *g, const struct grade_lab_spec *lab, const struct agreement *a,
                         const struct tally *exact, const char *extra, int slow, int cleared,
                         struct grade_lab_result *result)
{
    report_tally(g, result, "exact cases", lab->points.exact, exact,
                 a->miscompiled ? "all %d exact cases right (under Oclgrind, and on the device once its compiler's "
                                  "optimisation is ruled out)"
                                : "all %d exact cases right",
                 "%d of %d exact cases wrong", extra);
    if ((a->device_wrong || slow) && result->test_count > 0)
        result->tests[result->test_count - 1].noted = 1;
    set_cause(result, a->still_wrong                ? VERDICT_CAUSE_DISAGREES
                      : a->miscompiled || cleared ? VERDICT_CAUSE_MISCOMPILED
                                                  : "");
}

void verdict_cases(const struct grading *g, const struct grade_lab_spec *lab, uint64_t seed,
                   const struct case_log *device, const struct reference *ref, const struct case_log *unoptimised,
                   struct grade_lab_result *result)
{
    static struct tally tallies[3];
    static struct diagnosis d;
    static char suspect[2048], stop[2048], slow[1024], crash[2048];
    static char extra[sizeof d.text + sizeof suspect + sizeof slow + sizeof crash];
    struct agreement a;
    int cleared = recheck_cleared_crash(device, unoptimised), stands;
    crash[0] = '\0';
    if (cleared)
        device = clear_crash(g, lab, seed, device, unoptimised, crash, sizeof crash);
    int stopped_in = find_stop(lab, device, ref, stop, sizeof stop);
    stands = !cleared && crash_stands(device, ref, unoptimised, stop, sizeof stop);
    int slow_in = slow_note(lab, device, ref, slow, sizeof slow);
    find_cause(g, lab, device, ref, &d, &stopped_in, stop, sizeof stop);
    if (d.cause && !strcmp(d.cause, VERDICT_CAUSE_UNINITIALISED))
        unoptimised = NULL; /* undefined behaviour: built either way, the device is no compiler's victim */
    memset(tallies, 0, sizeof tallies);
    compare_runs(device, ref, unoptimised, &a);
    tally_cases(g, lab, seed, device, ref, unoptimised, &a, tallies);
    suspect_note(g, device, seed, &a, suspect, sizeof suspect);
    if (stopped_in != GRADE_TEST_EXACT) {
        snprintf(extra, sizeof extra, "%s%s%s%s", d.text, crash, suspect, slow_in == GRADE_TEST_EXACT ? slow : "");
        report_exact(g, lab, &a, &tallies[0], extra, slow_in == GRADE_TEST_EXACT, cleared, result);
    }
    if (stopped_in >= 0) {
        int first = result->test_count;
        report_stop(lab, stopped_in, stop, ref, result);
        if (stands && first < result->test_count)
            snprintf(result->tests[first].cause, sizeof result->tests[first].cause, "%s", VERDICT_CAUSE_DISAGREES);
    } else {
        snprintf(extra, sizeof extra, "%s%s", tallies[0].failed && !a.racy ? "" : suspect,
                 slow_in == GRADE_TEST_REAL ? slow : "");
        report_tally(g, result, "real cases", lab->points.real, &tallies[1], "all %d real cases within tolerance",
                     "%d of %d real cases wrong", extra);
        if (slow_in == GRADE_TEST_REAL && result->test_count > 0)
            result->tests[result->test_count - 1].noted = 1;
        report_memory(g, lab, ref, &tallies[2], &d, result);
    }
    name_cause(result, &d);
}

int verdict_correct(const struct grade_lab_result *result)
{
    int passed = 0;
    for (int i = 0; i < result->test_count; i++)
        if (!strcmp(result->tests[i].name, "exact cases") || !strcmp(result->tests[i].name, "real cases") ||
            !strcmp(result->tests[i].name, "memory safety"))
            passed += result->tests[i].passed;
    return passed == 3;
}
