/* --lab-csv FILE: the run as CSV, one row per lab (lab, score, max, tests passed, tests, device), for a gradebook
   that keeps one column per lab. */
#include "report/writers.h"

#include "judge/safetext.h"
#include "report/report.h"

static int write_lab_csv(FILE *out, const struct export_run *run)
{
    fputs("lab,score,max,passed,tests,device\n", out);
    for (int l = 0; l < run->count; l++) {
        const struct grade_lab_result *result = &run->results[l];
        double score, max;
        int passed = 0;
        report_score(result, &score, &max);
        for (int t = 0; t < result->test_count; t++)
            passed += result->tests[t].passed;
        safetext_csv(out, result->lab, sizeof result->lab);
        fprintf(out, ",%.2f,%.2f,%d,%d,", score, max, passed, result->test_count);
        safetext_csv(out, result->device, sizeof result->device);
        fputc('\n', out);
    }
    return ferror(out) ? -1 : 0;
}

const struct result_writer result_writer_lab_csv = {
    .option = "lab-csv",
    .help = "write the results as CSV, a row per lab",
    .write = write_lab_csv,
};
