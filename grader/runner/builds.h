/* A lab's kernels, built once per TILE: the builds, their kernels, and the largest work-group they allow. */
#ifndef CLKIT_GRADER_BUILDS_H
#define CLKIT_GRADER_BUILDS_H

#include "context.h"
#include "labs/spec.h"

#define MAX_TILES 4

struct built {
    int tiles[MAX_TILES];
    cl_program programs[MAX_TILES];
    cl_kernel kernels[MAX_TILES][GRADE_MAX_KERNELS]; /* each build's kernels, in the lab's order */
    int count;
};

/* The language every device and the reference judge compile submissions in, so that no macro tells them apart. */
#define BUILDS_STD "-cl-std=CL1.2"

/* Builds the kernel at path for every TILE of lab (once when it has none) in BUILDS_STD, without optimisation
   when unoptimised, with include_dir as the only place #include looks; on failure fills reason with the
   compiler's log or the kernels found, and returns -1. */
int builds_all(const struct clk_env *env, const struct grade_lab_spec *lab, const char *path, const char *include_dir,
               int unoptimised, struct built *b, char *reason, size_t size);

/* Builds the kernel at path once more as the labs' host programs do (with no options: PoCL's cache tells programs
   apart by their text and options, not by the file's name), for the implementation's cache only: the host
   program's run may then be given the program. */
void builds_as_host(const struct clk_env *env, const char *path);

/* Releases every program and kernel of b. */
void builds_release(struct built *b);

/* The largest work-group every build of the kernel can launch here (at most 1024, a 32 x 32 tile). */
size_t builds_max_local(const struct clk_env *env, const struct built *b);

/* The kernels (one, or the lab's several in order) built with -DTILE=tile, or the first build's. */
const cl_kernel *builds_kernels(const struct built *b, int tile);

#endif
