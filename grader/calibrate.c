#include "calibrate.h"

#include "timing.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

void calibrate_rule(const double *speedups, int count, const char *note_if_none, struct perf_rule *rule)
{
    double median = clk_median(speedups, (size_t)count);
    memset(rule, 0, sizeof *rule);
    rule->points = CALIBRATE_POINTS;
    if (count == 0 || median < CALIBRATE_MIN_EFFECT) {
        rule->informational = 1;
        if (note_if_none && note_if_none[0])
            snprintf(rule->note, sizeof rule->note, "%s", note_if_none);
        else
            snprintf(rule->note, sizeof rule->note,
                     "on this device the solution runs at %.2fx the speed of the baseline: too little difference "
                     "to grade, so this test only reports",
                     median);
        return;
    }
    /* Round down to two decimals so that the file states exactly the threshold in force. */
    rule->min_speedup = floor(sqrt(median) * 100.0) / 100.0;
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
