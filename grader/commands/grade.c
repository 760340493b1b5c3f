/* The grade command: one folder (labs/, solutions/ or a submission) through the pipeline, its report, its result
   files and its own HTML page; with --bench, the table of what its kernels reached instead of the report. */
#include "commands/grade.h"

#include "commands/batch.h"
#include "commands/bench.h"
#include "pipeline.h"
#include "report/html.h"
#include "report/report.h"
#include "timing.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

/* --bench: the grading report goes nowhere; the table of the performance tests is the output. */
static int bench(const struct cli *cli, const struct grade_lab_result *results)
{
    const char *device = "this device";
    for (int i = 0; i < cli->lab_count; i++)
        if (results[i].device[0])
            device = results[i].device;
    printf("## %s\n\n", device);
    bench_table(stdout, device, results, cli->lab_count);
    return cli->bench_out && bench_write(cli->bench_out, device, results, cli->lab_count) != 0 ? 2 : 0;
}

/* --html DIR for one student: their own page, DIR/index.html, from the record a batch would write for them (in the
   scratch folder), named after the folder graded. */
static int write_own_page(const struct grading *g, const struct cli *cli, const struct grade_lab_result *results,
                          double seconds)
{
    char record[PATH_MAX], name[BATCH_NAME_MAX + 1] = "submission";
    const char *base = strrchr(g->source_dir, '/');
    struct pipeline_outputs out = {.version = cli_version()};
    if (cli->submission_count && base && batch_name_is_safe(base + 1))
        snprintf(name, sizeof name, "%s", base + 1);
    snprintf(record, sizeof record, "%s/%s.record", g->scratch, name);
    out.paths[result_writer_index("record")] = record;
    if (pipeline_write_results(g, results, seconds, &out) != 0)
        return 2;
    return html_write_student(g->scratch, name, cli->html, g->root) == 0 ? 0 : 2;
}

int grade_run(struct grading *g, const struct cli *cli)
{
    static struct grade_lab_result results[CLI_MAX_LABS];
    double start = clk_now_s();
    FILE *quiet = NULL;
    int rc;
    struct pipeline_outputs out = {.version = cli_version()};
    memcpy(out.paths, cli->outputs, sizeof out.paths);
    if (grading_set_source(g, cli->submission_count ? cli->submissions[0] : NULL) != 0)
        return 2;
    if (cli->bench && (quiet = fopen("/dev/null", "w")) != NULL)
        report_style_for(quiet, 0, &g->style);
    rc = pipeline_run(g, results);
    if (quiet) {
        fclose(quiet);
        report_style_for(stdout, 0, &g->style);
        rc = rc == 2 ? 2 : bench(cli, results);
    }
    if (pipeline_write_results(g, results, clk_now_s() - start, &out) != 0)
        rc = 2;
    if (cli->html && write_own_page(g, cli, results, clk_now_s() - start) != 0)
        rc = 2;
    for (int i = 0; i < cli->lab_count; i++)
        result_free(&results[i]);
    return rc;
}
