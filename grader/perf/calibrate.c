#include "perf/calibrate.h"

#include "labs/spec.h"
#include "labs/registry.h"
#include "judge/runlab.h"
#include "judge/runperf.h"
#include "text.h"
#include "timing.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

void calibrate_rule(const double *speedups, int count, const char *note_if_none, struct perf_rule *rule)
{
    double median = clk_median(speedups, (size_t)count), lowest = count ? speedups[0] : 0.0;
    for (int i = 1; i < count; i++)
        if (speedups[i] < lowest)
            lowest = speedups[i];
    memset(rule, 0, sizeof *rule);
    rule->points = CALIBRATE_POINTS;
    if (count == 0 || lowest < CALIBRATE_MIN_EFFECT) {
        rule->informational = 1;
        if (note_if_none && note_if_none[0])
            snprintf(rule->note, sizeof rule->note, "%s", note_if_none);
        else if (median < CALIBRATE_MIN_EFFECT)
            snprintf(rule->note, sizeof rule->note,
                     "on this device the solution runs at %.2fx the speed of the baseline: too little difference "
                     "to grade, so this test only reports",
                     median);
        else
            snprintf(rule->note, sizeof rule->note,
                     "on this device the solution ran between %.2fx (lowest) and %.2fx (median) the speed of the baseline: too "
                     "unreliable to grade, so this test only reports",
                     lowest, median);
        return;
    }
    /* Round down to two decimals so that the file states exactly the threshold in force. */
    rule->min_speedup = floor(sqrt(lowest) * 100.0) / 100.0;
}

void calibrate_file_name(const char *device_name, char *name, size_t size)
{
    size_t used = 0;
    int dash = 0;
    for (const char *p = device_name; *p && used + 6 < size; p++) {
        if (isalnum((unsigned char)*p)) {
            if (dash && used > 0)
                name[used++] = '-';
            name[used++] = (char)tolower((unsigned char)*p);
            dash = 0;
        } else {
            dash = 1;
        }
    }
    snprintf(name + used, size - used, "%s", used ? ".conf" : "device.conf");
}

void calibrate_format(const char *lab, const char *what, const double *values, int count,
                      const struct perf_rule *rule, char *text, size_t size)
{
    snprintf(text, size, "\n# %s: %s, %d runs:", lab, what, count);
    for (int i = 0; i < count; i++)
        clk_append(text, size, " %.3f", values[i]);
    clk_append(text, size, " (median %.3f)\n", clk_median(values, (size_t)count));
    if (rule->min_speedup > 0)
        clk_append(text, size, "%s.min_speedup = %.2f\n", lab, rule->min_speedup);
    if (rule->tile > 0)
        clk_append(text, size, "%s.tile = %d\n", lab, rule->tile);
    if (!rule->informational) /* points on an informational lab would be ignored: the parser refuses them */
        clk_append(text, size, "%s.points = %g\n", lab, rule->points);
    clk_append(text, size, "%s.mode = %s\n", lab, rule->informational ? "informational" : "scored");
    if (rule->note[0])
        clk_append(text, size, "%s.note = %s\n", lab, rule->note);
}

static int write_profile(const struct grading *g, const char *body)
{
    char device[256] = "", name[300], path[PATH_MAX + 320], date[32];
    time_t now = time(NULL);
    FILE *file;
    sscanf(body, "device = %255[^\n]", device);
    calibrate_file_name(device, name, sizeof name);
    snprintf(path, sizeof path, "%s/grader/profiles/%s", g->root, name);
    strftime(date, sizeof date, "%Y-%m-%d", gmtime(&now));
    if (!(file = fopen(path, "w"))) {
        fprintf(stderr, "grade: cannot write %s\n", path);
        return 2;
    }
    fprintf(file, "# clkit device profile, written by ./grade --calibrate on %s.\n"
                  "# Each threshold is the geometric midpoint between 1 (the baseline's speed) and the lowest\n"
                  "# speedup the solution showed, so the solution on a bad run and a naive kernel fall equally\n"
                  "# far from it. Below a lowest speedup of 1.15 the test only reports.\n"
                  "# Calibrate while the machine is as busy as it will be when students are graded.\n",
            date);
    fputs(body, file);
    fclose(file);
    printf("wrote %s:\n\n%s", path, body);
    return 0;
}

/* Times one solution in its runner and appends the lab's profile lines (after the device header, for the first). */
static int calibrate_lab(struct grading *g, const struct grade_lab_spec *lab, char *profile, size_t size, int first)
{
    static char text[4096], why[4096];
    struct lab_run r = {.g = g, .lab = lab, .seed = 1, .mode = RUNLAB_GRADE};
    double values[CALIBRATE_RUNS];
    struct perf_rule rule;
    char what[256];
    runlab_open(&r, NULL, 600);
    if (r.setup || r.refusal || runperf_calibrate(&r, CALIBRATE_RUNS, values, why, sizeof why) != 0) {
        fprintf(stderr, "grade: cannot calibrate %s: %s\n", lab->name, r.setup ? r.setup : r.refusal ? r.refusal : why);
        runlab_close(&r, NULL);
        return -1;
    }
    if (first)
        clk_append(profile, size,
                   "device = %s\nname = %s\ntype = %s\nsize.vector = %zu\nsize.matmul = %zu\nsize.transpose = %zu\n",
                   r.hello.device_name, r.hello.device_name, r.hello.is_gpu ? "gpu" : "cpu", r.profile.vector_n,
                   r.profile.matmul_n, r.profile.transpose_n);
    if (lab->perf.baseline_file) {
        snprintf(what, sizeof what, "the solution's speedup over %s", lab->perf.baseline_name);
        calibrate_rule(values, CALIBRATE_RUNS, r.hello.is_gpu ? NULL : lab->perf.cpu_note, &rule);
    } else {
        snprintf(what, sizeof what, "the solution's fraction of %s",
                 lab->family->work_is_flops ? "the FMA peak" : "the copy bandwidth");
        memset(&rule, 0, sizeof rule);
        rule.informational = 1;
        snprintf(rule.note, sizeof rule.note, "bandwidth is reported, not graded");
    }
    rule.tile = r.profile.labs[registry_index(lab)].tile; /* the tiling it was calibrated with stays chosen */
    calibrate_format(lab->name, what, values, CALIBRATE_RUNS, &rule, text, sizeof text);
    clk_append(profile, size, "%s", text);
    runlab_close(&r, NULL);
    return 0;
}

int calibrate_all(struct grading *g)
{
    static char profile[65536];
    for (size_t i = 0; i < registry_count(); i++) {
        printf("calibrating %s ...\n", registry_lab(i)->name);
        fflush(stdout);
        if (calibrate_lab(g, registry_lab(i), profile, sizeof profile, i == 0) != 0)
            return 2;
    }
    return write_profile(g, profile);
}
