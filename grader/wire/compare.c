#include "wire/compare.h"

#include "text.h"
#include "verify.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* Results are read back by their bits (a poisoned or integer element is no float): a float is IEEE-754 binary32, as
   OpenCL's is, and exactly as wide as the uint32_t its bits are read into. */
_Static_assert(sizeof(float) == sizeof(uint32_t), "a float's bits are read as a uint32_t");
_Static_assert(FLT_RADIX == 2 && FLT_MANT_DIG == 24 && FLT_MAX_EXP == 128, "float is IEEE-754 binary32");

float compare_poison(void)
{
    uint32_t bits = COMPARE_POISON_BITS;
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

int compare_is_poison(float f)
{
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    return bits == COMPARE_POISON_BITS;
}

double compare_value(const float *got, const struct compare_shape *shape, size_t i)
{
    uint32_t bits;
    memcpy(&bits, &got[i], sizeof bits);
    switch (shape->type) {
    case COMPARE_INT:
        return (double)(int32_t)bits;
    case COMPARE_UINT:
        return (double)bits;
    case COMPARE_FLOAT:
        break;
    }
    return got[i];
}

int compare_right_at(const float *got, const struct compare_shape *s, size_t i, double expected, double bound)
{
    if (s->type == COMPARE_FLOAT)
        return clk_within(got[i], expected, bound);
    /* By value alone: the poison's bits are an integer like any other, and a right sum that happens to equal them
       (one in 2^32 of a lab 11 scan's wrapping sums) is right, not "never written". */
    return fabs(compare_value(got, s, i) - expected) <= bound;
}

static int all_zero(const float *got, const struct compare_shape *s)
{
    for (size_t i = 0; i < s->count; i++)
        if (compare_value(got, s, i) != 0.0)
            return 0;
    return 1;
}

static int transposed(const float *got, const double *expected, const double *bound, const struct compare_shape *s)
{
    if (s->rows == 0 || s->rows * s->cols != s->count || (s->rows == 1 && s->cols == 1))
        return 0;
    for (size_t r = 0; r < s->rows; r++)
        for (size_t c = 0; c < s->cols; c++)
            if (!compare_right_at(got, s, c * s->rows + r, expected[r * s->cols + c], bound[r * s->cols + c] + 1e-6))
                return 0;
    return 1;
}

/* Returns the common ratio got/expected when every sizeable element shares it, else 0. */
static double constant_factor(const float *got, const double *expected, const struct compare_shape *s)
{
    double ratio = 0.0;
    size_t sizeable = 0;
    for (size_t i = 0; i < s->count; i++) {
        if (fabs(expected[i]) < 1e-3) {
            if (fabs(compare_value(got, s, i)) > 1e-3)
                return 0.0;
            continue;
        }
        double r = compare_value(got, s, i) / expected[i];
        if (!isfinite(r) || (ratio != 0.0 && fabs(r - ratio) > 1e-3 * fabs(ratio)))
            return 0.0;
        ratio = r;
        sizeable++;
    }
    /* One or two elements always share "a factor"; it means something only over several. */
    return sizeable >= 3 && fabs(ratio - 1.0) > 1e-3 ? ratio : 0.0;
}

/* Explains a result that is right up to some index and wrong from there on. */
static void describe_prefix(size_t right, const struct compare_shape *s, char *text, size_t size)
{
    if (s->grid && right == s->grid)
        snprintf(text, size, "only the first %zu elements, one per work-item, are right: "
                 "is the grid-stride loop missing?", right);
    else if (s->block && right == s->block && s->count > s->block)
        snprintf(text, size, "only the first work-group (%zu elements) is right: "
                 "use get_global_id, not get_local_id, to find the element", right);
    else if (s->block && right > 0 && right == s->count / s->block * s->block)
        snprintf(text, size, "every element up to the last full work-group is right, the tail past it "
                 "(from index %zu) is wrong", right);
    else
        snprintf(text, size, "the first %zu elements are right and every one from index %zu on is wrong", right,
                 right);
}

/* Returns 1 when a 1-D result adds up to the expected total though its elements differ: the work is all there,
   shared out differently (contiguous chunks where the lab wants a grid-stride loop). */
static int same_total(const float *got, const double *expected, const double *bound, const struct compare_shape *s)
{
    double total = 0.0, want = 0.0, allowed = 0.0;
    if (s->rows || s->count < 2)
        return 0;
    for (size_t i = 0; i < s->count; i++) {
        total += compare_value(got, s, i);
        want += expected[i];
        allowed += bound[i] + 1e-6 * fabs(expected[i]);
    }
    return isfinite(total) && fabs(total - want) <= allowed + 1e-9;
}

static int line_wrong(const float *got, const double *expected, const double *bound, const struct compare_shape *s,
                      size_t at, int is_column)
{
    size_t length = is_column ? s->rows : s->cols;
    for (size_t k = 0; k < length; k++) {
        size_t i = is_column ? k * s->cols + at : at * s->cols + k;
        if (compare_right_at(got, s, i, expected[i], bound[i]))
            return 0;
    }
    return 1;
}

/* Returns 1 when the wrong elements of a matrix are exactly its last columns from *col and its last rows from *row
   (cols or rows when that edge is right), and the rest is right. */
static int edges_only(const float *got, const double *expected, const double *bound, const struct compare_shape *s,
                      size_t wrong, size_t *row, size_t *col)
{
    size_t c = s->cols, r = s->rows;
    if (s->rows < 2 || s->cols < 2)
        return 0;
    while (c > 0 && line_wrong(got, expected, bound, s, c - 1, 1))
        c--;
    while (r > 0 && line_wrong(got, expected, bound, s, r - 1, 0))
        r--;
    *row = r;
    *col = c;
    return c > 0 && r > 0 && (c < s->cols || r < s->rows) && wrong == s->rows * (s->cols - c) + (s->rows - r) * c;
}

static void describe_edges(size_t row, size_t col, const struct compare_shape *s, char *text, size_t size)
{
    if (col < s->cols && row < s->rows)
        snprintf(text, size, "only the edges are wrong, every column from %zu and every row from %zu on", col, row);
    else if (col < s->cols)
        snprintf(text, size, "only the right edge is wrong, every column from %zu on", col);
    else
        snprintf(text, size, "only the bottom edge is wrong, every row from %zu on", row);
    clk_append(text, size, ": the last, partial blocks (does the grid round up to cover them, and do tiles that hang "
               "over the edge load zeros?)");
}

/* The input whose surrounding NaN a wrong element carries (a read outside that input, carried through the
   arithmetic: a signalling NaN comes out quiet, its payload kept), or -1. */
static int read_outside_input(const float *got, const double *expected, const double *bound,
                              const struct compare_shape *s)
{
    for (size_t i = 0; s->type == COMPARE_FLOAT && i < s->count; i++) {
        uint32_t bits;
        if (!isnan(got[i]) || compare_right_at(got, s, i, expected[i], bound[i]))
            continue;
        memcpy(&bits, &got[i], sizeof bits);
        for (int k = 0; k < COMPARE_MAX_INPUTS; k++)
            if (s->around_inputs[k] && (bits | 0x00400000u) == (s->around_inputs[k] | 0x00400000u))
                return k;
    }
    return -1;
}

static void find_pattern(const float *got, const double *expected, const double *bound,
                         const struct compare_shape *s, struct compare_summary *summary)
{
    int input = summary->other_nans > 0 ? read_outside_input(got, expected, bound, s) : -1;
    size_t first = summary->shown[0], row, col;
    double factor;
    if (input >= 0) {
        summary->cause = COMPARE_CAUSE_OUT_OF_BOUNDS_READ;
        snprintf(summary->pattern, sizeof summary->pattern, "a wrong element carries the NaN that the grader puts "
                 "around input %d: the kernel reads outside its inputs (check the bounds of every read: row, column "
                 "and k all inside the matrix)", input + 1);
    } else if (summary->never_written == s->count)
        snprintf(summary->pattern, sizeof summary->pattern, "the kernel wrote no element of the result, or only "
                 "added into it (+= on an output it never set keeps the grader's NaN poison): set it with =");
    else if (summary->other_nans == summary->wrong)
        snprintf(summary->pattern, sizeof summary->pattern,
                 "every wrong element is NaN: the kernel read its output before writing it (+= into an output "
                 "that starts as garbage, not 0): set it with = first");
    else if (all_zero(got, s))
        snprintf(summary->pattern, sizeof summary->pattern, "every element is zero");
    else if (transposed(got, expected, bound, s))
        snprintf(summary->pattern, sizeof summary->pattern,
                 "the result is the transpose of the right one: rows and columns are swapped");
    else if ((factor = constant_factor(got, expected, s)) != 0.0)
        snprintf(summary->pattern, sizeof summary->pattern, "every element is off by the same factor, %.4g", factor);
    else if (s->grid == 0 && s->block && same_total(got, expected, bound, s))
        snprintf(summary->pattern, sizeof summary->pattern,
                 "the partial sums add up to the right total, but each is wrong: work-item i must add elements i, "
                 "i + global size, i + 2 * global size, ... (a grid-stride loop), not a contiguous chunk");
    else if (s->rows == 0 && first > 0 && summary->wrong == s->count - first)
        describe_prefix(first, s, summary->pattern, sizeof summary->pattern);
    else if (s->rows && edges_only(got, expected, bound, s, summary->wrong, &row, &col))
        describe_edges(row, col, s, summary->pattern, sizeof summary->pattern);
    else if (summary->never_written == summary->wrong)
        snprintf(summary->pattern, sizeof summary->pattern,
                 "every wrong element was never written: some work-items skip their element");
}

void compare_result(const float *got, const double *expected, const double *bound, const struct compare_shape *shape,
                    struct compare_summary *summary)
{
    memset(summary, 0, sizeof *summary);
    for (size_t i = 0; i < shape->count; i++) {
        if (compare_right_at(got, shape, i, expected[i], bound[i]))
            continue;
        if (summary->shown_count < COMPARE_SHOWN)
            summary->shown[summary->shown_count++] = i;
        summary->never_written += compare_is_poison(got[i]);
        summary->other_nans += shape->type == COMPARE_FLOAT && isnan(got[i]) && !compare_is_poison(got[i]);
        summary->wrong++;
    }
    if (summary->wrong > 0)
        find_pattern(got, expected, bound, shape, summary);
}

static void format_value(const float *got, const struct compare_shape *s, size_t i, char *text, size_t size)
{
    if (compare_is_poison(got[i]))
        snprintf(text, size, "never written");
    else
        snprintf(text, size, s->type == COMPARE_FLOAT ? "%.9g" : "%.0f", compare_value(got, s, i));
}

void compare_format(const struct compare_summary *summary, const float *got, const double *expected,
                    const struct compare_shape *shape, char *text, size_t size)
{
    snprintf(text, size, "%zu of %zu elements wrong", summary->wrong, shape->count);
    for (int k = 0; k < summary->shown_count; k++) {
        size_t i = summary->shown[k];
        char where[64], value[32];
        if (shape->rows)
            snprintf(where, sizeof where, "row %zu, col %zu", i / shape->cols, i % shape->cols);
        else
            snprintf(where, sizeof where, "index %zu", i);
        format_value(got, shape, i, value, sizeof value);
        clk_append(text, size, "\n  %s: expected ", where);
        clk_append(text, size, shape->type == COMPARE_FLOAT ? "%.9g" : "%.0f", expected[i]);
        clk_append(text, size, ", got %s", value);
    }
    if (summary->pattern[0])
        clk_append(text, size, "\n  pattern: %s", summary->pattern);
}
