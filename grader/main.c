/* ./grade: builds each lab's kernel with the grader's own harness, checks it, and scores it. */
#include "cli/batch.h"
#include "cli/cli.h"
#include "cli/slurm.h"
#include "device.h"
#include "judge/grading.h"
#include "labs/spec.h"
#include "perf/bench.h"
#include "perf/calibrate.h"
#include "pipeline.h"
#include "sandbox/sandbox.h"
#include "timing.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int list_devices(void)
{
    struct clk_device_info infos[CLK_MAX_DEVICES];
    int count = clk_enumerate_devices(infos, CLK_MAX_DEVICES);
    clk_list_devices(stdout, infos, count > 0 ? count : 0);
    return count > 0 ? 0 : 2;
}

/* --bench: the grading report goes nowhere; the table of the performance tests is the output. */
static int bench(struct grading *g, const struct grade_lab_result *results)
{
    const char *device = "this device";
    for (int i = 0; i < g->cli->lab_count; i++)
        if (results[i].device[0])
            device = results[i].device;
    printf("## %s\n\n", device);
    bench_table(stdout, device, results, g->cli->lab_count);
    return g->cli->bench_out && bench_write(g->cli->bench_out, device, results, g->cli->lab_count) != 0 ? 2 : 0;
}

static int grade_one(struct grading *g)
{
    static struct grade_lab_result results[CLI_MAX_LABS];
    double start = clk_now_s();
    FILE *quiet = NULL;
    int rc;
    if (grading_set_source(g, g->cli->submission_count ? g->cli->submissions[0] : NULL) != 0)
        return 2;
    if (g->cli->bench && (quiet = fopen("/dev/null", "w")) != NULL)
        report_style_for(quiet, 0, &g->style);
    rc = pipeline_run(g, results);
    if (quiet) {
        fclose(quiet);
        report_style_for(stdout, 0, &g->style);
        rc = rc == 2 ? 2 : bench(g, results);
    }
    if (pipeline_write_results(g, results, clk_now_s() - start, g->cli->json, g->cli->junit,
                              g->cli->classroom) != 0)
        rc = 2;
    for (int i = 0; i < g->cli->lab_count; i++)
        result_free(&results[i]);
    return rc;
}

int main(int argc, char **argv)
{
    struct cli cli;
    struct grading g = {.cli = &cli};
    int rc;
    sandbox_init();
    rc = cli_parse(argc, argv, &cli);
    if (rc != 0)
        return rc == 1 ? 0 : 2;
    if (cli.list_devices)
        return list_devices();
    if (cli.confinement) {
        char layers[512];
        sandbox_layers(layers, sizeof layers);
        printf("confinement: %s\n", layers);
        return 0;
    }
    if (grading_open(&g) != 0)
        return 2;
    g.seed = cli.seed_given ? cli.seed : (uint64_t)time(NULL) % 1000000;
    report_style_for(stdout, cli.verbose, &g.style);
    if (cli.calibrate) {
        cli.solutions = 1;
        rc = grading_set_source(&g, NULL) != 0 ? 2 : calibrate_all(&g);
    } else if (cli.slurm) {
        rc = slurm_write(&g);
    } else if (cli.task) {
        rc = slurm_task(&g);
    } else if (cli.merge) {
        rc = slurm_merge(&g);
    } else if (batch_wanted(&cli)) {
        rc = batch_run(&g);
    } else {
        rc = grade_one(&g);
    }
    grading_close(&g);
    return rc;
}
