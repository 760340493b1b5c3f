#include "judge/prediction_test.h"

#include "text.h"

#include <ctype.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* An answers file is a page of text: anything larger is not one, and is not read. */
#define ANSWERS_MAX_BYTES 65536

/* What the grader measures for a question; counts come from the technique case under the reference judge (the
   same on every device), speeds from the timed run on this device. */
enum figure {
    FIGURE_FIXED,                 /* a count the grader's own cases fix */
    FIGURE_COPY_SHARE,            /* speed test: % of the copy bandwidth (or of the FMA peak) */
    FIGURE_RATE,                  /* speed test: GB/s */
    FIGURE_SPEEDUP,               /* speed test: times the baseline's speed */
    FIGURE_GLOBAL_STORES,         /* technique case */
    FIGURE_LOCAL_STORES_PER_GROUP,
    FIGURE_WRITE_TRANSACTIONS,    /* 128-byte transactions per warp write request */
    FIGURE_LOADS_PER_OUTPUT,      /* global loads per output element */
    FIGURE_BANK_PASSES,           /* bank passes per warp access of local memory */
    FIGURE_LOCAL_LOADS_PER_FMA,
    FIGURE_GLOBAL_ATOMICS,
    FIGURE_LOCAL_ATOMICS,
    FIGURE_LOCAL_ADDS_PER_ELEMENT, /* additions of local values per element of a 1-D case */
};

/* A question whose figure the grader measures. what is the label the answers file shows on its predict: line
   (docs/answers.py copies it from here), with the margin in words; margin is the same as a fraction. */
struct question {
    const char *lab;
    int number;
    enum figure figure;
    double fixed; /* FIGURE_FIXED's value */
    double margin;
    const char *what;
};

/* Counts are exact, so 10% is a near miss; speeds vary by about 10% from run to run, so 25%. */
static const struct question questions[] = {
    {.lab = "lab1", .number = 1, .figure = FIGURE_FIXED, .fixed = 100032, .margin = 0.10,
     .what = "work-items the grader launches for n = 100,003, a count within 10%"},
    {.lab = "lab1", .number = 3, .figure = FIGURE_COPY_SHARE, .margin = 0.25,
     .what = "your kernel's share of the copy bandwidth on this device, in %, within 25%"},
    {.lab = "lab2", .number = 1, .figure = FIGURE_FIXED, .fixed = 224, .margin = 0.10,
     .what = "elements work-item 0 handles for n = 100,003, a count within 10%"},
    {.lab = "lab2", .number = 2, .figure = FIGURE_GLOBAL_STORES, .margin = 0.10,
     .what = "your kernel's global stores in the technique case, a count within 10%"},
    {.lab = "lab2", .number = 3, .figure = FIGURE_RATE, .margin = 0.25,
     .what = "your kernel's bandwidth on this device, in GB/s, within 25%"},
    {.lab = "lab3", .number = 3, .figure = FIGURE_COPY_SHARE, .margin = 0.25,
     .what = "your kernel's share of the copy bandwidth on this device, in %, within 25%"},
    {.lab = "lab4", .number = 1, .figure = FIGURE_LOCAL_STORES_PER_GROUP, .margin = 0.10,
     .what = "stores to local memory per work-group in the technique case, a count within 10%"},
    {.lab = "lab4", .number = 2, .figure = FIGURE_GLOBAL_STORES, .margin = 0.10,
     .what = "your kernel's global stores for the 16 work-groups, a count within 10%"},
    {.lab = "lab4", .number = 3, .figure = FIGURE_SPEEDUP, .margin = 0.25,
     .what = "your speed over naive dot on this device, a factor within 25%"},
    {.lab = "lab5", .number = 1, .figure = FIGURE_WRITE_TRANSACTIONS, .margin = 0.10,
     .what = "128-byte transactions per warp write of C, a count within 10%"},
    {.lab = "lab5", .number = 3, .figure = FIGURE_SPEEDUP, .margin = 0.25,
     .what = "your speed over the swapped mapping on this device, a factor within 25%"},
    {.lab = "lab6", .number = 1, .figure = FIGURE_LOADS_PER_OUTPUT, .margin = 0.10,
     .what = "your kernel's global loads per element of C, a count within 10%"},
    {.lab = "lab6", .number = 2, .figure = FIGURE_SPEEDUP, .margin = 0.25,
     .what = "your speed over the naive matmul on this device, a factor within 25%"},
    {.lab = "lab6", .number = 3, .figure = FIGURE_COPY_SHARE, .margin = 0.25,
     .what = "your kernel's share of the FMA peak on this device, in %, within 25%"},
    {.lab = "lab7", .number = 1, .figure = FIGURE_WRITE_TRANSACTIONS, .margin = 0.10,
     .what = "128-byte transactions per warp write in your transpose, a count within 10%"},
    {.lab = "lab7", .number = 2, .figure = FIGURE_BANK_PASSES, .margin = 0.10,
     .what = "bank passes per warp access of your tile, a count within 10%"},
    {.lab = "lab7", .number = 3, .figure = FIGURE_SPEEDUP, .margin = 0.25,
     .what = "your speed over the naive transpose on this device, a factor within 25%"},
    {.lab = "lab8", .number = 1, .figure = FIGURE_LOCAL_LOADS_PER_FMA, .margin = 0.10,
     .what = "your kernel's local loads per multiply-add, a count within 10%"},
    {.lab = "lab8", .number = 2, .figure = FIGURE_LOADS_PER_OUTPUT, .margin = 0.10,
     .what = "your kernel's global loads per element of C, a count within 10%"},
    {.lab = "lab9", .number = 1, .figure = FIGURE_LOADS_PER_OUTPUT, .margin = 0.10,
     .what = "your kernel's global loads per output in the technique case, a count within 10%"},
    {.lab = "lab10", .number = 1, .figure = FIGURE_GLOBAL_ATOMICS, .margin = 0.10,
     .what = "your kernel's global atomics in the technique case, a count within 10%"},
    {.lab = "lab10", .number = 2, .figure = FIGURE_LOCAL_ATOMICS, .margin = 0.10,
     .what = "your kernel's local atomics in the technique case, a count within 10%"},
    {.lab = "lab10", .number = 4, .figure = FIGURE_SPEEDUP, .margin = 0.25,
     .what = "your speed over the global-atomics histogram on this device, a factor within 25%"},
    {.lab = "lab11", .number = 1, .figure = FIGURE_LOCAL_ADDS_PER_ELEMENT, .margin = 0.10,
     .what = "your scan_blocks' additions of local values per element in the technique case, a count within 10%"},
};

static const struct question *question_of(const char *lab, int number)
{
    for (size_t i = 0; i < sizeof questions / sizeof questions[0]; i++)
        if (strcmp(questions[i].lab, lab) == 0 && questions[i].number == number)
            return &questions[i];
    return NULL;
}

const char *predict_figure_of(const char *lab, int question)
{
    const struct question *q = question_of(lab, question);
    return q ? q->what : NULL;
}

/* The first number on a line ("about 1,563 groups" reads 1563, "0.9x" 0.9); returns 1 when there is one. */
static int first_number(const char *line, double *value)
{
    char digits[64];
    size_t n = 0;
    const char *p = line;
    while (*p && *p != '\n' && !isdigit((unsigned char)*p) && !(*p == '.' && isdigit((unsigned char)p[1])))
        p++;
    if (!*p || *p == '\n')
        return 0;
    for (; *p && n + 1 < sizeof digits; p++) {
        if (*p == ',' && isdigit((unsigned char)p[1]))
            continue; /* a thousands separator */
        if (!isdigit((unsigned char)*p) && *p != '.')
            break;
        digits[n++] = *p;
    }
    digits[n] = '\0';
    *value = strtod(digits, NULL);
    return isfinite(*value);
}

/* Whether the text after a "key:" at the start of line holds anything but blanks. */
static int filled(const char *rest)
{
    for (; *rest && *rest != '\n'; rest++)
        if (!isspace((unsigned char)*rest))
            return 1;
    return 0;
}

/* What follows "predict"'s label on its line: after " (label):" or ":", or NULL when the line has neither. */
static const char *after_label(const char *rest)
{
    const char *end = strchr(rest, '\n');
    if (*rest == ' ' && rest[1] == '(') {
        const char *close = strstr(rest, "):");
        return close && (!end || close < end) ? close + 2 : NULL;
    }
    return *rest == ':' ? rest + 1 : NULL;
}

int predict_parse(const char *text, struct predict_entry *entries, int max)
{
    int count = 0;
    for (const char *line = text; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        const char *value;
        int number;
        struct predict_entry *e = count > 0 ? &entries[count - 1] : NULL;
        if (sscanf(line, "## Question %d", &number) == 1 && count < max) {
            memset(&entries[count], 0, sizeof entries[count]);
            entries[count++].question = number;
        } else if (e && strncmp(line, "predict", 7) == 0 && (value = after_label(line + 7)) != NULL) {
            e->predicted = filled(value);
            e->numeric = first_number(value, &e->prediction);
        } else if (e && strncmp(line, "answer:", 7) == 0) {
            e->answered = filled(line + 7);
        }
    }
    return count;
}

/* The whole of dir/lab/answers.md when it is a small regular file (never through a link), or NULL. */
static char *read_answers(const char *dir, const char *lab)
{
    char path[PATH_MAX + 64];
    struct stat st;
    char *text = NULL;
    snprintf(path, sizeof path, "%s/%s/%s", dir, lab, PREDICT_FILE);
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size <= ANSWERS_MAX_BYTES &&
        (text = calloc(1, (size_t)st.st_size + 1)) != NULL) {
        ssize_t got = read(fd, text, (size_t)st.st_size);
        text[got > 0 ? got : 0] = '\0';
    }
    close(fd);
    return text;
}

/* The number after "key=" in a test's metrics, or -1 when absent. */
static double metric_of(const char *metrics, const char *key)
{
    char pattern[32];
    snprintf(pattern, sizeof pattern, "%s=", key);
    for (const char *p = strstr(metrics, pattern); p; p = strstr(p + 1, pattern))
        if (p == metrics || p[-1] == ';')
            return atof(p + strlen(pattern));
    return -1.0;
}

/* The speed test's figure for q from result (a timed run: its metrics are set), or -1 when it was not timed. */
static double speed_figure(const struct grade_lab_spec *lab, const struct question *q,
                           const struct grade_lab_result *result)
{
    const char *name = labs_test_name(lab, GRADE_TEST_SPEED);
    for (int t = 0; name && t < result->test_count; t++) {
        const char *m = result->tests[t].metrics;
        if (strcmp(result->tests[t].name, name) != 0 || !m[0])
            continue;
        double v = metric_of(m, q->figure == FIGURE_SPEEDUP ? "speedup" : q->figure == FIGURE_RATE ? "rate"
                                                                                                  : "fraction");
        return v < 0 ? -1 : q->figure == FIGURE_COPY_SHARE ? 100.0 * v : v;
    }
    return -1;
}

/* The technique case's figure for q from counts, or -1 when the counts it needs are missing. */
static double count_figure(const struct grade_lab_spec *lab, const struct question *q, const struct technique_counts *c)
{
    if (!lab->technique)
        return -1;
    const struct grade_case *s = &lab->technique->shape;
    double outputs = (double)s->dims[0] * s->dims[1];
    switch (q->figure) {
    case FIGURE_GLOBAL_STORES: return c->global_stores;
    case FIGURE_LOCAL_STORES_PER_GROUP: return s->groups ? c->local_stores / (double)s->groups : -1;
    case FIGURE_WRITE_TRANSACTIONS: return c->store_requests > 0 ? c->store_transactions / c->store_requests : -1;
    case FIGURE_LOADS_PER_OUTPUT: return outputs > 0 ? c->global_loads / outputs : -1;
    case FIGURE_BANK_PASSES: return c->local_requests > 0 ? c->local_wavefronts / c->local_requests : -1;
    case FIGURE_LOCAL_LOADS_PER_FMA: return outputs * s->dims[2] > 0 ? c->local_loads / (outputs * s->dims[2]) : -1;
    case FIGURE_GLOBAL_ATOMICS: return c->global_atomics;
    case FIGURE_LOCAL_ATOMICS: return c->local_atomics;
    case FIGURE_LOCAL_ADDS_PER_ELEMENT: return s->dims[0] > 0 && c->local_adds >= 0 ? c->local_adds / s->dims[0] : -1;
    default: return -1;
    }
}

/* What the grader measured for q, or -1 with why set. */
static double measured(const struct grade_lab_spec *lab, const struct question *q, const struct technique_counts *c,
                       int counted, const struct grade_lab_result *result, const char **why)
{
    double v;
    if (q->figure == FIGURE_FIXED)
        return q->fixed;
    if (q->figure == FIGURE_COPY_SHARE || q->figure == FIGURE_RATE || q->figure == FIGURE_SPEEDUP) {
        *why = "the speed test did not time the kernel in this run";
        return speed_figure(lab, q, result);
    }
    *why = "the reference judge did not count the technique case in this run";
    v = counted ? count_figure(lab, q, c) : -1;
    return v;
}

/* The figure as the report prints it: whole numbers without decimals, others with two. */
static void format_figure(double v, char *out, size_t size)
{
    snprintf(out, size, fabs(v - round(v)) < 1e-9 ? "%.0f" : "%.2f", v);
}

struct tally {
    int questions, predicted, answered, measured, within;
};

/* Appends question e's line to text, and counts it. */
static void describe(const struct grade_lab_spec *lab, const struct predict_entry *e, const struct technique_counts *c,
                     int counted, const struct grade_lab_result *result, struct tally *tally, char *text, size_t size)
{
    const struct question *q = question_of(lab->name, e->question);
    char mine[48] = "no prediction", figure[32], theirs[32];
    const char *why = "";
    double v = q ? measured(lab, q, c, counted, result, &why) : -1;
    tally->questions++;
    tally->predicted += e->predicted;
    tally->answered += e->answered;
    if (e->numeric) {
        format_figure(e->prediction, figure, sizeof figure);
        snprintf(mine, sizeof mine, "predicted %s", figure);
    } else if (e->predicted) {
        snprintf(mine, sizeof mine, "predicted in words");
    }
    clk_append(text, size, "\nquestion %d: %s", e->question, mine);
    if (!q) {
        clk_append(text, size, "; the grader measures no figure for it (the handout's Measure line says how)");
    } else if (v < 0) {
        clk_append(text, size, "; not measured: %s", why);
    } else {
        int within = e->numeric && fabs(e->prediction - v) <= q->margin * fabs(v) + 1e-9;
        tally->measured += e->numeric;
        tally->within += within;
        format_figure(v, theirs, sizeof theirs);
        clk_append(text, size, "; measured %s, %s%s", theirs, q->what,
                   !e->numeric ? "" : within ? ": within the margin" : ": outside the margin");
    }
    clk_append(text, size, "%s", e->answered ? "; answered" : "; no answer yet");
}

void prediction_test_run(const char *dir, const struct grade_lab_spec *lab, const struct technique_counts *counts,
                         int counted, struct grade_lab_result *result)
{
    static char text[4096];
    struct predict_entry entries[PREDICT_MAX_QUESTIONS];
    struct tally tally = {0};
    char *answers = read_answers(dir, lab->name);
    if (!answers)
        return;
    int count = predict_parse(answers, entries, PREDICT_MAX_QUESTIONS);
    free(answers);
    text[0] = '\0';
    for (int i = 0; i < count; i++)
        describe(lab, &entries[i], counts, counted, result, &tally, text, sizeof text);
    char head[256];
    snprintf(head, sizeof head, "%d of %d questions predicted, %d answered; %d of %d predictions within their margin "
             "of what was measured (%s/%s)", tally.predicted, tally.questions, tally.answered, tally.within,
             tally.measured, lab->name, PREDICT_FILE);
    size_t head_length = strlen(head), length = strlen(text);
    if (head_length + length + 1 < sizeof text) {
        memmove(text + head_length, text, length + 1);
        memcpy(text, head, head_length);
    }
    struct grade_test *test = result_add(result, PREDICT_TEST, 0, 0, 1, text);
    if (!test)
        return;
    test->informational = 1;
    test->noted = 1; /* each prediction shows beside its figure, passed or not */
    snprintf(test->metrics, sizeof test->metrics, "questions=%d;predicted=%d;answered=%d;measured=%d;within=%d",
             tally.questions, tally.predicted, tally.answered, tally.measured, tally.within);
}

void predict_tally(const struct grade_lab_result *result, int *predicted, int *within)
{
    for (int t = 0; t < result->test_count; t++) {
        const char *m = result->tests[t].metrics;
        if (strcmp(result->tests[t].name, PREDICT_TEST) != 0 || !strstr(m, "questions="))
            continue;
        *predicted += (int)metric_of(m, "predicted");
        *within += (int)metric_of(m, "within");
    }
}
