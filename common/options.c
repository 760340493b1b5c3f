#include "options.h"

#include "device.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int clk_parse_dims(const char *text, size_t *dims, int count)
{
    size_t parsed[3];
    int found = 0;
    const char *p = text;
    while (found < 3) {
        char *end = NULL;
        unsigned long long value;
        if (*p < '0' || *p > '9')
            return -1;
        errno = 0;
        value = strtoull(p, &end, 10);
        if (errno != 0 || value == 0 || value > (1ull << 34))
            return -1;
        parsed[found++] = (size_t)value;
        if (*end == '\0')
            break;
        if ((*end != 'x' && *end != 'X') || found == 3)
            return -1;
        p = end + 1;
    }
    if (found == 1) {
        for (int i = 0; i < count; i++)
            dims[i] = parsed[0];
        return 0;
    }
    if (found != count)
        return -1;
    memcpy(dims, parsed, (size_t)count * sizeof *dims);
    return 0;
}

static void print_usage(FILE *out, const struct clk_program_info *info)
{
    fprintf(out,
            "usage: %s [options]\n%s\n\n"
            "  --device SPEC    device index, cpu, gpu or part of its name (env CLKIT_DEVICE)\n"
            "  --list-devices   list the OpenCL devices and exit\n"
            "  --size %-9s problem size\n"
            "  --seed S         seed for the random inputs (default 1)\n"
            "  --kernel FILE    kernel source (default %s)\n"
            "  --out FILE       write the result as raw little-endian float32\n"
            "  -h, --help       show this help\n",
            info->name, info->summary, info->size_syntax, info->kernel_path);
}

static int list_devices(void)
{
    struct clk_device_info infos[CLK_MAX_DEVICES];
    int count = clk_enumerate_devices(infos, CLK_MAX_DEVICES);
    if (count < 0)
        return 2;
    clk_list_devices(stdout, infos, count);
    return 1;
}

static int bad_argument(const struct clk_program_info *info, const char *option, const char *value,
                        const char *expected)
{
    fprintf(stderr, "%s: invalid argument %s '%s': expected %s (see --help)\n", info->name, option,
            value ? value : "", expected);
    return 2;
}

int clk_parse_options(int argc, char **argv, const struct clk_program_info *info, struct clk_options *opts)
{
    opts->seed = 1;
    opts->kernel = info->kernel_path;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const char *value = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
            print_usage(stdout, info);
            return 1;
        }
        if (strcmp(arg, "--list-devices") == 0)
            return list_devices();
        if (strcmp(arg, "--device") && strcmp(arg, "--size") && strcmp(arg, "--seed") &&
            strcmp(arg, "--kernel") && strcmp(arg, "--out")) {
            fprintf(stderr, "%s: unknown option '%s' (see --help)\n", info->name, arg);
            return 2;
        }
        if (!value)
            return bad_argument(info, arg, NULL, "a value after it");
        i++;
        if (strcmp(arg, "--device") == 0)
            opts->device = value;
        else if (strcmp(arg, "--kernel") == 0)
            opts->kernel = value;
        else if (strcmp(arg, "--out") == 0)
            opts->out = value;
        else if (strcmp(arg, "--size") == 0 && clk_parse_dims(value, opts->dims, info->dim_count) != 0)
            return bad_argument(info, arg, value, info->size_syntax);
        else if (strcmp(arg, "--seed") == 0) {
            char *end = NULL;
            opts->seed = strtoull(value, &end, 10);
            if (*value < '0' || *value > '9' || *end != '\0')
                return bad_argument(info, arg, value, "a non-negative integer");
        }
    }
    return 0;
}
