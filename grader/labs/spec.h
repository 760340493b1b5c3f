/* The labs as data: what a lab spec holds (kernel contract, cases, points, baseline, technique), and what the
   judge derives from one. Each lab's spec is its own file, grader/labs/labN.c; labs/registry.h lists them. */
#ifndef CLKIT_GRADER_LABS_H
#define CLKIT_GRADER_LABS_H

#include "clerr.h"
#include "labs/layout.h"
#include "problem.h"

#include <stddef.h>
#include <stdint.h>

struct grade_technique;

#define GRADE_COUNT(array) (sizeof(array) / sizeof((array)[0]))

enum grade_data { GRADE_EXACT, GRADE_REAL };

/* One correctness case: a problem shape and how it is launched. */
struct grade_case {
    enum grade_data data;
    size_t dims[3];  /* n | M, N, K | rows, cols */
    size_t local[2]; /* the work-group shape (1-D labs use local[0]) */
    size_t groups;   /* 1-D labs: work-groups in the grid; 0 for enough to cover n */
    int tile;        /* built with -DTILE=tile; 0 when the lab has no tile */
    int wpt;         /* built with -DWPT=wpt: each work-item computes wpt x wpt outputs; 0 when the lab has none */
    int no_reference; /* a timing case: inputs only, no CPU reference */
    int inputs_later; /* inputs are made where they are staged (labs_fill_input), not in host[] (the runner) */
    int exact_only;   /* a shape too large to run twice: exact data only */
};

/* One build of a tiled kernel: -DTILE=tile, and -DWPT=wpt where wpt > 0; its work-group is (tile / wpt)
   work-items a side (tile a side without wpt). */
struct grade_tiling {
    int tile;
    int wpt;
};

/* A list of case shapes, which several labs may share (labs/shapes.h). */
struct grade_shape_set {
    const struct grade_case *shapes;
    size_t count;
};

#define GRADE_MAX_BUFFERS 6
/* A lab of several kernels (lab 11's scan): the most kernels, launches and buffer arguments of one launch. */
#define GRADE_MAX_KERNELS 4
#define GRADE_MAX_STEPS 40
#define GRADE_MAX_ARGS 4

/* What a buffer is to the launch: read by the kernels, the compared result (the last buffer), or an intermediate
   that the kernels write and a later kernel reads (block sums), or that a snapshot step copies into. */
enum grade_role { GRADE_INPUT, GRADE_OUTPUT, GRADE_SCRATCH };

/* One command of a lab of several kernels: a launch of kernel index `kernel` (the lab's kernel_names, in
   order; the baseline's one kernel is 0) over buffers[] then a __local array, then ints, on a 1-D NDRange; or,
   with kernel GRADE_STEP_SNAPSHOT, a copy of buffer copy_from into buffer copy_to that the grader makes between
   launches, to see an intermediate before a later kernel changes it (timed runs leave snapshots out). */
#define GRADE_STEP_SNAPSHOT (-1)
struct grade_step {
    int kernel;
    int buffers[GRADE_MAX_ARGS];
    int buffer_count;
    size_t local_bytes;
    int ints[3];
    int int_count;
    size_t global, local;
    int copy_from, copy_to;
};

/* The largest work-group a device's cases use: every GPU and CPU device launches 256, so every device runs the
   same cases; larger tiles run under the reference judge, which launches 1024. */
#define GRADE_PORTABLE_LOCAL 256
#define GRADE_REFERENCE_LOCAL 1024

/* Everything one launch needs: host data, argument order, NDRange, reference and result layout. */
struct grade_launch {
    const char *names[GRADE_MAX_BUFFERS];
    float *host[GRADE_MAX_BUFFERS];
    size_t counts[GRADE_MAX_BUFFERS];
    int is_output[GRADE_MAX_BUFFERS]; /* enum grade_role: 0 for an input */
    enum compare_type types[GRADE_MAX_BUFFERS]; /* what each buffer's 4-byte words hold: float, int or uint */
    int buffer_count;
    size_t local_bytes; /* > 0: a __local argument follows the buffers */
    int ints[3];
    int int_count;
    cl_uint work_dims;
    size_t global[2];
    size_t local[2];
    double *expected;
    double *bound;
    struct compare_shape shape;
    uint64_t input_seed; /* what the inputs were made from, to make them again */
    int input_exact;
    uint64_t input_digest[GRADE_MAX_BUFFERS]; /* each input's digest once dropped (labs_drop_inputs) */
    uint64_t digest_key;
    /* Makes input i's values (NULL: the kit's integers or reals), set before its buffer is added (lab 10's data). */
    void (*fill)(const struct grade_launch *launch, int i, float *values);
    int output_accumulates; /* the kernel adds into its output: a timed launch starts from the poison each time */
    /* A lab of several kernels: its commands in order (0: the one kernel, launched as above), and for a scratch
       buffer the kernel that fills it with its reference in checks[i] (NULL: not checked), so that a wrong result
       is traced to the first kernel whose own output is wrong. */
    struct grade_step steps[GRADE_MAX_STEPS];
    int step_count;
    const char *writer[GRADE_MAX_BUFFERS];
    double *checks[GRADE_MAX_BUFFERS];
};

/* What differs between kinds of kernel; several labs share one family. */
struct grade_family {
    /* Fills launch for case c with inputs from seed; returns 0, or -1 when memory runs out. */
    int (*prepare)(const struct grade_case *c, uint64_t seed, struct grade_launch *launch);
    /* Turns the output buffer into the compared result (NULL: the output is the result). */
    void (*finish)(const struct grade_launch *launch, const float *output, float *result);
    /* Describes case c in a few words, e.g. "n=65, local 64". */
    void (*describe)(const struct grade_case *c, char *text, size_t size);
    /* The problem a host program makes from --size and --seed (common/problem.h): what it must write, and with the
       kit's probe kernel (probe_file in kernels/, its kernel named PROBE_KERNEL) instead of the lab's, what the
       probe computes, proof that it runs the kernel it is given. */
    enum clk_problem_kind problem;
    const char *probe_file;
    int dim_count; /* numbers in --size */
    /* The bytes moved (or, for work_is_flops, the floating-point operations) of case c. */
    double (*work)(const struct grade_case *c);
    int work_is_flops;
    /* What the result's 4-byte words hold, where a host program writes it with --out (COMPARE_FLOAT: floats). */
    enum compare_type result_type;
    /* The length of case c's compared result (after finish). */
    size_t (*result_length)(const struct grade_case *c);
    /* Element index of case c's result with real data from seed, worked out alone from single inputs, with its
       bound: the check of a timed run, whose whole reference would cost seconds and a gigabyte. */
    void (*spot)(const struct grade_case *c, uint64_t seed, size_t index, double *expected, double *bound);
    /* The multiply-adds of case c padded to whole work-groups, where its dims are not a matrix product's (the
       reference judge's time estimate, about 13 us each); NULL: from the dims as a product's or a grid's. */
    double (*simulated_steps)(const struct grade_case *c);
};

enum grade_size_class {
    GRADE_SIZE_VECTOR,
    GRADE_SIZE_MATMUL,
    GRADE_SIZE_TRANSPOSE,
    GRADE_SIZE_IMAGE /* the transpose's size, square, with R = the perf's radius (lab 9) */
};

/* A kernel of kernels/ timed beside a lab's solution in --bench, to show what lies past the lab (not graded). */
struct grade_further {
    const char *file;
    const char *kernel;
    const struct grade_family *family; /* sets its own work-group */
};

/* A lab's performance test: the baseline it is timed against, if any, and the timing case. */
struct grade_perf {
    const char *baseline_file;   /* in kernels/; NULL: the lab reports its bandwidth only */
    const char *baseline_kernel;
    const struct grade_family *baseline_family;
    const char *baseline_name;   /* for the report: "naive matmul" */
    struct grade_tiling tiling;  /* the build the lab is timed with; {0}: the profile's size.tile */
    enum grade_size_class size;  /* which of the profile's sizes */
    size_t local;                /* 1-D labs: work-group size */
    size_t groups;               /* 1-D labs: work-groups in the grid, 0 to cover n */
    size_t radius;               /* GRADE_SIZE_IMAGE: the filter radius R of the timed case */
    const char *cpu_note;        /* calibration on a CPU: why the speed test only reports there; NULL to judge it
                                    by the measured speedups as on any device */
    const char *handout;         /* the HANDOUT.md section that explains the optimisation */
    struct grade_further further; /* file NULL: none */
};

/* One way of writing a lab's kernel that the grader grades on its own terms: a kernel whose source uses the
   identifier `uses` (more than giving it a default with #ifndef/#define) is built with these tilings, and timed and
   counted with `measured`; the last contract, whose `uses` is NULL, takes every other kernel. A lab's contracts
   differ only in its builds, never in its tests or points. */
struct grade_contract {
    const char *name;                   /* for the report: what the grader took the kernel for */
    const char *uses;                   /* NULL: any kernel (the last contract) */
    const struct grade_tiling *tilings; /* ended by {0} */
    struct grade_tiling measured;       /* the build the speed test times and the technique case counts */
};

struct grade_points {
    double build, exact, real, memory, host, technique; /* technique: 0 when the lab has no technique test */
};

/* The tests every lab reports, in report order. */
enum grade_test_kind {
    GRADE_TEST_BUILD,
    GRADE_TEST_EXACT,
    GRADE_TEST_REAL,
    GRADE_TEST_MEMORY,
    GRADE_TEST_TECHNIQUE,
    GRADE_TEST_HOST,
    GRADE_TEST_SPEED,
    GRADE_TEST_KINDS
};

struct grade_lab_spec {
    const char *name;        /* "lab4" */
    const char *title;       /* "local-memory reduction" */
    const char *kernel_file; /* "reduce.cl" */
    const char *kernel_name; /* "dot_local"; a lab of several kernels: the first */
    const char *kernel_names[GRADE_MAX_KERNELS]; /* a lab of several kernels: each, in launch order; {0} for one */
    const struct grade_family *family;
    const struct grade_shape_set *shapes; /* data kind and tile are filled in by labs_expand_cases */
    const struct grade_tiling *tilings; /* the builds to run every shape under, ended by {0}; NULL for none */
    int sweep_local_sizes;   /* run every power-of-two local size from 1 to 256 */
    const char *host_size;   /* --size for the host-program test */
    const char *host_small;  /* a second, small --size, not a multiple of the host's work-group size */
    int host_grid_covers;    /* the host launches one work-item per output (WPT x WPT with -DWPT=): no work-group
                                may lie wholly past the result; 0 where a grid-stride loop lets any grid do */
    struct grade_points points;
    struct grade_perf perf;
    const struct grade_technique *technique; /* labs/technique.h; NULL when the lab has no technique test */
    /* Kernels of several contracts (lab 9: WPT x WPT outputs a work-item, or one): the first whose word the source
       uses applies, ended by {0}; NULL: one contract, the fields above. The first is the fields above. */
    const struct grade_contract *contracts;
    const struct grade_contract *contract; /* in a spec made by labs_under_contract: the contract it grades */
};


/* Expands a lab's shapes into its cases (exact then real, every tiling whose work-group fits in max_local, every
   local size up to max_local). */
size_t labs_expand_cases(const struct grade_lab_spec *lab, size_t max_local, struct grade_case *cases, size_t max);

/* The work-items a side of a tiling's work-group: tile / wpt, or tile without wpt. */
size_t labs_tiling_side(int tile, int wpt);

/* Returns lab's tiling with that tile, or NULL when the lab has none. */
const struct grade_tiling *labs_find_tiling(const struct grade_lab_spec *lab, int tile);

/* Adds a buffer of count floats to launch; an input is filled from (seed, its index) with c's kind of data. */
int labs_add_buffer(struct grade_launch *launch, const char *name, size_t count, int is_output,
                    const struct grade_case *c, uint64_t seed);

/* Adds a buffer of count 4-byte words of type (float, int or uint) to launch; an input is filled from (seed, its
   index), integers for an integer type; an output sets the result's type. */
int labs_add_typed_buffer(struct grade_launch *launch, const char *name, size_t count, int is_output,
                          enum compare_type type, const struct grade_case *c, uint64_t seed);

/* Frees launch's inputs once its reference is made, keeping a digest of each under key (drawn at random, so that
   no kernel can aim at it): the judge neither holds a large case's inputs while the kernel runs nor makes them
   again to check them. */
void labs_drop_inputs(struct grade_launch *launch, uint64_t key);

/* 1 when now holds input i of launch as it was made, 0 when it does not, -1 when memory ran out to check it:
   compared with its host copy, after labs_drop_inputs with its digest (two different inputs of n words agree with
   odds under 2^-64 + (n / 64 + 2) / 2^61), else with a copy made again. */
int labs_input_unchanged(const struct grade_launch *launch, int i, const float *now);

/* Makes input i's values in values (launch->counts[i] of them), as its buffer was added with them. */
void labs_fill_input(const struct grade_launch *launch, int i, float *values);

/* Returns the name of lab's test of that kind ("speed" or "bandwidth" for GRADE_TEST_SPEED), or NULL when the lab
   has no such test. */
const char *labs_test_name(const struct grade_lab_spec *lab, enum grade_test_kind kind);

/* Returns the points of lab's test of that kind: the same on every device, flag and install (speed: 0). */
double labs_test_points(const struct grade_lab_spec *lab, enum grade_test_kind kind);

/* Returns 1 when name is the name of one of lab's tests. */
int labs_has_test(const struct grade_lab_spec *lab, const char *name);

/* The number of kernels lab's file must define (1 for a lab of one kernel). */
int labs_kernel_count(const struct grade_lab_spec *lab);

/* The name of lab's kernel k (k below labs_kernel_count). */
const char *labs_kernel_name(const struct grade_lab_spec *lab, int k);

/* Appends a launch of kernel over the buffers at indices in list (ended by -1) to launch's steps, with its __local
   bytes, ints (count of them) and 1-D NDRange; returns the step, or NULL past GRADE_MAX_STEPS. */
struct grade_step *labs_add_step(struct grade_launch *launch, int kernel, const int *list, size_t local_bytes,
                                 const int *ints, int int_count, size_t global, size_t local);

/* Appends a snapshot of buffer from into buffer to (a scratch buffer of the same count) to launch's steps. */
void labs_add_snapshot(struct grade_launch *launch, int from, int to);

/* Frees what a family's prepare allocated. */
void labs_launch_free(struct grade_launch *launch);

#endif
