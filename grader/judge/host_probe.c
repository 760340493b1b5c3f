#include "judge/host_probe.h"

#include "files.h"
#include "reference.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

int probe_random(void *bytes, size_t count)
{
    return getrandom(bytes, count, 0) == (ssize_t)count ? 0 : -1;
}

float probe_secret(void)
{
    uint16_t bits = 0;
    if (probe_random(&bits, sizeof bits) != 0)
        return 0.0f;
    return 1.25f + (float)(bits & 0xfff) / 4096.0f * 1.5f;
}

/* text without its comments (the templates say what they are for; the staged kernel must not). */
static void drop_comments(char *text)
{
    char *to = text;
    for (const char *at = text; *at;) {
        if (at[0] == '/' && at[1] == '*') {
            const char *end = strstr(at + 2, "*/");
            at = end ? end + 2 : at + strlen(at);
        } else if (at[0] == '/' && at[1] == '/') {
            at += strcspn(at, "\n");
        } else {
            *to++ = *at++;
        }
    }
    *to = '\0';
}

/* A copy of text with every token replaced by value (caller frees), or NULL when memory runs out. */
static char *replace_all(const char *text, const char *token, const char *value)
{
    size_t count = 0, token_length = strlen(token), value_length = strlen(value);
    for (const char *at = strstr(text, token); at; at = strstr(at + token_length, token))
        count++;
    char *copy = malloc(strlen(text) + count * value_length + 1), *to = copy;
    if (!copy)
        return NULL;
    for (const char *at = text, *next; at; at = next ? next + token_length : NULL) {
        next = strstr(at, token);
        size_t keep = next ? (size_t)(next - at) : strlen(at);
        memcpy(to, at, keep);
        to += keep;
        if (next)
            memcpy(to, value, value_length), to += value_length;
    }
    *to = '\0';
    return copy;
}

char *probe_source(const char *path, const char *kernel_name, float secret)
{
    char literal[64], *text = clk_read_text(path, NULL), *named, *staged;
    if (!text)
        return NULL;
    drop_comments(text);
    snprintf(literal, sizeof literal, "%af", (double)secret);
    named = replace_all(text, "PROBE_KERNEL", kernel_name);
    staged = named ? replace_all(named, "PROBE_SECRET", literal) : NULL;
    free(text);
    free(named);
    return staged;
}

/* c = a - b * secret. */
static void probe_vadd(struct clk_problem *p, float secret)
{
    for (size_t i = 0; i < p->length; i++) {
        double a = p->inputs[0][i], scaled = (double)p->inputs[1][i] * secret;
        p->expected[i] = a - scaled;
        p->bound[i] = FLT_EPSILON * (fabs(a) + 2.0 * fabs(scaled));
    }
}

/* The sum of a times secret, as the dot product with b = secret everywhere (the host adds the partial sums). */
static void probe_dot(struct clk_problem *p, float secret)
{
    for (size_t i = 0; i < p->input_lengths[1]; i++)
        p->inputs[1][i] = secret;
    clk_ref_dot(p->inputs[0], p->inputs[1], p->dims[0], p->expected, p->bound);
    p->bound[0] *= 2.0;
}

/* C's element (row, col) is the sum of A's row times secret: A times a B of secrets. */
static void probe_matmul(struct clk_problem *p, float secret)
{
    for (size_t i = 0; i < p->input_lengths[1]; i++)
        p->inputs[1][i] = secret;
    clk_ref_matmul(p->inputs[0], p->inputs[1], p->dims[0], p->dims[1], p->dims[2], p->expected, p->bound);
}

/* out = in times secret, element for element (no transpose, no filter). */
static void probe_copy(struct clk_problem *p, float secret)
{
    for (size_t i = 0; i < p->length; i++) {
        p->expected[i] = (double)p->inputs[0][i] * secret;
        p->bound[i] = FLT_EPSILON * fabs(p->expected[i]);
    }
}

/* Value v counted into bin nbins - 1 - (v + shift) % nbins, the shift three times the secret's random bits: no
   histogram of the data, nor its bins reversed. */
static void probe_histogram(struct clk_problem *p, float secret)
{
    size_t bins = p->length, shift = (size_t)((secret - 1.25f) * 8192.0f);
    double *moved = calloc(bins, sizeof *moved);
    if (!moved) {
        memset(p->expected, 0xff, bins * sizeof *p->expected); /* NaN: no host program matches it */
        return;
    }
    for (size_t v = 0; v < bins; v++)
        moved[bins - 1 - (v + shift) % bins] = p->expected[v];
    memcpy(p->expected, moved, bins * sizeof *moved);
    free(moved);
}

/* The exclusive scan of in[i] + shift modulo 2^32, the shift three times the secret's random bits. */
static void probe_scan(struct clk_problem *p, float secret)
{
    uint32_t shift = (uint32_t)((secret - 1.25f) * 8192.0f), running = 0;
    const uint32_t *in = (const uint32_t *)(const void *)p->inputs[0];
    for (size_t i = 0; i < p->length; i++) {
        p->expected[i] = (double)running;
        running += in[i] + shift;
    }
}

static void (*const probes[])(struct clk_problem *, float) = {
    [CLK_PROBLEM_VADD] = probe_vadd,
    [CLK_PROBLEM_DOT] = probe_dot,
    [CLK_PROBLEM_MATMUL] = probe_matmul,
    [CLK_PROBLEM_TRANSPOSE] = probe_copy,
    [CLK_PROBLEM_CONV2D] = probe_copy,
    [CLK_PROBLEM_HISTOGRAM] = probe_histogram,
    [CLK_PROBLEM_SCAN] = probe_scan,
};

size_t probe_reference(enum clk_problem_kind kind, const size_t *dims, uint64_t seed, float secret, double **expected,
                       double **bound)
{
    struct clk_problem p;
    size_t length;
    *expected = *bound = NULL;
    if ((size_t)kind >= sizeof probes / sizeof *probes || clk_problem_make(kind, dims, seed, &p) != 0)
        return 0;
    probes[kind](&p, secret);
    *expected = p.expected;
    *bound = p.bound;
    length = p.length;
    p.expected = p.bound = NULL;
    clk_problem_free(&p);
    return length;
}
