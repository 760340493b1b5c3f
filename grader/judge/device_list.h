/* The machine's OpenCL devices, as the judge sees them without loading a driver itself. */
#ifndef CLKIT_GRADER_DEVICE_LIST_H
#define CLKIT_GRADER_DEVICE_LIST_H

#include "device.h"

/* Fills infos with the machine's devices, enumerated in a child so that this process, which forks judges, never
   loads an OpenCL driver itself; returns how many (0 when none answered). */
int device_list(struct clk_device_info *infos, int max);

#endif
