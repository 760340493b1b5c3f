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
#include "report/html.h"
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

/* --html DIR for one student: their own page, DIR/index.html, from the results file a batch would write for them
   (in the scratch folder), named after the folder graded. */
static int write_own_page(const struct grading *g, const struct grade_lab_result *results, double seconds)
{
    char json[PATH_MAX], name[BATCH_NAME_MAX + 1] = "submission";
    const char *base = strrchr(g->source_dir, '/');
    if (g->cli->submission_count && base && batch_name_is_safe(base + 1))
        snprintf(name, sizeof name, "%s", base + 1);
    snprintf(json, sizeof json, "%s/%s.json", g->scratch, name);
    if (pipeline_write_results(g, results, seconds, json, NULL, NULL) != 0)
        return 2;
    return html_write_student(g->scratch, name, g->cli->html, g->root) == 0 ? 0 : 2;
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
    if (g->cli->html && write_own_page(g, results, clk_now_s() - start) != 0)
        rc = 2;
    for (int i = 0; i < g->cli->lab_count; i++)
        result_free(&results[i]);
    return rc;
}

static int show_confinement(struct grading *g)
{
    char layers[512];
    (void)g;
    sandbox_layers(layers, sizeof layers);
    printf("confinement: %s\n", layers);
    return 0;
}

static int devices(struct grading *g)
{
    (void)g;
    return list_devices();
}

static int calibrate(struct grading *g)
{
    return grading_set_source(g, NULL) != 0 ? 2 : calibrate_all(g);
}

static int wants_devices(const struct cli *cli) { return cli->list_devices; }
static int wants_confinement(const struct cli *cli) { return cli->confinement; }
static int wants_calibrate(const struct cli *cli) { return cli->calibrate; }
static int wants_slurm(const struct cli *cli) { return cli->slurm != NULL; }
static int wants_task(const struct cli *cli) { return cli->task != NULL; }
static int wants_merge(const struct cli *cli) { return cli->merge != NULL; }
static int wants_bench(const struct cli *cli) { return cli->bench && !batch_wanted(cli); }
static int wants_grade(const struct cli *cli) { (void)cli; return 1; }

/* The commands, in the order the command line is asked for them: the first it wants runs, and only that one. */
static const struct command {
    const char *name;
    int (*wanted)(const struct cli *cli);
    int needs_grading; /* 0: runs before the grader opens its scratch and devices */
    int solutions;     /* 1: works on the kit's own solutions, whatever the command line names */
    int (*run)(struct grading *g);
} commands[] = {
    {.name = "devices", .wanted = wants_devices, .run = devices},
    {.name = "confinement", .wanted = wants_confinement, .run = show_confinement},
    {.name = "calibrate", .wanted = wants_calibrate, .needs_grading = 1, .solutions = 1, .run = calibrate},
    {.name = "slurm", .wanted = wants_slurm, .needs_grading = 1, .run = slurm_write},
    {.name = "task", .wanted = wants_task, .needs_grading = 1, .run = slurm_task},
    {.name = "merge", .wanted = wants_merge, .needs_grading = 1, .run = slurm_merge},
    {.name = "batch", .wanted = batch_wanted, .needs_grading = 1, .run = batch_run},
    {.name = "bench", .wanted = wants_bench, .needs_grading = 1, .run = grade_one},
    {.name = "grade", .wanted = wants_grade, .needs_grading = 1, .run = grade_one},
};

static const struct command *command_of(const struct cli *cli)
{
    size_t i = 0;
    while (!commands[i].wanted(cli))
        i++; /* "grade" wants every command line */
    return &commands[i];
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
    const struct command *command = command_of(&cli);
    if (!command->needs_grading)
        return command->run(&g);
    if (grading_open(&g) != 0)
        return 2;
    g.seed = cli.seed_given ? cli.seed : (uint64_t)time(NULL) % 1000000;
    report_style_for(stdout, cli.verbose, &g.style);
    cli.solutions |= command->solutions;
    rc = command->run(&g);
    grading_close(&g);
    return rc;
}
