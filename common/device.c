#include "device.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static int contains_ignoring_case(const char *haystack, const char *needle)
{
    size_t n = strlen(needle);
    for (const char *h = haystack; *h; h++) {
        size_t i = 0;
        while (i < n && h[i] && tolower((unsigned char)h[i]) == tolower((unsigned char)needle[i]))
            i++;
        if (i == n)
            return 1;
    }
    return n == 0;
}

static int parse_index(const char *spec, int *index)
{
    char *end = NULL;
    long value = strtol(spec, &end, 10);
    if (end == spec || *end != '\0' || value < 0 || value > 1000)
        return 0;
    *index = (int)value;
    return 1;
}

static int first_of_type(const struct clk_device_info *infos, int count, int want_gpu)
{
    for (int i = 0; i < count; i++)
        if (want_gpu ? infos[i].is_gpu : infos[i].is_cpu)
            return i;
    return -1;
}

int clk_match_device(const struct clk_device_info *infos, int count, const char *spec)
{
    int index;
    if (spec == NULL || spec[0] == '\0') {
        int gpu = first_of_type(infos, count, 1);
        return gpu >= 0 ? gpu : first_of_type(infos, count, 0);
    }
    if (parse_index(spec, &index))
        return index < count ? index : -1;
    if (strcasecmp(spec, "gpu") == 0)
        return first_of_type(infos, count, 1);
    if (strcasecmp(spec, "cpu") == 0)
        return first_of_type(infos, count, 0);
    for (int i = 0; i < count; i++)
        if (contains_ignoring_case(infos[i].device_name, spec) ||
            contains_ignoring_case(infos[i].platform_name, spec))
            return i;
    return -1;
}

static int add_platform_devices(cl_platform_id platform, struct clk_device_info *infos, int used, int max)
{
    cl_device_id devices[CLK_MAX_DEVICES];
    cl_uint count = 0;
    char platform_name[CLK_NAME_LEN] = "";
    if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, CLK_MAX_DEVICES, devices, &count) != CL_SUCCESS)
        return used; /* a platform with no devices is not an error */
    clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof platform_name, platform_name, NULL);
    for (cl_uint d = 0; d < count && used < max; d++, used++) {
        struct clk_device_info *info = &infos[used];
        cl_device_type type = 0;
        memset(info, 0, sizeof *info);
        snprintf(info->platform_name, sizeof info->platform_name, "%s", platform_name);
        clGetDeviceInfo(devices[d], CL_DEVICE_NAME, sizeof info->device_name, info->device_name, NULL);
        clGetDeviceInfo(devices[d], CL_DEVICE_TYPE, sizeof type, &type, NULL);
        info->is_gpu = (type & CL_DEVICE_TYPE_GPU) != 0;
        info->is_cpu = (type & CL_DEVICE_TYPE_CPU) != 0;
        info->platform = platform;
        info->device = devices[d];
    }
    return used;
}

int clk_enumerate_devices(struct clk_device_info *infos, int max)
{
    cl_platform_id platforms[16];
    cl_uint platform_count = 0;
    cl_int status = clGetPlatformIDs(16, platforms, &platform_count);
    int used = 0;
    if (status == -1001 /* CL_PLATFORM_NOT_FOUND_KHR */)
        return 0;
    if (status != CL_SUCCESS) {
        clk_report_cl_error(status, "clGetPlatformIDs", __FILE__, __LINE__);
        return -1;
    }
    for (cl_uint p = 0; p < platform_count; p++)
        used = add_platform_devices(platforms[p], infos, used, max);
    return used;
}

void clk_list_devices(FILE *out, const struct clk_device_info *infos, int count)
{
    for (int i = 0; i < count; i++)
        fprintf(out, "%d: %s [%s] (%s)\n", i, infos[i].device_name,
                infos[i].is_gpu ? "gpu" : infos[i].is_cpu ? "cpu" : "other", infos[i].platform_name);
    if (count == 0)
        fprintf(out, "no OpenCL devices found\n");
}

int clk_select_device(const char *spec, struct clk_device_info *chosen)
{
    struct clk_device_info infos[CLK_MAX_DEVICES];
    int count = clk_enumerate_devices(infos, CLK_MAX_DEVICES);
    int index;
    if (count < 0)
        return -1;
    if (count == 0) {
        fprintf(stderr, "error: no OpenCL device found: install PoCL for a CPU device "
                        "(sudo apt-get install pocl-opencl-icd, or run 'make setup')\n");
        return -1;
    }
    if (spec == NULL || spec[0] == '\0')
        spec = getenv("CLKIT_DEVICE");
    index = clk_match_device(infos, count, spec);
    if (index < 0) {
        fprintf(stderr, "error: no OpenCL device matches --device '%s'; the devices are:\n",
                spec ? spec : "");
        clk_list_devices(stderr, infos, count);
        return -1;
    }
    *chosen = infos[index];
    return 0;
}
