/* The seven labs: their contracts, cases and points, in one table. */
#include "judge/labs.h"

#include "data.h"
#include "judge/families.h"

#include <stdlib.h>
#include <string.h>

#define COUNT(array) (sizeof(array) / sizeof((array)[0]))

/* Sizes of 1, small primes, exactly one work-group, one past it, a large prime and a large power of two. */
static const struct grade_case vadd_shapes[] = {
    {.dims = {1}, .local = {64}},      {.dims = {2}, .local = {64}},     {.dims = {13}, .local = {64}},
    {.dims = {64}, .local = {64}},     {.dims = {65}, .local = {64}},    {.dims = {1000}, .local = {32}},
    {.dims = {100003}, .local = {64}}, {.dims = {1 << 20}, .local = {256}},
    {.dims = {(1 << 24) + 3}, .local = {256}, .exact_only = 1}, /* past 2^24: an index through a float fails */
};

/* Grids far smaller than n, and one larger than n. */
static const struct grade_case stride_shapes[] = {
    {.dims = {1}, .local = {64}, .groups = 1},         {.dims = {13}, .local = {64}, .groups = 1},
    {.dims = {64}, .local = {64}, .groups = 1},        {.dims = {65}, .local = {64}, .groups = 1},
    {.dims = {1000}, .local = {32}, .groups = 3},      {.dims = {100003}, .local = {64}, .groups = 7},
    {.dims = {1 << 20}, .local = {256}, .groups = 16}, {.dims = {100}, .local = {64}, .groups = 4},
    {.dims = {(1 << 24) + 3}, .local = {256}, .groups = 64, .exact_only = 1}, /* past 2^24 */
};

static const struct grade_case dot_local_shapes[] = {
    {.dims = {1}},    {.dims = {13}},     {.dims = {256}}, {.dims = {257}},
    {.dims = {4099}}, {.dims = {100003}}, {.dims = {1 << 20}},
};

/* Square and not, multiples of the tile and not, and degenerate 1-wide shapes. */
static const struct grade_case matmul_shapes[] = {
    {.dims = {1, 1, 1}, .local = {16}},     {.dims = {16, 16, 16}, .local = {16}},
    {.dims = {17, 17, 17}, .local = {16}},  {.dims = {17, 13, 7}, .local = {16}},
    {.dims = {7, 33, 5}, .local = {16}},    {.dims = {1, 100, 37}, .local = {16}},
    {.dims = {130, 70, 1}, .local = {16}},  {.dims = {127, 129, 131}, .local = {16}},
    {.dims = {256, 192, 160}, .local = {16}},
};

static const struct grade_case transpose_shapes[] = {
    {.dims = {1, 1}, .local = {16}},     {.dims = {16, 16}, .local = {16}},  {.dims = {17, 17}, .local = {16}},
    {.dims = {17, 13}, .local = {16}},   {.dims = {1, 100}, .local = {16}},  {.dims = {100, 1}, .local = {16}},
    {.dims = {127, 129}, .local = {16}}, {.dims = {1000, 3}, .local = {16}}, {.dims = {1024, 768}, .local = {16}},
};

static const int tiles[] = {8, 16, 32, 0};

/* Points per test, quoted by HANDOUT.md, the same on every device, with every flag and install. The build is a
   gate worth no points, so that an empty kernel that compiles scores 0; speed is reported, never scored, because
   no threshold means the same on every device: the technique test, counted by the reference judge, carries those
   points. */
static const struct grade_lab_spec lab_table[] = {
    {"lab1", "vector add", "vadd.cl", "vadd", &grade_family_vadd, vadd_shapes, COUNT(vadd_shapes), NULL, 0,
     "100003", "1000", {.exact = 3, .real = 2, .memory = 2, .host = 3},
     {NULL, NULL, NULL, NULL, GRADE_SIZE_VECTOR, 256, 0, "HANDOUT.md#lab-1-vector-add-and-the-twelve-host-steps"},
     {TECHNIQUE_NONE, {.dims = {0}}}},
    {"lab2", "grid-stride add", "vadd_stride.cl", "vadd_stride", &grade_family_vadd, stride_shapes,
     COUNT(stride_shapes), NULL, 0, "1000003", "1000", {.exact = 4, .real = 2, .memory = 2, .host = 2, .technique = 2},
     {NULL, NULL, NULL, NULL, GRADE_SIZE_VECTOR, 256, 1024, "HANDOUT.md#lab-2-grid-stride-loops"},
     {TECHNIQUE_ONE_STORE, {.dims = {4096}, .local = {64}, .groups = 4}}},
    {"lab3", "naive dot product", "dot.cl", "dot_naive", &grade_family_dot_partials, stride_shapes,
     COUNT(stride_shapes), NULL, 0, "100003", "1000", {.exact = 4, .real = 2, .memory = 2, .host = 2},
     {NULL, NULL, NULL, NULL, GRADE_SIZE_VECTOR, 256, 1024, "HANDOUT.md#lab-3-a-naive-dot-product"},
     {TECHNIQUE_NONE, {.dims = {0}}}},
    {"lab4", "local-memory reduction", "reduce.cl", "dot_local", &grade_family_dot_groups, dot_local_shapes,
     COUNT(dot_local_shapes), NULL, 1, "1000003", "1000", {.exact = 4, .real = 2, .memory = 2, .host = 2, .technique = 4},
     {"dot_naive.cl", "dot_naive", &grade_family_dot_partials, "naive dot", GRADE_SIZE_VECTOR, 256, 1024,
      "HANDOUT.md#lab-4-local-memory-and-a-tree-reduction"},
     {TECHNIQUE_GROUP_PARTIALS, {.dims = {4096}, .local = {64}, .groups = 16}}},
    {"lab5", "naive matmul", "matmul.cl", "matmul_naive", &grade_family_matmul, matmul_shapes,
     COUNT(matmul_shapes), NULL, 0, "129x65x33", "37x23x19", {.exact = 4, .real = 2, .memory = 2, .host = 2, .technique = 4},
     {"matmul_naive.cl", "matmul_swapped", &grade_family_matmul_swapped, "the swapped mapping", GRADE_SIZE_MATMUL,
      16, 0, "HANDOUT.md#lab-5-naive-matrix-multiply-and-coalescing"},
     {TECHNIQUE_COALESCING, {.dims = {64, 64, 16}, .local = {16}}}},
    {"lab6", "tiled matmul", "matmul_tiled.cl", "matmul_tiled", &grade_family_matmul, matmul_shapes,
     COUNT(matmul_shapes), tiles, 0, "129x65x33", "37x23x19", {.exact = 4, .real = 2, .memory = 2, .host = 2, .technique = 4},
     {"matmul_naive.cl", "matmul_naive", &grade_family_matmul, "naive matmul", GRADE_SIZE_MATMUL, 16, 0,
      "HANDOUT.md#lab-6-tiled-matrix-multiply"},
     {TECHNIQUE_TILE_REUSE, {.dims = {32, 32, 32}, .local = {16}, .tile = 16}}},
    {"lab7", "transpose", "transpose.cl", "transpose", &grade_family_transpose, transpose_shapes,
     COUNT(transpose_shapes), tiles, 0, "517x259", "37x23", {.exact = 4, .real = 2, .memory = 2, .host = 2, .technique = 4},
     {"transpose_naive.cl", "transpose_naive", &grade_family_transpose, "naive transpose", GRADE_SIZE_TRANSPOSE,
      16, 0, "HANDOUT.md#lab-7-transpose-through-a-padded-tile"},
     {TECHNIQUE_LOCAL_STAGING, {.dims = {64, 48}, .local = {16}, .tile = 16}}},
};

const struct grade_lab_spec *grade_find_lab(const char *name)
{
    for (size_t i = 0; i < COUNT(lab_table); i++)
        if (strcmp(lab_table[i].name, name) == 0)
            return &lab_table[i];
    return NULL;
}

size_t grade_all_labs(const struct grade_lab_spec **all)
{
    *all = lab_table;
    return COUNT(lab_table);
}

static size_t add_case(struct grade_case *cases, size_t count, size_t max, const struct grade_case *shape,
                       enum grade_data data, int tile, size_t local)
{
    if (count >= max)
        return count;
    cases[count] = *shape;
    cases[count].data = data;
    cases[count].tile = tile;
    if (local)
        cases[count].local[0] = cases[count].local[1] = local;
    return count + 1;
}

/* One shape under every tile, or every power-of-two local size, or as it is. */
static size_t expand_shape(const struct grade_lab_spec *lab, const struct grade_case *shape, enum grade_data data,
                           size_t max_local, struct grade_case *cases, size_t count, size_t max)
{
    if (lab->tiles) {
        /* A tile whose work-group the device cannot launch is left out, not failed. */
        for (const int *tile = lab->tiles; *tile; tile++)
            if ((size_t)(*tile * *tile) <= max_local)
                count = add_case(cases, count, max, shape, data, *tile, (size_t)*tile);
    } else if (lab->sweep_local_sizes) {
        for (size_t local = 1; local <= 256 && local <= max_local; local *= 2)
            count = add_case(cases, count, max, shape, data, 0, local);
    } else {
        count = add_case(cases, count, max, shape, data, 0, 0);
    }
    return count;
}

size_t grade_expand_cases(const struct grade_lab_spec *lab, size_t max_local, struct grade_case *cases, size_t max)
{
    size_t count = 0;
    for (int data = GRADE_EXACT; data <= GRADE_REAL; data++)
        for (size_t s = 0; s < lab->shape_count; s++)
            if (data == GRADE_EXACT || !lab->shapes[s].exact_only)
                count = expand_shape(lab, &lab->shapes[s], (enum grade_data)data, max_local, cases, count, max);
    return count;
}

int grade_launch_add_buffer(struct grade_launch *launch, const char *name, size_t count, int is_output,
                            const struct grade_case *c, uint64_t seed)
{
    int i = launch->buffer_count++;
    launch->names[i] = name;
    launch->counts[i] = count;
    launch->is_output[i] = is_output;
    launch->host[i] = malloc((count ? count : 1) * sizeof(float));
    launch->input_seed = seed;
    launch->input_exact = c->data == GRADE_EXACT;
    if (!launch->host[i])
        return -1;
    if (!is_output && c->data == GRADE_EXACT)
        clk_fill_exact(launch->host[i], count, seed, (unsigned)i);
    else if (!is_output)
        clk_fill_real(launch->host[i], count, seed, (unsigned)i);
    return 0;
}

void grade_launch_drop_inputs(struct grade_launch *launch)
{
    for (int i = 0; i < launch->buffer_count; i++) {
        free(launch->host[i]);
        launch->host[i] = NULL;
    }
}

const float *grade_launch_input(const struct grade_launch *launch, int i, float **made)
{
    *made = NULL;
    if (launch->host[i])
        return launch->host[i];
    if (!(*made = malloc((launch->counts[i] ? launch->counts[i] : 1) * sizeof(float))))
        return NULL;
    if (launch->input_exact)
        clk_fill_exact(*made, launch->counts[i], launch->input_seed, (unsigned)i);
    else
        clk_fill_real(*made, launch->counts[i], launch->input_seed, (unsigned)i);
    return *made;
}

void grade_launch_free(struct grade_launch *launch)
{
    for (int i = 0; i < launch->buffer_count; i++)
        free(launch->host[i]);
    free(launch->expected);
    free(launch->bound);
    memset(launch, 0, sizeof *launch);
}

void grade_perf_case(const struct grade_lab_spec *lab, const struct profile *profile, struct grade_case *c)
{
    memset(c, 0, sizeof *c);
    c->data = GRADE_REAL;
    c->no_reference = 1;
    c->local[0] = c->local[1] = lab->perf.local;
    c->groups = lab->perf.groups;
    switch (lab->perf.size) {
    case GRADE_SIZE_VECTOR:
        c->dims[0] = profile->vector_n;
        break;
    case GRADE_SIZE_MATMUL:
        c->dims[0] = c->dims[1] = c->dims[2] = profile->matmul_n;
        break;
    case GRADE_SIZE_TRANSPOSE:
        c->dims[0] = c->dims[1] = profile->transpose_n;
        break;
    }
    if (lab->tiles)
        c->tile = profile->tile;
}

const char *grade_test_name(const struct grade_lab_spec *lab, enum grade_test_kind kind)
{
    static const char *const names[GRADE_TEST_KINDS] = {
        [GRADE_TEST_BUILD] = "build",          [GRADE_TEST_EXACT] = "exact cases",
        [GRADE_TEST_REAL] = "real cases",      [GRADE_TEST_MEMORY] = "memory safety",
        [GRADE_TEST_TECHNIQUE] = "technique",  [GRADE_TEST_HOST] = "host program",
    };
    if (kind == GRADE_TEST_SPEED)
        return lab->perf.baseline_file ? "speed" : "bandwidth";
    if (kind == GRADE_TEST_TECHNIQUE && lab->technique.kind == TECHNIQUE_NONE)
        return NULL;
    return kind >= 0 && kind < GRADE_TEST_KINDS ? names[kind] : NULL;
}

double grade_test_points(const struct grade_lab_spec *lab, enum grade_test_kind kind)
{
    const struct grade_points *p = &lab->points;
    const double points[GRADE_TEST_KINDS] = {
        [GRADE_TEST_BUILD] = p->build, [GRADE_TEST_EXACT] = p->exact,         [GRADE_TEST_REAL] = p->real,
        [GRADE_TEST_MEMORY] = p->memory, [GRADE_TEST_TECHNIQUE] = p->technique, [GRADE_TEST_HOST] = p->host,
        [GRADE_TEST_SPEED] = 0.0,
    };
    return kind >= 0 && kind < GRADE_TEST_KINDS && grade_test_name(lab, kind) ? points[kind] : 0.0;
}

int grade_lab_has_test(const struct grade_lab_spec *lab, const char *name)
{
    for (int kind = 0; kind < GRADE_TEST_KINDS; kind++)
        if (grade_test_name(lab, (enum grade_test_kind)kind) &&
            strcmp(grade_test_name(lab, (enum grade_test_kind)kind), name) == 0)
            return 1;
    return 0;
}

int grade_lab_number(const struct grade_lab_spec *lab)
{
    return (int)(lab - lab_table) + 1;
}
