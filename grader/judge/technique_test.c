#include "judge/technique_test.h"

#include "judge/reference_judge.h"
#include "labs/contract.h"
#include "text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int technique_judge(const struct grade_lab_spec *lab, const struct technique_counts *c, char *text, size_t size)
{
    if (!lab->technique) {
        snprintf(text, size, "no technique check for this lab");
        return 1;
    }
    if (lab->technique->host_schedule) {
        snprintf(text, size, "the host program's schedule, judged by the host test, not from counts");
        return -1;
    }
    return technique_measured(lab->technique, c) ? lab->technique->judge(&lab->technique->shape, c, text, size) : -1;
}

/* The number after "key=" in a speed test's metrics, or -1 when absent. */
static double speed_metric(const char *metrics, const char *key)
{
    char pattern[32];
    snprintf(pattern, sizeof pattern, "%s=", key);
    for (const char *p = strstr(metrics, pattern); p; p = strstr(p + 1, pattern))
        if (p == metrics || p[-1] == ';')
            return atof(p + strlen(pattern));
    return -1.0;
}

/* Whether the device's own speed contradicts what Oclgrind counted: on a GPU whose profile separates the lab's
   solution from its baseline (a threshold above 1), a kernel timed below that threshold does not show the
   technique there. A CPU device, an unmeasured speed or an informational profile decides nothing. */
static int device_contradicts(const struct grade_lab_spec *lab, int device_is_gpu,
                              const struct grade_lab_result *result, char *text, size_t size)
{
    const char *name = labs_test_name(lab, GRADE_TEST_SPEED);
    /* A profile's threshold is calibrated with the lab's solution, written to its first contract: a kernel of
       another (lab 9's one output a work-item, 1.28x the naive kernel on an H100 whose threshold is 2.08x) shows
       the technique by its counts alone. */
    if (labs_contract_index(lab) > 0)
        return 0;
    for (int t = 0; device_is_gpu && name && t < result->test_count; t++) {
        const struct grade_test *test = &result->tests[t];
        double speedup = speed_metric(test->metrics, "speedup"), threshold = speed_metric(test->metrics, "threshold");
        double high = speed_metric(test->metrics, "high"); /* within the noise of the threshold is not below it */
        if (strcmp(test->name, name) != 0 || speedup < 0 || threshold <= 1.0 || speedup >= threshold ||
            high >= threshold)
            continue;
        clk_append(text, size, "\nbut on this device the kernel runs at %.2fx the baseline, below the %.2fx that "
                   "the technique gives here: Oclgrind's counts are necessary, not sufficient", speedup, threshold);
        return 1;
    }
    return 0;
}

void technique_test(const struct grade_lab_spec *lab, const struct reference *ref, int correct, int device_is_gpu,
                    struct grade_lab_result *result)
{
    static char text[2048];
    double points = labs_test_points(lab, GRADE_TEST_TECHNIQUE);
    int passed = 0;
    if (!lab->technique || lab->technique->host_schedule)
        return; /* a schedule is the host program's: the host test judges it (judge/host_test.c) */
    if (!correct)
        snprintf(text, sizeof text, "not measured: the kernel must pass every correctness case first");
    else if (!ref->counted && (!ref->ran || ref->counts_lost)) {
        /* The judge's failure, not the kernel's: no points are lost for it, and the report flags the test. */
        snprintf(text, sizeof text, "not measured, and not held against the kernel: %.1900s",
                 ref->why[0] ? ref->why : "the kit's Oclgrind plugin is missing (sudo apt-get install "
                 "liboclgrind-dev, then make)");
        result_add(result, "technique", points, points, 1, text);
        if (result->test_count > 0)
            result->tests[result->test_count - 1].noted = 1;
        return;
    }
    else if (!ref->counted && ref->log->stopped_at >= 0)
        snprintf(text, sizeof text, "not measured: the reference judge %s before it reached the technique case",
                 ref->log->how);
    else if (!ref->counted)
        snprintf(text, sizeof text, "not measured: the reference judge counted nothing for the technique case "
                 "(the kit's Oclgrind plugin is missing: sudo apt-get install liboclgrind-dev, then make)");
    else if ((passed = technique_judge(lab, &ref->counts, text, sizeof text)) < 0) {
        snprintf(text, sizeof text, "not measured: the reference judge counted no global access in the technique "
                 "case (the kit's Oclgrind plugin is out of date: make)");
        passed = 0;
    } else if (!passed || device_contradicts(lab, device_is_gpu, result, text, sizeof text)) {
        passed = 0;
        clk_append(text, sizeof text, "\nsee %s for the technique this test counts", lab->perf.handout);
    }
    result_add(result, "technique", passed ? points : 0, points, passed, text);
}
