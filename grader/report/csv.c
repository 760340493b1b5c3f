/* --csv FILE: the run as CSV, one row per test of each lab (lab, test, score, max, passed), for a spreadsheet. */
#include "report/writers.h"

#include "judge/safetext.h"

static int write_csv(FILE *out, const struct export_run *run)
{
    fputs("lab,test,score,max,passed\n", out);
    for (int l = 0; l < run->count; l++)
        for (int t = 0; t < run->results[l].test_count; t++) {
            const struct grade_test *test = &run->results[l].tests[t];
            safetext_csv(out, run->results[l].lab, sizeof run->results[l].lab);
            fputc(',', out);
            safetext_csv(out, test->name, sizeof test->name);
            fprintf(out, ",%.2f,%.2f,%d\n", test->score, test->max, test->passed);
        }
    return ferror(out) ? -1 : 0;
}

const struct result_writer result_writer_csv = {
    .option = "csv",
    .help = "write the results as CSV, a row per test of each lab",
    .write = write_csv,
};
