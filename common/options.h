/* Command-line options shared by the lab host programs. */
#ifndef CLKIT_OPTIONS_H
#define CLKIT_OPTIONS_H

#include <stddef.h>
#include <stdint.h>

/* What a host program says about itself in --help and how many numbers its --size takes. */
struct clk_program_info {
    const char *name;        /* e.g. "lab3" */
    const char *summary;     /* one line: what the program computes */
    const char *size_syntax; /* e.g. "N" or "MxNxK" */
    int dim_count;           /* how many sizes --size gives */
    const char *kernel_path; /* the default --kernel */
};

struct clk_options {
    const char *device;
    size_t dims[3];
    uint64_t seed;
    const char *kernel;
    const char *out;
};

/* Parses "N" (every dimension N) or "AxB[xC]" with exactly count positive numbers into dims; returns 0 or -1. */
int clk_parse_dims(const char *text, size_t *dims, int count);

/* Parses argv into opts (dims keep their defaults unless --size is given); returns 0 to run, 1 after --help or --list-devices, 2 on a bad argument. */
int clk_parse_options(int argc, char **argv, const struct clk_program_info *info, struct clk_options *opts);

#endif
