#include "judge/guard_check.h"

#include "judge/mismatch.h"
#include "text.h"
#include "wire/compare.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static size_t changed(const float *now, uint32_t bits, size_t from, size_t to)
{
    size_t count = 0;
    for (size_t k = from; k < to; k++)
        count += memcmp(&now[k], &bits, sizeof bits) != 0;
    return count;
}

/* Compares the guards bitwise and the inputs with what was sent; appends findings to text, and sets *outside when a
   guard of the buffer was written. */
static int check_memory(const struct grade_launch *launch, int i, size_t guard, uint32_t bits, const float *raw,
                        char *text, size_t size, int *outside)
{
    size_t count = launch->counts[i];
    size_t before = changed(raw, bits, 0, guard), after = changed(raw, bits, guard + count, 2 * guard + count);
    int ok = before == 0 && after == 0;
    *outside = !ok;
    if (after)
        clk_append(text, size, "%swrote %zu elements past the end of %s", text[0] ? "; " : "", after,
                   launch->names[i]);
    if (before)
        clk_append(text, size, "%swrote %zu elements before the start of %s", text[0] ? "; " : "", before,
                   launch->names[i]);

    int unchanged = launch->is_output[i] ? 1 : labs_input_unchanged(launch, i, raw + guard);
    if (unchanged != 1) {
        ok = 0;
        clk_append(text, size, "%s%s%s", text[0] ? "; " : "",
                   unchanged == 0 ? "modified the input " : "the grader ran out of memory checking the input ",
                   launch->names[i]);
    }
    return ok;
}

/* A lab of several kernels with a wrong result: the first checked intermediate (in the launch's order) that is wrong
   names the kernel that wrote it; with every intermediate right, the output's own writer is named. */
static void blame_kernel(const struct grade_launch *launch, const struct harness_raw *raw, size_t guard,
                         struct case_verdict *verdict)
{
    int out = launch->buffer_count - 1;
    for (int i = 0; i < out; i++) {
        struct compare_shape shape = {.type = launch->types[i], .count = launch->counts[i]};
        struct compare_summary summary;
        double *exact = launch->checks[i] ? calloc(launch->counts[i] + 1, sizeof(double)) : NULL;
        if (!exact)
            continue;
        compare_result(raw->data[i] + guard, launch->checks[i], exact, &shape, &summary);
        free(exact);
        if (summary.wrong == 0)
            continue;
        snprintf(verdict->kernel, sizeof verdict->kernel, "%s", launch->writer[i]);
        clk_append(verdict->values, sizeof verdict->values, "\nthe first wrong step is %s: %s (%zu of %zu wrong, "
                   "the first at %zu), which it writes and the later kernels read", launch->writer[i],
                   launch->names[i], summary.wrong, launch->counts[i], summary.shown[0]);
        return;
    }
    if (launch->writer[out]) {
        snprintf(verdict->kernel, sizeof verdict->kernel, "%s", launch->writer[out]);
        clk_append(verdict->values, sizeof verdict->values, "\nthe first wrong step is %s: every intermediate "
                   "buffer before it is right", launch->writer[out]);
    }
}

/* Judges the output (its guard zones around it) against the reference; a wrong matrix gets its map in the values'
   reason, a right one written outside its buffer gets it in the memory reason. */
static void judge_values(const struct grade_family *family, const struct grade_launch *launch, const float *zone,
                         size_t guard, const uint32_t *guard_bits, int outside, struct case_verdict *verdict)
{
    int out = launch->buffer_count - 1;
    uint32_t bits = guard_bits[out];
    struct compare_shape shape = launch->shape;
    /* What a read outside an input returns: its guard NaN (none without guards). */
    for (int i = 0; guard && i < out && i < COMPARE_MAX_INPUTS; i++)
        shape.around_inputs[i] = launch->is_output[i] ? 0 : guard_bits[i];
    const float *output = zone + guard;
    float *result = malloc(launch->shape.count * sizeof(float));
    struct mismatch_guards around = {.before = zone, .after = output + launch->counts[launch->buffer_count - 1],
                                     .words = guard, .bits = bits};
    struct compare_summary summary;
    int mapped = !family->finish && mismatch_applies(&launch->shape);
    if (!result) {
        snprintf(verdict->values, sizeof verdict->values, "grader out of memory");
        return;
    }
    if (family->finish)
        family->finish(launch, output, result);
    else
        memcpy(result, output, launch->shape.count * sizeof(float));
    compare_result(result, launch->expected, launch->bound, &shape, &summary);
    verdict->values_ok = summary.wrong == 0;
    verdict->cause = summary.cause;
    if (!verdict->values_ok)
        compare_format(&summary, result, launch->expected, &launch->shape, verdict->values, sizeof verdict->values);
    if (mapped && !verdict->values_ok)
        mismatch_draw(result, launch->expected, launch->bound, &launch->shape, &around, verdict->values,
                      sizeof verdict->values);
    else if (mapped && outside)
        mismatch_draw(result, launch->expected, launch->bound, &launch->shape, &around, verdict->memory,
                      sizeof verdict->memory);
    free(result);
}

int guard_check(const struct grade_family *family, const struct grade_launch *launch, size_t guard,
                const uint32_t *guard_bits, const struct harness_raw *raw, struct case_verdict *verdict)
{
    int out = launch->buffer_count - 1, outside = 0; /* by contract the output is the last buffer */
    memset(verdict, 0, sizeof *verdict);
    verdict->memory_ok = 1;
    for (int i = 0; i < launch->buffer_count; i++)
        if (!raw->data[i] || raw->totals[i] != 2 * guard + launch->counts[i])
            return -1;
    for (int i = 0; i < launch->buffer_count; i++)
        verdict->memory_ok &= check_memory(launch, i, guard, guard_bits[i], raw->data[i], verdict->memory,
                                           sizeof verdict->memory, &outside);
    /* outside is now the output's, the last buffer's */
    judge_values(family, launch, raw->data[out], guard, guard_bits, outside, verdict);
    if (!verdict->values_ok && launch->step_count)
        blame_kernel(launch, raw, guard, verdict);
    return 0;
}
