#include "judge/verdict.h"

#include "judge/mismatch.h"
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

/* How the device and the reference judge compare on the cases both ran. */
struct agreement {
    int device_wrong;   /* the device computed wrong values where the reference judge computed right ones */
    long first;         /* the first such case */
    int excluded;       /* device-only cases set aside: the device has shown itself wrong, or the kernel races */
    int racy;           /* the reference judge found a race, a bad access, an uninitialised value */
};

/* What one case contributes: its verdicts and where they come from. */
struct merged {
    int values_ok, memory_ok;
    const char *values, *memory;
    int from_reference; /* the values verdict is the reference judge's where the device's differed */
    const char *device_wrong; /* the device's wrong values where the reference judge's are right */
};

static int same_case(const struct grade_case *a, const struct grade_case *b)
{
    return a->data == b->data && !memcmp(a->dims, b->dims, sizeof a->dims) && a->local[0] == b->local[0] &&
           a->local[1] == b->local[1] && a->groups == b->groups && a->tile == b->tile &&
           a->wpt == b->wpt;
}

/* The reference judge's verdict on the device's case c (the two runs may list different cases: a device that
   cannot launch a tile leaves its cases out), or NULL when it did not run it. */
static const struct case_verdict *reference_verdict(const struct reference *ref, const struct grade_case *c)
{
    for (size_t i = 0; ref && ref->ran && ref->log && i < ref->log->count; i++)
        if (ref->log->ran[i] && same_case(&ref->log->cases[i], c))
            return &ref->log->verdicts[i];
    return NULL;
}

static void compare_runs(const struct case_log *device, const struct reference *ref, struct agreement *a)
{
    memset(a, 0, sizeof *a);
    a->first = -1;
    /* With a race or an access outside the buffers, what the device computed is luck: only the reference judge's
       cases count. */
    a->racy = ref && ref->ran && ref->findings > 0;
    for (size_t i = 0; i < device->count; i++) {
        const struct case_verdict *rv = reference_verdict(ref, &device->cases[i]);
        if (device->ran[i] && rv && !device->verdicts[i].values_ok && rv->values_ok && a->device_wrong++ == 0)
            a->first = (long)i;
    }
}

/* A case's verdict: the reference judge's values where it ran the case, the device's otherwise; memory safety
   from both. Returns 0 when the case does not count. */
static int merge_case(const struct case_log *device, const struct reference *ref, size_t i, struct agreement *a,
                      struct merged *m)
{
    const struct case_verdict *dv = device->ran[i] ? &device->verdicts[i] : NULL;
    const struct case_verdict *rv = reference_verdict(ref, &device->cases[i]);
    memset(m, 0, sizeof *m);
    if (!dv)
        return 0;
    m->values_ok = rv ? rv->values_ok : dv->values_ok;
    m->values = rv && !rv->values_ok ? rv->values : dv->values;
    m->from_reference = rv && !rv->values_ok && dv->values_ok;
    m->device_wrong = rv && rv->values_ok && !dv->values_ok ? dv->values : NULL;
    m->memory_ok = dv->memory_ok && (!rv || rv->memory_ok);
    m->memory = !dv->memory_ok ? dv->memory : rv ? rv->memory : "";
    /* A device that miscompiled a case the reference judge got right is not believed on cases only it ran, nor
       is any device on a kernel that races. */
    if (!rv && ((!dv->values_ok && a->device_wrong > 0) || a->racy)) {
        a->excluded++;
        return 0;
    }
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
    if (t->failed > 3 && !g->cli->verbose && !first_map)
        return;
    snprintf(head, sizeof head, "\ncase %zu (%s): ", index, description);
    if (t->failed == 1 || g->cli->verbose || first_map) {
        char replay[PATH_MAX + 256];
        clk_append(t->details, sizeof t->details, "%s%s", head, why);
        snprintf(replay, sizeof replay, "\n  replay: %s%s --case %zu --seed %llu", g->replay,
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
    if (!g->cli->verbose)
        return;
    snprintf(line, sizeof line, "\ncase %zu (%s): ok", index, description);
    clk_append(t->details, sizeof t->details, "%s", line);
}

/* Adds a tally as a test; ok and failed are formats taking the case counts; extra follows the first line. */
static void report_tally(struct grade_lab_result *result, const char *name, double points, const struct tally *t,
                         const char *ok, const char *failed, const char *extra)
{
    size_t size = 2 * DETAIL_SIZE + 512;
    char *reason = malloc(size);
    if (!reason)
        return;
    if (t->cases == 0 && extra[0])
        snprintf(reason, size, "no case counts: %s", extra + 1), extra = "";
    else if (t->cases == 0)
        snprintf(reason, size, "not run: --case selects a case of another test");
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
        if (same_case(&device->cases[i], c))
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
   sizes. */
static void tally_timed(const struct case_log *device, struct tally *real)
{
    if (!device->timed_checked)
        return;
    real->cases++;
    if (device->timed_wrong) {
        real->failed++;
        clk_append(real->details, sizeof real->details, "\n%s%s", device->timed_detail,
                   "\n  (the timed run's size comes from the device's profile; --quick leaves it out)");
    }
}

/* Tallies every case that counts into the exact, real and memory tallies. */
static void tally_cases(const struct grading *g, const struct grade_lab_spec *lab, uint64_t seed,
                        const struct case_log *device, const struct reference *ref, struct agreement *a,
                        struct tally *tallies)
{
    if (a->racy) {
        tally_reference(g, lab, seed, ref->log, tallies);
        return;
    }
    for (size_t i = 0; i < device->count; i++) {
        struct merged m;
        char description[128], values[4400];
        struct tally *t = &tallies[device->cases[i].data == GRADE_EXACT ? 0 : 1], *memory = &tallies[2];
        if (!merge_case(device, ref, i, a, &m))
            continue;
        lab->family->describe(&device->cases[i], description, sizeof description);
        snprintf(values, sizeof values, "%s%s", m.from_reference ? "right on the device, but under Oclgrind (the "
                 "reference judge, whose verdict stands): " : "", m.values);
        t->cases++;
        memory->cases++;
        if (m.values_ok && m.device_wrong && g->cli->verbose)
            clk_append(t->details, sizeof t->details, "\ncase %s: right under Oclgrind; on the device: %s",
                          description, m.device_wrong);
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
    tally_timed(device, &tallies[1]);
}

/* The note on a device that computed wrong what the reference judge computed right. */
static void suspect_note(const struct grading *g, const struct grade_lab_spec *lab, uint64_t seed,
                         const struct agreement *a, char *text, size_t size)
{
    text[0] = '\0';
    if (a->racy) {
        snprintf(text, size, "\nthe kernel races or reaches outside its buffers (see memory safety): what a device "
                 "computes then is luck, so only the small cases that the reference judge ran count");
        return;
    }
    if (a->device_wrong == 0)
        return;
    snprintf(text, size, "\nthe device computed %d case%s wrong that Oclgrind, the reference judge, computes right: "
             "its verdict stands, and the device's compiler is the suspect%s%.0d%s\n  see it: %.400s --case %ld --seed "
             "%llu -v, then the same with --device oclgrind",
             a->device_wrong, a->device_wrong == 1 ? "" : "s", a->excluded ? " (" : "", a->excluded,
             a->excluded ? " cases that failed on the device alone, too large for Oclgrind, are not counted)" : "", g->replay,
             a->first, (unsigned long long)seed);
    (void)lab;
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
        else
            snprintf(text, size, "\nOclgrind, the reference judge, found no data race, out-of-bounds access, "
                     "uninitialised value or barrier divergence in %zu small case%s%s", ran, ran == 1 ? "" : "s", stop);
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
        snprintf(text, size, "the kernel %s in case %ld of %zu (%s)%s", how, stopped_at + 1,
                 device->count, description,
                 log && log->stopped_at < 0 && !strncmp(how, "did not finish", 14)
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

void verdict_cases(const struct grading *g, const struct grade_lab_spec *lab, uint64_t seed,
                   const struct case_log *device, const struct reference *ref, struct grade_lab_result *result)
{
    static struct tally tallies[3];
    static char suspect[1024], note[9000], stop[1024], slow[1024], extra[2048];
    struct agreement a;
    int stopped_in = find_stop(lab, device, ref, stop, sizeof stop);
    int slow_in = slow_note(lab, device, ref, slow, sizeof slow);
    memset(tallies, 0, sizeof tallies);
    compare_runs(device, ref, &a);
    tally_cases(g, lab, seed, device, ref, &a, tallies);
    suspect_note(g, lab, seed, &a, suspect, sizeof suspect);
    if (stopped_in == GRADE_TEST_EXACT) {
        report_stop(lab, stopped_in, stop, ref, result);
        return;
    }
    snprintf(extra, sizeof extra, "%s%s", suspect, slow_in == GRADE_TEST_EXACT ? slow : "");
    report_tally(result, "exact cases", lab->points.exact, &tallies[0],
                 a.device_wrong ? "all %d exact cases right by the reference judge, not by the device"
                                : "all %d exact cases right",
                 "%d of %d exact cases wrong", extra);
    if ((a.device_wrong || slow_in == GRADE_TEST_EXACT) && result->test_count > 0)
        result->tests[result->test_count - 1].noted = 1;
    if (stopped_in >= 0) {
        report_stop(lab, stopped_in, stop, ref, result);
        return;
    }
    snprintf(extra, sizeof extra, "%s%s", tallies[0].failed && !a.racy ? "" : suspect,
             slow_in == GRADE_TEST_REAL ? slow : "");
    report_tally(result, "real cases", lab->points.real, &tallies[1], "all %d real cases within tolerance",
                 "%d of %d real cases wrong", extra);
    if (slow_in == GRADE_TEST_REAL && result->test_count > 0)
        result->tests[result->test_count - 1].noted = 1;
    reference_note(lab, ref, note, sizeof note);
    if (ref && ref->ran && ref->findings > 0) {
        result_add(result, "memory safety", 0, lab->points.memory, 0, note + 1);
        return;
    }
    report_tally(result, "memory safety", lab->points.memory, &tallies[2],
                 "no write outside the buffers and no input changed in %d cases",
                 "%d of %d cases wrote outside a buffer or changed an input", note);
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
