/* The commands that describe this machine: --list-devices and --confinement. */
#ifndef CLKIT_GRADER_COMMANDS_DEVICES_H
#define CLKIT_GRADER_COMMANDS_DEVICES_H

#include "cli/cli.h"
#include "judge/job.h"

/* Lists the OpenCL devices; returns 0, or 2 when there is none. */
int devices_run(struct grading *g, const struct cli *cli);

/* Prints the report's confinement line, then each layer of the table and whether it holds here; returns 0. */
int confinement_run(struct grading *g, const struct cli *cli);

#endif
