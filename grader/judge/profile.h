/* Device profiles: the performance thresholds and problem sizes for one device, from grader/profiles. */
#ifndef CLKIT_GRADER_PROFILE_H
#define CLKIT_GRADER_PROFILE_H

#include "labs/registry.h"

#include <stddef.h>

/* How one lab's performance test is judged on this device. */
struct perf_rule {
    double min_speedup;       /* over the lab's baseline; 0 when the lab has none */
    double min_peak_fraction; /* of the measured copy bandwidth or FMA peak; 0 for none */
    double points;            /* what the lab's speed is worth in a course graded on this device (scored) */
    int informational;        /* reported, worth no points in a course graded on this device */
    int tile;                 /* the tiling (by its TILE) the lab is timed with here; 0: the lab's own choice */
    double solution_low;      /* calibration's record: the solution's lowest speedup (0: not recorded) */
    double slow_high;         /* calibration's record: the highest of the known-slow submissions' (0: not recorded) */
    char note[200];           /* why it is informational, e.g. "on CPUs, coalescing makes little difference" */
};

struct profile {
    char name[160];   /* what the report quotes: "NVIDIA H200" or "cpu (fallback)" */
    char device[160]; /* the exact device name it was calibrated on, "" for a fallback */
    char type[8];     /* "cpu", "gpu" or "" */
    size_t vector_n;  /* perf sizes */
    size_t matmul_n;
    size_t transpose_n;
    int tile;         /* the TILE the tiled labs are timed with */
    struct perf_rule labs[REGISTRY_MAX_LABS]; /* indexed as the registry orders the labs */
};

/* A recorded threshold must separate the solution from the known-slow submissions by at least this factor. */
#define PROFILE_MIN_MARGIN 1.03

/* How far rule's threshold sits from calibration's records: the smaller of the solution's lowest speedup over it
   and it over the known-slow submissions' highest (the baseline's 1 where that is not recorded); 0 without a
   threshold or a recorded solution. */
double profile_margin(const struct perf_rule *rule);

/* Fills profile with the built-in defaults for a device of that type (sizes by the rule, no thresholds). */
void profile_defaults(int is_gpu, struct profile *profile);

/* Parses a profile's text over what profile holds; returns 0, or -1 with "line N: why" in error, or "labN: why"
   when a lab's keys would not do what they say (points on an informational lab, a scored lab with no points or
   no threshold) or its threshold does not separate calibration's records by PROFILE_MIN_MARGIN. */
int profile_parse(const char *text, struct profile *profile, char *error, size_t error_size);

/* Parses the file at path over a fresh copy of the defaults for is_gpu; returns 0, or -1 with the path in error. */
int profile_load_file(const char *path, int is_gpu, struct profile *profile, char *error, size_t error_size);

/* Returns a file name for a device's profile: lower-case letters, digits and '-', then ".conf". */
void profile_file_name(const char *device_name, char *name, size_t size);

/* Loads the profile for a device from dir: exact device name, then the type's file (cpu.conf, gpu.conf),
   then default.conf, then the built-in defaults; returns 0, or -1 with the file and line in error. */
int profile_load(const char *dir, const char *device_name, int is_gpu, struct profile *profile, char *error,
                 size_t error_size);

/* Fills c with lab's timing case at the sizes of profile, under the tiling its rule names, else the lab's own,
   else size.tile (real data, no reference). */
void profile_timing_case(const struct grade_lab_spec *lab, const struct profile *profile, struct grade_case *c);

#endif
