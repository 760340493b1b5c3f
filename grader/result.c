#include "result.h"

#include "safetext.h"

#include <math.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ASCII unit and record separators frame the fields; they are removed from the text itself. */
#define FIELD '\x1f'
#define RECORD '\x1e'
#define REASON_CAP 16384

static void write_all(int fd, const char *data, size_t length)
{
    while (length > 0) {
        ssize_t done = write(fd, data, length);
        if (done <= 0)
            return;
        data += done;
        length -= (size_t)done;
    }
}

static void write_fields(int fd, const char *const *fields, int count)
{
    size_t total = 2;
    char *buffer, *p;
    for (int i = 0; i < count; i++)
        total += strlen(fields[i]) + 1;
    buffer = malloc(total);
    if (!buffer)
        return;
    p = buffer;
    for (int i = 0; i < count; i++) {
        for (const char *s = fields[i]; *s; s++)
            *p++ = (*s == FIELD || *s == RECORD) ? '?' : *s;
        *p++ = i + 1 < count ? FIELD : RECORD;
    }
    write_all(fd, buffer, (size_t)(p - buffer));
    free(buffer);
}

void record_begin(int fd, const char *test_name)
{
    const char *fields[] = {"B", test_name};
    write_fields(fd, fields, 2);
}

void record_progress(int fd, const char *text)
{
    const char *fields[] = {"P", text};
    write_fields(fd, fields, 2);
}

void record_test(int fd, const struct grade_test *test)
{
    char score[32], max[32], flags[8];
    const char *fields[] = {"T", test->name, score, max, flags, test->reason ? test->reason : "", test->metrics};
    snprintf(score, sizeof score, "%.17g", test->score);
    snprintf(max, sizeof max, "%.17g", test->max);
    snprintf(flags, sizeof flags, "%d%d", test->passed ? 1 : 0, test->informational ? 1 : 0);
    write_fields(fd, fields, 7);
}

void record_device(int fd, const char *name)
{
    const char *fields[] = {"D", name};
    write_fields(fd, fields, 2);
}

void record_setup_error(int fd, const char *message)
{
    const char *fields[] = {"E", message};
    write_fields(fd, fields, 2);
}

struct grade_test *result_add(struct grade_lab_result *result, const char *name, double score, double max,
                              int passed, const char *reason)
{
    struct grade_test *test;
    if (result->test_count >= GRADE_MAX_TESTS)
        return NULL;
    test = &result->tests[result->test_count++];
    memset(test, 0, sizeof *test);
    snprintf(test->name, sizeof test->name, "%s", name);
    test->score = score;
    test->max = max;
    test->passed = passed;
    /* Reasons carry compiler logs and program output: whatever a submission printed is cleaned here. */
    test->reason = safetext_clean(reason ? reason : "", REASON_CAP);
    if (!isfinite(score) || !isfinite(max))
        test->score = test->max = 0.0, test->passed = 0;
    return test;
}

static int split_fields(char *record, char **fields, int max)
{
    int count = 0;
    char *p = record;
    fields[count++] = p;
    for (; *p && count < max; p++)
        if (*p == FIELD) {
            *p = '\0';
            fields[count++] = p + 1;
        }
    return count;
}

static void apply_record(char *record, struct grade_lab_result *result)
{
    char *f[7];
    int count = split_fields(record, f, 7);
    if (count == 2 && f[0][0] == 'B')
        snprintf(result->running, sizeof result->running, "%s", f[1]);
    else if (count == 2 && f[0][0] == 'P')
        snprintf(result->progress, sizeof result->progress, "%s", f[1]);
    else if (count == 2 && f[0][0] == 'D')
        snprintf(result->device, sizeof result->device, "%s", f[1]);
    else if (count == 2 && f[0][0] == 'E') {
        free(result->setup_error);
        result->setup_error = strdup(f[1]);
    } else if (count == 7 && f[0][0] == 'T') {
        struct grade_test *test = result_add(result, f[1], atof(f[2]), atof(f[3]), f[4][0] == '1', f[5]);
        if (test) {
            test->informational = f[4][1] == '1';
            snprintf(test->metrics, sizeof test->metrics, "%s", f[6]);
        }
        result->running[0] = '\0';
    }
}

int record_parse(const char *data, size_t length, struct grade_lab_result *result)
{
    int parsed = 0;
    size_t start = 0;
    for (size_t i = 0; i < length; i++) {
        if (data[i] != RECORD)
            continue;
        char *record = strndup(data + start, i - start);
        if (record) {
            apply_record(record, result);
            free(record);
            parsed++;
        }
        start = i + 1;
    }
    return parsed;
}

void result_free(struct grade_lab_result *result)
{
    for (int i = 0; i < result->test_count; i++)
        free(result->tests[i].reason);
    free(result->setup_error);
    result->test_count = 0;
    result->setup_error = NULL;
}

void result_append(char *text, size_t size, const char *format, const char *a, const char *b)
{
    size_t used = strlen(text);
    if (used + 1 < size)
        snprintf(text + used, size - used, format, a, b);
}
