/* Device selection: enumerate OpenCL devices and pick one from a --device SPEC. */
#ifndef CLKIT_DEVICE_H
#define CLKIT_DEVICE_H

#include "clerr.h"

#include <stdio.h>

#define CLK_MAX_DEVICES 32
#define CLK_NAME_LEN 256

/* One device as seen by the selection logic; kept free of handles so it can be unit-tested. */
struct clk_device_info {
    char platform_name[CLK_NAME_LEN];
    char device_name[CLK_NAME_LEN];
    int is_gpu;
    int is_cpu;
    cl_platform_id platform;
    cl_device_id device;
};

/* Picks a device from infos[0..count) by SPEC (index, "cpu", "gpu" or a name substring; NULL or "" for the default); returns its index or -1. */
int clk_match_device(const struct clk_device_info *infos, int count, const char *spec);

/* Fills infos with every device of every platform; returns how many, or -1 on an OpenCL error. */
int clk_enumerate_devices(struct clk_device_info *infos, int max);

/* Prints the devices as "index: device name [type] (platform)", one a line. */
void clk_list_devices(FILE *out, const struct clk_device_info *infos, int count);

/* Chooses a device from SPEC, falling back to CLKIT_DEVICE and then the default; prints a clear error and returns -1 when none fits. */
int clk_select_device(const char *spec, struct clk_device_info *chosen);

#endif
