#include "calibrate.h"

#include "labs.h"
#include "runlab.h"
#include "sandbox.h"
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

void calibrate_format(int lab, const char *what, const double *values, int count, const struct perf_rule *rule,
                      char *text, size_t size)
{
    int used = snprintf(text, size, "\n# lab%d: %s, %d runs:", lab, what, count);
    for (int i = 0; i < count && used > 0 && (size_t)used < size; i++)
        used += snprintf(text + used, size - (size_t)used, " %.3f", values[i]);
    if (used < 0 || (size_t)used >= size)
        return;
    used += snprintf(text + used, size - (size_t)used, " (median %.3f)\n", clk_median(values, (size_t)count));
    if (rule->min_speedup > 0 && (size_t)used < size)
        used += snprintf(text + used, size - (size_t)used, "lab%d.min_speedup = %.2f\n", lab, rule->min_speedup);
    if ((size_t)used < size)
        used += snprintf(text + used, size - (size_t)used, "lab%d.points = %g\nlab%d.mode = %s\n", lab, rule->points,
                         lab, rule->informational ? "informational" : "scored");
    if (rule->note[0] && (size_t)used < size)
        snprintf(text + used, size - (size_t)used, "lab%d.note = %s\n", lab, rule->note);
}

/* Appends one lab's calibration output to profile: the device header once, then the lab's lines. */
static void add_calibration(const char *output, char *profile, size_t size, int first)
{
    const char *lines = strstr(output, "\n# lab");
    size_t used = strlen(profile);
    if (first)
        used += (size_t)snprintf(profile + used, size - used, "%.*s", lines ? (int)(lines - output) : 0, output);
    if (lines && used < size)
        snprintf(profile + used, size - used, "%s", lines);
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

int calibrate_all(struct grading *g)
{
    static char profile[65536];
    const struct grade_lab_spec *labs;
    size_t count = grade_all_labs(&labs);
    char kernel_path[PATH_MAX + 64];
    for (size_t i = 0; i < count; i++) {
        struct lab_job job = {.lab = &labs[i], .kernel_path = kernel_path, .device = g->cli->device, .seed = 1,
                              .only_case = -1, .replay = "", .kernels_dir = g->kernels_dir,
                              .profiles_dir = g->profiles_dir, .calibrate_runs = 7};
        struct sandbox_outcome outcome;
        snprintf(kernel_path, sizeof kernel_path, "solutions/%s/%s", labs[i].name, labs[i].kernel_file);
        printf("calibrating %s ...\n", labs[i].name);
        fflush(stdout);
        sandbox_run(runlab_calibrate_child, &job, 600, NULL, NULL, &outcome);
        if (outcome.end != SANDBOX_EXITED || outcome.code != 0 || !outcome.output) {
            fprintf(stderr, "grade: calibrating %s failed\n", labs[i].name);
            sandbox_outcome_free(&outcome);
            return 2;
        }
        add_calibration(outcome.output, profile, sizeof profile, i == 0);
        sandbox_outcome_free(&outcome);
    }
    return write_profile(g, profile);
}
