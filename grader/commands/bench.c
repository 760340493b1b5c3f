#include "commands/bench.h"

#include "labs/spec.h"
#include "labs/registry.h"
#include "commands/calibrate.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

double bench_metric(const char *metrics, const char *key)
{
    size_t length = strlen(key);
    for (const char *p = metrics; p && *p; p = strchr(p, ';') ? strchr(p, ';') + 1 : NULL)
        if (strncmp(p, key, length) == 0 && p[length] == '=')
            return atof(p + length + 1);
    return 0.0;
}

/* The lab's performance test, or NULL when it was not run or not timed. */
static const struct grade_test *perf_test(const struct grade_lab_result *result)
{
    for (int t = 0; t < result->test_count; t++)
        if (strstr(result->tests[t].metrics, "rate="))
            return &result->tests[t];
    return NULL;
}

static const char *unit_of(const struct grade_test *test)
{
    return strstr(test->metrics, "unit=GFLOP/s") ? "GFLOP/s" : "GB/s";
}

static void table_row(FILE *out, const struct grade_lab_spec *lab, const struct grade_test *test)
{
    const char *m = test->metrics;
    char speedup[160] = "(no baseline)", threshold[32] = "";
    if (lab->perf.baseline_file && bench_metric(m, "pairs") > 0) /* the median ratio's spread, where it was kept */
        snprintf(speedup, sizeof speedup, "%.2fx (95%% interval %.2f-%.2fx, %.0f pairs) over %s (%.3f ms)",
                 bench_metric(m, "speedup"), bench_metric(m, "low"), bench_metric(m, "high"),
                 bench_metric(m, "pairs"), lab->perf.baseline_name, bench_metric(m, "baseline_ms"));
    else if (lab->perf.baseline_file)
        snprintf(speedup, sizeof speedup, "%.2fx over %s (%.3f ms)", bench_metric(m, "speedup"),
                 lab->perf.baseline_name, bench_metric(m, "baseline_ms"));
    /* Speed is never scored; the threshold is what the profile reports the solution against. */
    if (bench_metric(m, "threshold") > 0)
        snprintf(threshold, sizeof threshold, "%.2fx", bench_metric(m, "threshold"));
    else
        snprintf(threshold, sizeof threshold, "none");
    char vendor[64] = "";
    if (bench_metric(m, "clblast_ms") > 0)
        snprintf(vendor, sizeof vendor, "; %.0f%% of CLBlast SGEMM (%.3f ms)",
                 100.0 * bench_metric(m, "clblast_ms") / bench_metric(m, "ms"), bench_metric(m, "clblast_ms"));
    fprintf(out, "| %s | %s | %.0f | %.3f ms | %.0f %s | %.0f%% of %s%s | %s | %s |\n", lab->name, lab->kernel_name,
            bench_metric(m, "size"), bench_metric(m, "ms"), bench_metric(m, "rate"), unit_of(test),
            100.0 * bench_metric(m, "fraction"), strcmp(unit_of(test), "GB/s") ? "FMA peak" : "copy", vendor, speedup,
            threshold);
}

/* The lab's going-further kernel, timed on the same problem: its rate follows from the solution's, the work being
   the same. */
static void further_row(FILE *out, const struct grade_lab_spec *lab, const struct grade_test *test)
{
    const char *m = test->metrics;
    double ms = bench_metric(m, "further_ms"), ratio = ms > 0 ? bench_metric(m, "ms") / ms : 0.0;
    if (ms <= 0 || !lab->perf.further.file)
        return;
    fprintf(out, "| %s | %s (going further) | %.0f | %.3f ms | %.0f %s | %.0f%% of %s | %.2fx over the solution | "
                 "not graded |\n",
            lab->name, lab->perf.further.kernel, bench_metric(m, "size"), ms, ratio * bench_metric(m, "rate"),
            unit_of(test), 100.0 * ratio * bench_metric(m, "fraction"),
            strcmp(unit_of(test), "GB/s") ? "FMA peak" : "copy", ratio);
}

void bench_table(FILE *out, const char *device, const struct grade_lab_result *results, int count)
{
    fprintf(out, "| lab | kernel | size | time | rate | of peak | speedup | threshold |\n"
                 "| --- | --- | --- | --- | --- | --- | --- | --- |\n");
    for (int l = 0; l < count; l++) {
        const struct grade_lab_spec *lab = registry_find(results[l].lab);
        const struct grade_test *test = perf_test(&results[l]);
        if (test && lab) {
            table_row(out, lab, test);
            further_row(out, lab, test);
        }
    }
    fprintf(out, "\nDevice: %s. The peaks (copy bandwidth, FMA throughput) are measured in the same run; "
                 "size is n, or the side of the square matrices. A kernel's time is a median; a speedup, the median "
                 "ratio of interleaved pairs; on a GPU each timed launch of a kernel starts from a flushed cache. CLBlast's time "
                 "is the fastest of 15 calls, its time varying from call to call far more.\n",
            device);
}

static void write_csv(FILE *out, const char *device, const struct grade_lab_result *results, int count)
{
    fprintf(out, "device,lab,kernel,size,ms,rate,unit,peak,fraction,baseline,baseline_ms,speedup,threshold,scored,"
                 "clblast_ms,further_ms,low,high,pairs\n");
    for (int l = 0; l < count; l++) {
        const struct grade_lab_spec *lab = registry_find(results[l].lab);
        const struct grade_test *test = perf_test(&results[l]);
        const char *m;
        if (!test || !lab)
            continue;
        m = test->metrics;
        fprintf(out, "\"%s\",%s,%s,%.0f,%.4f,%.2f,%s,%.2f,%.4f,%s,%.4f,%.3f,%.2f,%d,%.4f,%.4f,%.3f,%.3f,%.0f\n", device,
                lab->name,
                lab->kernel_name, bench_metric(m, "size"), bench_metric(m, "ms"), bench_metric(m, "rate"),
                unit_of(test), bench_metric(m, "peak"), bench_metric(m, "fraction"),
                lab->perf.baseline_kernel ? lab->perf.baseline_kernel : "", bench_metric(m, "baseline_ms"),
                bench_metric(m, "speedup"), bench_metric(m, "threshold"), bench_metric(m, "threshold") > 0,
                bench_metric(m, "clblast_ms"), bench_metric(m, "further_ms"), bench_metric(m, "low"),
                bench_metric(m, "high"), bench_metric(m, "pairs"));
    }
}

int bench_write(const char *dir, const char *device, const struct grade_lab_result *results, int count)
{
    const char *endings[] = {"md", "csv"};
    char name[300], base[300], path[4096 + 320], date[32];
    time_t now = time(NULL);
    profile_file_name(device, name, sizeof name);
    snprintf(base, sizeof base, "%.*s", (int)(strlen(name) - 5), name); /* without ".conf" */
    strftime(date, sizeof date, "%Y-%m-%d", gmtime(&now));
    for (int i = 0; i < 2; i++) {
        FILE *out;
        snprintf(path, sizeof path, "%s/bench-%s.%s", dir, base, endings[i]);
        if (!(out = fopen(path, "w"))) {
            fprintf(stderr, "grade: cannot write %s: %s\n", path, strerror(errno));
            return -1;
        }
        if (i == 0) {
            fprintf(out, "# The solutions on %s\n\nMeasured on %s with `./grade --bench all`.\n\n", device, date);
            bench_table(out, device, results, count);
        } else {
            write_csv(out, device, results, count);
        }
        fclose(out);
        printf("wrote %s\n", path);
    }
    return 0;
}
