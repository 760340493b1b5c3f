#include "labs/spec.h"

#include "data.h"

#include <stdlib.h>
#include <string.h>

size_t labs_tiling_side(int tile, int wpt)
{
    return (size_t)(wpt > 0 ? tile / wpt : tile);
}

const struct grade_tiling *labs_find_tiling(const struct grade_lab_spec *lab, int tile)
{
    for (const struct grade_tiling *t = lab->tilings; t && t->tile; t++)
        if (t->tile == tile)
            return t;
    return NULL;
}

static size_t add_case(struct grade_case *cases, size_t count, size_t max, const struct grade_case *shape,
                       enum grade_data data, const struct grade_tiling *tiling, size_t local)
{
    if (count >= max)
        return count;
    cases[count] = *shape;
    cases[count].data = data;
    cases[count].tile = tiling ? tiling->tile : 0;
    cases[count].wpt = tiling ? tiling->wpt : 0;
    if (local)
        cases[count].local[0] = cases[count].local[1] = local;
    return count + 1;
}

/* One shape under every tiling, or every power-of-two local size, or as it is. */
static size_t expand_shape(const struct grade_lab_spec *lab, const struct grade_case *shape, enum grade_data data,
                           size_t max_local, struct grade_case *cases, size_t count, size_t max)
{
    if (lab->tilings) {
        /* A tiling whose work-group the device cannot launch is left out, not failed. */
        for (const struct grade_tiling *t = lab->tilings; t->tile; t++) {
            size_t side = labs_tiling_side(t->tile, t->wpt);
            if (side * side <= max_local)
                count = add_case(cases, count, max, shape, data, t, side);
        }
    } else if (lab->sweep_local_sizes) {
        for (size_t local = 1; local <= 256 && local <= max_local; local *= 2)
            count = add_case(cases, count, max, shape, data, NULL, local);
    } else {
        count = add_case(cases, count, max, shape, data, NULL, 0);
    }
    return count;
}

size_t labs_expand_cases(const struct grade_lab_spec *lab, size_t max_local, struct grade_case *cases, size_t max)
{
    size_t count = 0;
    for (int data = GRADE_EXACT; data <= GRADE_REAL; data++)
        for (size_t s = 0; s < lab->shapes->count; s++)
            if (data == GRADE_EXACT || !lab->shapes->shapes[s].exact_only)
                count = expand_shape(lab, &lab->shapes->shapes[s], (enum grade_data)data, max_local, cases, count,
                                     max);
    return count;
}

/* Input i's values from the launch's seed: floats of the case's kind, or for an int or uint buffer the exact
   integers (-4 to 4; 0 to 8 unsigned) as 4-byte words of that type. */
void labs_fill_input(const struct grade_launch *launch, int i, float *values)
{
    size_t count = launch->counts[i];
    if (launch->fill) {
        launch->fill(launch, i, values);
        return;
    }
    if (launch->input_exact || launch->types[i] != COMPARE_FLOAT)
        clk_fill_exact(values, count, launch->input_seed, (unsigned)i);
    else
        clk_fill_real(values, count, launch->input_seed, (unsigned)i);
    for (size_t k = 0; launch->types[i] != COMPARE_FLOAT && k < count; k++) {
        int32_t word = (int32_t)values[k] + (launch->types[i] == COMPARE_UINT ? 4 : 0);
        memcpy(&values[k], &word, sizeof word);
    }
}

int labs_add_typed_buffer(struct grade_launch *launch, const char *name, size_t count, int is_output,
                          enum compare_type type, const struct grade_case *c, uint64_t seed)
{
    int i = launch->buffer_count++;
    launch->names[i] = name;
    launch->counts[i] = count;
    launch->is_output[i] = is_output;
    launch->types[i] = type;
    if (!is_output && c->inputs_later) {
        launch->input_seed = seed;
        launch->input_exact = c->data == GRADE_EXACT;
        return 0;
    }
    launch->host[i] = malloc((count ? count : 1) * sizeof(float));
    launch->input_seed = seed;
    launch->input_exact = c->data == GRADE_EXACT;
    if (is_output)
        launch->shape.type = type;
    if (!launch->host[i])
        return -1;
    if (!is_output)
        labs_fill_input(launch, i, launch->host[i]);
    return 0;
}

int labs_add_buffer(struct grade_launch *launch, const char *name, size_t count, int is_output,
                    const struct grade_case *c, uint64_t seed)
{
    return labs_add_typed_buffer(launch, name, count, is_output, COMPARE_FLOAT, c, seed);
}

#define DIGEST_PRIME ((1ull << 61) - 1)
#define DIGEST_LANES 8
#define NH_BLOCK 256 /* words a block of the first level compresses */

/* a * b modulo 2^61 - 1, for a, b < 2^62: the result is below 2^61 + 8, not always reduced. */
static uint64_t mul_mod(uint64_t a, uint64_t b)
{
    __extension__ unsigned __int128 t = (unsigned __int128)a * b; /* < 2^124 */
    uint64_t h = (uint64_t)(t & DIGEST_PRIME) + (uint64_t)(t >> 61);
    return (h & DIGEST_PRIME) + (h >> 61);
}

/* A polynomial over the field of 2^61 - 1 at the point x (1 <= x < p), fed one 32-bit word at a time, each word a
   coefficient of its own power: word k of lane k % 8 by Horner's rule at x^8, the lanes then shifted by x^(7 - lane)
   (eight lanes, not one chain: the multiplications overlap). */
struct polynomial {
    uint64_t lane[DIGEST_LANES], power[DIGEST_LANES], step;
    size_t fed;
};

static void polynomial_start(struct polynomial *p, uint64_t x)
{
    memset(p, 0, sizeof *p);
    p->power[0] = 1;
    for (int j = 1; j < DIGEST_LANES; j++)
        p->power[j] = mul_mod(p->power[j - 1], x);
    p->step = mul_mod(p->power[DIGEST_LANES - 1], x);
}

static void polynomial_feed(struct polynomial *p, const uint32_t *words, size_t count)
{
    for (size_t k = 0; k < count; k++, p->fed++)
        p->lane[p->fed % DIGEST_LANES] = mul_mod(p->lane[p->fed % DIGEST_LANES] + words[k], p->step);
}

static uint64_t polynomial_end(const struct polynomial *p)
{
    uint64_t h = 0;
    for (int j = 0; j < DIGEST_LANES; j++) /* each term below 2^61 + 8: eight of them fit */
        h += mul_mod(p->lane[j], p->power[DIGEST_LANES - 1 - j]);
    h = (h & DIGEST_PRIME) + (h >> 61);
    while (h >= DIGEST_PRIME)
        h -= DIGEST_PRIME;
    return h;
}

/* NH (UMAC's first level) of n words (n even) under key: the sum of (m[2j] + k[2j]) * (m[2j+1] + k[2j+1]), each
   sum modulo 2^32 and the whole modulo 2^64. Two blocks that differ agree with odds of at most 2^-32 over the key. */
static uint64_t nh(const uint32_t *m, const uint32_t *key, size_t n)
{
    uint64_t sum = 0;
    for (size_t j = 0; j < n; j += 2)
        sum += (uint64_t)(uint32_t)(m[j] + key[j]) * (uint32_t)(m[j + 1] + key[j + 1]);
    return sum;
}

/* The digest of count floats under x: each block of NH_BLOCK words compressed by two NH passes (the second's key two
   words on: together odds of 2^-64 for two blocks that differ), their four 32-bit halves and then the count the
   coefficients of the polynomial at x. Two inputs of n words that differ agree with odds under 2^-64 + (n / 64 +
   2) / 2^61. One pass over the input, about twice as fast as the polynomial over every word (2^24 + 3 words: 17
   against 37 ms here). */
static uint64_t digest(const float *values, size_t count, uint64_t x)
{
    uint32_t key[NH_BLOCK + 2], block[NH_BLOCK], halves[4];
    struct polynomial p;
    uint64_t state = x;
    for (int i = 0; i < NH_BLOCK + 2; i++) { /* splitmix64 from the secret point: a key no kernel can know */
        uint64_t z = (state += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        key[i] = (uint32_t)(z ^ (z >> 31));
    }
    polynomial_start(&p, x);
    for (size_t at = 0; at < count; at += NH_BLOCK) {
        size_t n = count - at < NH_BLOCK ? count - at : NH_BLOCK;
        memset(block, 0, sizeof block);
        memcpy(block, values + at, n * sizeof *block);
        uint64_t first = nh(block, key, NH_BLOCK), second = nh(block, key + 2, NH_BLOCK);
        halves[0] = (uint32_t)first, halves[1] = (uint32_t)(first >> 32);
        halves[2] = (uint32_t)second, halves[3] = (uint32_t)(second >> 32);
        polynomial_feed(&p, halves, 4);
    }
    halves[0] = (uint32_t)count, halves[1] = (uint32_t)((uint64_t)count >> 32);
    polynomial_feed(&p, halves, 2);
    return polynomial_end(&p);
}

void labs_drop_inputs(struct grade_launch *launch, uint64_t key)
{
    launch->digest_key = key % (DIGEST_PRIME - 1) + 1;
    for (int i = 0; i < launch->buffer_count; i++) {
        if (!launch->is_output[i] && launch->host[i])
            launch->input_digest[i] = digest(launch->host[i], launch->counts[i], launch->digest_key);
        free(launch->host[i]);
        launch->host[i] = NULL;
    }
}

int labs_input_unchanged(const struct grade_launch *launch, int i, const float *now)
{
    float *made;
    int same;
    if (launch->host[i])
        return memcmp(now, launch->host[i], launch->counts[i] * sizeof(float)) == 0;
    if (launch->digest_key)
        return digest(now, launch->counts[i], launch->digest_key) == launch->input_digest[i];
    if (!(made = malloc((launch->counts[i] ? launch->counts[i] : 1) * sizeof(float)))) /* staged and freed */
        return -1;
    labs_fill_input(launch, i, made);
    same = memcmp(now, made, launch->counts[i] * sizeof(float)) == 0;
    free(made);
    return same;
}

int labs_kernel_count(const struct grade_lab_spec *lab)
{
    int count = 0;
    while (count < GRADE_MAX_KERNELS && lab->kernel_names[count])
        count++;
    return count ? count : 1;
}

const char *labs_kernel_name(const struct grade_lab_spec *lab, int k)
{
    return k > 0 || lab->kernel_names[0] ? lab->kernel_names[k] : lab->kernel_name;
}

struct grade_step *labs_add_step(struct grade_launch *launch, int kernel, const int *list, size_t local_bytes,
                                 const int *ints, int int_count, size_t global, size_t local)
{
    struct grade_step *step;
    if (launch->step_count >= GRADE_MAX_STEPS)
        return NULL;
    step = &launch->steps[launch->step_count++];
    memset(step, 0, sizeof *step);
    step->kernel = kernel;
    while (step->buffer_count < GRADE_MAX_ARGS && list[step->buffer_count] >= 0)
        step->buffers[step->buffer_count] = list[step->buffer_count], step->buffer_count++;
    step->local_bytes = local_bytes;
    for (int i = 0; i < int_count && i < 3; i++)
        step->ints[step->int_count++] = ints[i];
    step->global = global;
    step->local = local;
    return step;
}

void labs_add_snapshot(struct grade_launch *launch, int from, int to)
{
    struct grade_step *step = labs_add_step(launch, GRADE_STEP_SNAPSHOT, (const int[]){-1}, 0, NULL, 0, 0, 0);
    if (step)
        step->copy_from = from, step->copy_to = to;
}

void labs_launch_free(struct grade_launch *launch)
{
    for (int i = 0; i < launch->buffer_count; i++)
        free(launch->host[i]), free(launch->checks[i]);
    free(launch->expected);
    free(launch->bound);
    memset(launch, 0, sizeof *launch);
}

const char *labs_test_name(const struct grade_lab_spec *lab, enum grade_test_kind kind)
{
    static const char *const names[GRADE_TEST_KINDS] = {
        [GRADE_TEST_BUILD] = "build",          [GRADE_TEST_EXACT] = "exact cases",
        [GRADE_TEST_REAL] = "real cases",      [GRADE_TEST_MEMORY] = "memory safety",
        [GRADE_TEST_TECHNIQUE] = "technique",  [GRADE_TEST_HOST] = "host program",
    };
    if (kind == GRADE_TEST_SPEED)
        return lab->perf.baseline_file ? "speed" : "bandwidth";
    if (kind == GRADE_TEST_TECHNIQUE && !lab->technique)
        return NULL;
    return kind >= 0 && kind < GRADE_TEST_KINDS ? names[kind] : NULL;
}

double labs_test_points(const struct grade_lab_spec *lab, enum grade_test_kind kind)
{
    const struct grade_points *p = &lab->points;
    const double points[GRADE_TEST_KINDS] = {
        [GRADE_TEST_BUILD] = p->build, [GRADE_TEST_EXACT] = p->exact,         [GRADE_TEST_REAL] = p->real,
        [GRADE_TEST_MEMORY] = p->memory, [GRADE_TEST_TECHNIQUE] = p->technique, [GRADE_TEST_HOST] = p->host,
        [GRADE_TEST_SPEED] = 0.0,
    };
    return kind >= 0 && kind < GRADE_TEST_KINDS && labs_test_name(lab, kind) ? points[kind] : 0.0;
}

int labs_has_test(const struct grade_lab_spec *lab, const char *name)
{
    for (int kind = 0; kind < GRADE_TEST_KINDS; kind++)
        if (labs_test_name(lab, (enum grade_test_kind)kind) &&
            strcmp(labs_test_name(lab, (enum grade_test_kind)kind), name) == 0)
            return 1;
    return 0;
}
