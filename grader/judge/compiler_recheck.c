#include "judge/compiler_recheck.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int recheck_needed(const struct case_log *device, const struct reference *ref)
{
    if (!ref || !ref->ran || ref->findings > 0)
        return 0; /* with a race or a bad access, what the device computes is luck, whatever its compiler */
    for (size_t i = 0; i < device->count; i++) {
        const struct case_verdict *rv = reference_verdict_of(ref, &device->cases[i]);
        if (device->ran[i] && !device->verdicts[i].values_ok && rv && rv->values_ok)
            return 1;
    }
    return 0;
}

int recheck_crash_needed(const struct case_log *device, const struct reference *ref)
{
    if (!ref || !ref->ran || ref->judge_failed || ref->findings > 0 || ref->log->stopped_at >= 0 ||
        device->stopped_at < 0 || (size_t)device->stopped_at >= device->count || device->device_memory_held ||
        !strncmp(device->how, "did not finish", 14))
        return 0;
    for (size_t i = 0; i < ref->log->count; i++)
        if (ref->log->ran[i] && (!ref->log->verdicts[i].values_ok || !ref->log->verdicts[i].memory_ok))
            return 0;
    return 1;
}

int recheck_cleared_crash(const struct case_log *device, const struct case_log *unoptimised)
{
    long at = device->stopped_at;
    if (at < 0 || !unoptimised || unoptimised->count != device->count || unoptimised->stopped_at >= 0 ||
        !unoptimised->ran[at])
        return 0;
    for (size_t i = (size_t)at; i < unoptimised->count; i++)
        if (unoptimised->ran[i] && (!unoptimised->verdicts[i].values_ok || !unoptimised->verdicts[i].memory_ok))
            return 0;
    return 1;
}

char *recheck_device_gave_up(const struct grade_lab_spec *lab, const struct case_log *device,
                             const struct reference *ref, const struct case_log *unoptimised)
{
    const char *assertion = device->assertion[0] ? device->assertion : unoptimised->assertion;
    char description[128], *why;
    if (unoptimised->count != device->count || !assertion[0] || !recheck_crash_needed(device, ref) ||
        recheck_cleared_crash(device, unoptimised) || !(why = malloc(1024)))
        return NULL;
    lab->family->describe(&device->cases[device->stopped_at], description, sizeof description);
    snprintf(why, 1024, "the device's OpenCL implementation gave up in case %ld (%s), also with the kernel built "
             "without optimisation, in its own words:\n  %s\nwhile Oclgrind, the reference judge, finds the "
             "kernel right: a kernel is judged on both, so this lab was not graded here (no point is lost for it); "
             "grade it on another device (./grade --list-devices)", device->stopped_at + 1, description, assertion);
    return why;
}

/* The cases to run again, at most RECHECK_MAX_CASES: those the reference judge got right first, since they decide
   whether the compiler is to blame, then the device's other wrong cases, then (after a crash) the case it crashed
   in and those after it. Returns how many. */
static size_t choose(const struct case_log *device, const struct reference *ref, size_t *chosen)
{
    size_t count = 0;
    if (recheck_crash_needed(device, ref))
        for (size_t i = (size_t)device->stopped_at; i < device->count && count < RECHECK_MAX_CASES; i++)
            chosen[count++] = i;
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < device->count && count < RECHECK_MAX_CASES; i++) {
            const struct case_verdict *rv = reference_verdict_of(ref, &device->cases[i]);
            int disagrees = rv && rv->values_ok;
            if (device->ran[i] && !device->verdicts[i].values_ok && disagrees == (pass == 0) && (!rv || rv->values_ok))
                chosen[count++] = i;
        }
    return count;
}

/* Runs device case i again in r (same list, same seed) and copies its verdict into unoptimised. */
static void run_again(struct lab_run *r, size_t max_local, const struct case_log *device, size_t i,
                      struct case_log *unoptimised)
{
    static struct case_log one;
    runlab_run_cases(r, max_local, (long)i, &one);
    if (one.count == device->count && one.ran[i] && !memcmp(&one.cases[i], &device->cases[i], sizeof one.cases[i])) {
        unoptimised->ran[i] = 1;
        unoptimised->verdicts[i] = one.verdicts[i];
    } else if (one.stopped_at >= 0 && unoptimised->stopped_at < 0) {
        unoptimised->stopped_at = (long)i;
        memcpy(unoptimised->how, one.how, sizeof unoptimised->how);
        memcpy(unoptimised->assertion, one.assertion, sizeof unoptimised->assertion);
    }
}

void compiler_recheck_run(struct grading *g, const struct grade_lab_spec *lab, uint64_t seed,
                          const struct case_log *device, const struct reference *ref, struct case_log *unoptimised)
{
    struct lab_run r = {.g = g, .lab = lab, .seed = seed, .mode = RUNLAB_GRADE, .unoptimised = 1};
    static size_t chosen[RUNLAB_MAX_CASES];
    int simulated = g->config.simulated;
    size_t count, max_local = g->max_local < GRADE_PORTABLE_LOCAL ? g->max_local : GRADE_PORTABLE_LOCAL;
    unoptimised->count = 0;
    unoptimised->stopped_at = unoptimised->slow_at = -1;
    unoptimised->how[0] = unoptimised->assertion[0] = '\0';
    unoptimised->timed_checked = 0;
    if (simulated || !(recheck_needed(device, ref) || recheck_crash_needed(device, ref)) ||
        (count = choose(device, ref, chosen)) == 0)
        return;
    memcpy(unoptimised->cases, device->cases, device->count * sizeof device->cases[0]);
    memset(unoptimised->ran, 0, sizeof unoptimised->ran);
    unoptimised->count = device->count;
    if (runlab_open_patiently(&r, g->config.timeout_s) == 0 && !r.setup && !r.refusal)
        for (size_t k = 0; k < count && r.session.child.pid > 0 && !r.session.broken; k++)
            run_again(&r, max_local, device, chosen[k], unoptimised);
    runlab_close(&r, NULL);
}
