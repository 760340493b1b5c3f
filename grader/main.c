/* ./grade: builds each lab's kernel with the grader's own harness, checks it, and scores it. */
#include "cli/cli.h"
#include "commands/batch.h"
#include "commands/calibrate.h"
#include "commands/devices.h"
#include "commands/grade.h"
#include "commands/slurm.h"
#include "judge/job.h"
#include "report/report.h"
#include "sandbox/sandbox.h"

#include <time.h>

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
    {.name = "devices", .wanted = wants_devices, .run = devices_run},
    {.name = "confinement", .wanted = wants_confinement, .run = confinement_run},
    {.name = "calibrate", .wanted = wants_calibrate, .needs_grading = 1, .solutions = 1, .run = calibrate_run},
    {.name = "slurm", .wanted = wants_slurm, .needs_grading = 1, .run = slurm_write},
    {.name = "task", .wanted = wants_task, .needs_grading = 1, .run = slurm_task},
    {.name = "merge", .wanted = wants_merge, .needs_grading = 1, .run = slurm_merge},
    {.name = "batch", .wanted = batch_wanted, .needs_grading = 1, .run = batch_run},
    {.name = "bench", .wanted = wants_bench, .needs_grading = 1, .run = grade_run},
    {.name = "grade", .wanted = wants_grade, .needs_grading = 1, .run = grade_run},
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
