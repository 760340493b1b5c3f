#include "commands/calibrate.h"

#include "labs/spec.h"
#include "labs/registry.h"
#include "judge/lab_run.h"
#include "judge/speed_test.h"
#include "files.h"
#include "text.h"
#include "timing.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

/* The highest of the known-slow submissions' speedups, the baseline's own 1 among them. */
static double slow_highest(const double *slow, int slow_count)
{
    double highest = 1.0;
    for (int i = 0; i < slow_count; i++)
        highest = slow[i] > highest ? slow[i] : highest;
    return highest;
}

void calibrate_separate(const double *speedups, int count, const double *slow, int slow_count,
                        const char *note_if_none, struct perf_rule *rule)
{
    double median = clk_median(speedups, (size_t)count), lowest = count ? speedups[0] : 0.0;
    double high = slow_highest(slow, slow_count);
    for (int i = 1; i < count; i++)
        if (speedups[i] < lowest)
            lowest = speedups[i];
    memset(rule, 0, sizeof *rule);
    rule->points = CALIBRATE_POINTS;
    if (count == 0 || lowest < CALIBRATE_MIN_EFFECT * high) {
        rule->informational = 1;
        if (note_if_none && note_if_none[0])
            snprintf(rule->note, sizeof rule->note, "%s", note_if_none);
        else if (high > 1.0 && lowest >= CALIBRATE_MIN_EFFECT)
            snprintf(rule->note, sizeof rule->note,
                     "on this device a known-slow submission ran at %.2fx the baseline, too close to the solution's "
                     "%.2fx (lowest) to grade, so this test only reports", high, lowest);
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
    rule->min_speedup = floor(sqrt(lowest * high) * 100.0) / 100.0;
    rule->solution_low = lowest;
    rule->slow_high = high;
}

void calibrate_rule(const double *speedups, int count, const char *note_if_none, struct perf_rule *rule)
{
    calibrate_separate(speedups, count, NULL, 0, note_if_none, rule);
}

void calibrate_format(const char *lab, const char *what, const double *values, int count,
                      const struct perf_rule *rule, char *text, size_t size)
{
    snprintf(text, size, "\n# %s: %s, %d runs:", lab, what, count);
    for (int i = 0; i < count; i++)
        clk_append(text, size, " %.3f", values[i]);
    clk_append(text, size, " (median %.3f)\n", clk_median(values, (size_t)count));
    if (rule->min_speedup > 0)
        clk_append(text, size, "# margin %.2f: the threshold over the known-slow submissions' highest, and the "
                   "solution's lowest over it (the smaller)\n%s.min_speedup = %.2f\n%s.solution_low = %.3f\n"
                   "%s.slow_high = %.3f\n", profile_margin(rule), lab, rule->min_speedup, lab, rule->solution_low,
                   lab, rule->slow_high);
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
    profile_file_name(device, name, sizeof name);
    snprintf(path, sizeof path, "%s/grader/profiles/%s", g->root, name);
    strftime(date, sizeof date, "%Y-%m-%d", gmtime(&now));
    if (!(file = fopen(path, "w"))) {
        fprintf(stderr, "grade: cannot write %s\n", path);
        return 2;
    }
    fprintf(file, "# clkit device profile, written by ./grade --calibrate on %s.\n"
                  "# Each threshold is the geometric midpoint between the fastest known-slow submission (the\n"
                  "# baseline's 1, or a right but slow fixture's speedup) and the lowest speedup the solution\n"
                  "# showed, so the solution on a bad run and a slow kernel fall equally far from it\n"
                  "# (labN.solution_low and labN.slow_high record the two; ./grade checks the threshold lies\n"
                  "# between them). Where the solution is not 1.15 times the slow one, the test only reports.\n"
                  "# labN.points and labN.mode = scored count only in a course that grades speed on this device\n"
                  "# (course.conf: speed.profile = this file).\n"
                  "# Calibrate while the machine is as busy as it will be when students are graded.\n",
            date);
    fputs(body, file);
    fclose(file);
    printf("wrote %s:\n\n%s", path, body);
    return 0;
}

/* Each lab's submission that is right but known to be slow (the baseline's technique under the lab's name),
   timed beside the solution so that a threshold is kept only where it separates them. */
static const struct {
    const char *lab, *folder;
} known_slow[] = {
    {.lab = "lab4", .folder = "tests/fixtures/lab4/serial-group"},
    {.lab = "lab5", .folder = "tests/fixtures/lab5/swapped-mapping"},
    {.lab = "lab6", .folder = "tests/fixtures/lab6/naive-in-tiled"},
    {.lab = "lab7", .folder = "tests/fixtures/lab7/naive-in-tiled"},
    {.lab = "lab8", .folder = "tests/fixtures/lab8/lab6-kernel"},
    {.lab = "lab10", .folder = "tests/fixtures/lab10/global-atomics"},
};

/* Times lab's known-slow submission, where the kit has one, into slow; returns how many runs (0: none). */
static int time_known_slow(struct grading *g, const struct grade_lab_spec *lab, double *slow, char *comment,
                           size_t size)
{
    static char why[4096];
    char path[PATH_MAX + 64];
    int count = 0;
    for (size_t i = 0; i < sizeof known_slow / sizeof *known_slow && count == 0; i++) {
        struct lab_run r = {.g = g, .lab = lab, .seed = 1, .mode = RUNLAB_GRADE};
        snprintf(path, sizeof path, "%s/%s", g->root, known_slow[i].folder);
        if (strcmp(known_slow[i].lab, lab->name) != 0 || !clk_file_exists(path) || grading_set_source(g, path) != 0)
            continue;
        runlab_open(&r, NULL, 600);
        if (!r.setup && !r.refusal && runperf_calibrate(&r, CALIBRATE_RUNS, slow, why, sizeof why) == 0)
            count = CALIBRATE_RUNS;
        else
            fprintf(stderr, "grade: %s's known-slow submission %s could not be timed: %s\n", lab->name,
                    known_slow[i].folder, r.setup ? r.setup : r.refusal ? r.refusal : why);
        runlab_close(&r, NULL);
        grading_set_source(g, NULL);
        snprintf(comment, size, "\n# %s: the known-slow %s's speedup, %d runs:", lab->name, known_slow[i].folder,
                 count);
        for (int k = 0; k < count; k++)
            clk_append(comment, size, " %.3f", slow[k]);
    }
    return count;
}

/* Times one solution in its runner and appends the lab's profile lines (after the device header, for the first). */
static int calibrate_lab(struct grading *g, const struct grade_lab_spec *lab, char *profile, size_t size, int first)
{
    static char text[4096], why[4096], comment[1024];
    struct lab_run r = {.g = g, .lab = lab, .seed = 1, .mode = RUNLAB_GRADE};
    double values[CALIBRATE_RUNS], slow[CALIBRATE_RUNS];
    int slow_count = 0;
    struct perf_rule rule;
    char what[256];
    comment[0] = '\0';
    runlab_open(&r, NULL, 600);
    if (r.setup || r.refusal || runperf_calibrate(&r, CALIBRATE_RUNS, values, why, sizeof why) != 0) {
        fprintf(stderr, "grade: cannot calibrate %s: %s\n", lab->name, r.setup ? r.setup : r.refusal ? r.refusal : why);
        runlab_close(&r, NULL);
        return -1;
    }
    runlab_close(&r, NULL); /* its device name and profile stay in r */
    if (first)
        clk_append(profile, size,
                   "device = %s\nname = %s\ntype = %s\nsize.vector = %zu\nsize.matmul = %zu\nsize.transpose = %zu\n",
                   r.hello.device_name, r.hello.device_name, r.hello.is_gpu ? "gpu" : "cpu", r.profile.vector_n,
                   r.profile.matmul_n, r.profile.transpose_n);
    if (lab->perf.baseline_file) {
        slow_count = time_known_slow(g, lab, slow, comment, sizeof comment);
        snprintf(what, sizeof what, "the solution's speedup over %s", lab->perf.baseline_name);
        calibrate_separate(values, CALIBRATE_RUNS, slow, slow_count, r.hello.is_gpu ? NULL : lab->perf.cpu_note,
                           &rule);
    } else {
        snprintf(what, sizeof what, "the solution's fraction of %s",
                 lab->family->work_is_flops ? "the FMA peak" : "the copy bandwidth");
        memset(&rule, 0, sizeof rule);
        rule.informational = 1;
        snprintf(rule.note, sizeof rule.note, "bandwidth is reported, not graded");
    }
    rule.tile = r.profile.labs[registry_index(lab)].tile; /* the tiling it was calibrated with stays chosen */
    calibrate_format(lab->name, what, values, CALIBRATE_RUNS, &rule, text, sizeof text);
    clk_append(profile, size, "%s%s", comment, text);
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

int calibrate_run(struct grading *g, const struct cli *cli)
{
    (void)cli;
    return grading_set_source(g, NULL) != 0 ? 2 : calibrate_all(g);
}
