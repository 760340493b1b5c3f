/* ./grade: builds each lab's kernel with the grader's own harness, checks it, and scores it. */
#include "commands/batch.h"
#include "cli/cli.h"
#include "commands/slurm.h"
#include "device.h"
#include "judge/job.h"
#include "labs/spec.h"
#include "commands/bench.h"
#include "commands/calibrate.h"
#include "pipeline.h"
#include "report/html.h"
#include "report/writers.h"
#include "sandbox/layers.h"
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

/* --html DIR for one student: their own page, DIR/index.html, from the results file a batch would write for them
   (in the scratch folder), named after the folder graded. */
static int write_own_page(const struct grading *g, const struct cli *cli, const struct grade_lab_result *results,
                          double seconds)
{
    char json[PATH_MAX], name[BATCH_NAME_MAX + 1] = "submission";
    const char *base = strrchr(g->source_dir, '/');
    struct pipeline_outputs out = {.version = cli_version()};
    if (cli->submission_count && base && batch_name_is_safe(base + 1))
        snprintf(name, sizeof name, "%s", base + 1);
    snprintf(json, sizeof json, "%s/%s.json", g->scratch, name);
    out.paths[result_writer_index("json")] = json;
    if (pipeline_write_results(g, results, seconds, &out) != 0)
        return 2;
    return html_write_student(g->scratch, name, cli->html, g->root) == 0 ? 0 : 2;
}

static int grade_one(struct grading *g, const struct cli *cli)
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

/* --confinement: the report's line, then each layer of the table and whether it holds on this machine. */
static int show_confinement(struct grading *g, const struct cli *cli)
{
    (void)g, (void)cli;
    sandbox_layers_print(stdout);
    return 0;
}

static int devices(struct grading *g, const struct cli *cli)
{
    (void)g, (void)cli;
    return list_devices();
}

static int calibrate(struct grading *g, const struct cli *cli)
{
    (void)cli;
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
    int (*run)(struct grading *g, const struct cli *cli);
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

/* The judging configuration of cli, built once: the judge reads nothing else of the command line. */
static void judge_config_of(const struct cli *cli, int solutions, struct judge_config *config)
{
    _Static_assert(JUDGE_MAX_LABS >= CLI_MAX_LABS, "every lab of a command line fits");
    for (int i = 0; i < cli->lab_count; i++)
        config->labs[i] = cli->labs[i];
    config->lab_count = cli->lab_count;
    judge_config_set_device(config, cli->device);
    config->timeout_s = cli->timeout_s;
    config->budget_s = cli->budget_s;
    config->only_case = cli->only_case;
    config->quick = cli->quick;
    config->sanitize = cli->sanitize;
    config->verbose = cli->verbose;
    config->solutions = cli->solutions || solutions;
    config->bench = cli->bench;
    config->course = cli->course;
}

int main(int argc, char **argv)
{
    struct cli cli;
    static struct grading g;
    int rc;
    sandbox_init();
    rc = cli_parse(argc, argv, &cli);
    if (rc != 0)
        return rc == 1 ? 0 : 2;
    const struct command *command = command_of(&cli);
    if (!command->needs_grading)
        return command->run(&g, &cli);
    judge_config_of(&cli, command->solutions, &g.config); /* before opening: the course is part of it */
    if (grading_open(&g) != 0)
        return 2;
    g.seed = cli.seed_given ? cli.seed : (uint64_t)time(NULL) % 1000000;
    report_style_for(stdout, cli.verbose, &g.style);
    rc = command->run(&g, &cli);
    grading_close(&g);
    return rc;
}
