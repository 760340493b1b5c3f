/* The commands that describe this machine: its OpenCL devices, and the layers that confine submitted code here. */
#include "commands/devices.h"

#include "device.h"
#include "sandbox/layers.h"

#include <stdio.h>

static int list_devices(void)
{
    struct clk_device_info infos[CLK_MAX_DEVICES];
    int count = clk_enumerate_devices(infos, CLK_MAX_DEVICES);
    clk_list_devices(stdout, infos, count > 0 ? count : 0);
    return count > 0 ? 0 : 2;
}

int devices_run(struct grading *g, const struct cli *cli)
{
    (void)g, (void)cli;
    return list_devices();
}

/* --confinement: the report's line, then each layer of the table and whether it holds on this machine. */
int confinement_run(struct grading *g, const struct cli *cli)
{
    (void)g, (void)cli;
    sandbox_layers_print(stdout);
    return 0;
}
