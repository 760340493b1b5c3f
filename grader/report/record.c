#include "report/record.h"

#include "report/outfile.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

static cJSON *test_item(const struct grade_test *t)
{
    cJSON *item = cJSON_CreateObject();
    cJSON_AddStringToObject(item, "name", t->name);
    cJSON_AddNumberToObject(item, "score", t->score);
    cJSON_AddNumberToObject(item, "max", t->max);
    cJSON_AddNumberToObject(item, "passed", t->passed);
    cJSON_AddNumberToObject(item, "informational", t->informational);
    cJSON_AddNumberToObject(item, "pending", t->pending);
    cJSON_AddNumberToObject(item, "noted", t->noted);
    cJSON_AddStringToObject(item, "reason", t->reason ? t->reason : "");
    cJSON_AddStringToObject(item, "metrics", t->metrics);
    cJSON_AddStringToObject(item, "cause", t->cause);
    cJSON_AddNumberToObject(item, "seconds", t->seconds);
    return item;
}

static cJSON *lab_item(const struct export_run *run, int l)
{
    const struct grade_lab_result *result = &run->results[l];
    cJSON *item = cJSON_CreateObject(), *tests = cJSON_AddArrayToObject(item, "tests");
    cJSON_AddStringToObject(item, "lab", result->lab);
    cJSON_AddStringToObject(item, "device", result->device);
    cJSON_AddNumberToObject(item, "seconds", result->seconds);
    cJSON_AddStringToObject(item, "unit", run->units && run->units[l] ? run->units[l] : "");
    if (result->setup_error)
        cJSON_AddStringToObject(item, "setup_error", result->setup_error);
    for (int t = 0; tests && t < result->test_count; t++)
        cJSON_AddItemToArray(tests, test_item(&result->tests[t]));
    return item;
}

/* Prints root to out and frees it; returns 0, or -1 when memory ran out. */
static int print_record(FILE *out, cJSON *root)
{
    char *text = root ? cJSON_Print(root) : NULL;
    if (text)
        fprintf(out, "%s\n", text);
    free(text);
    cJSON_Delete(root);
    return text && !ferror(out) ? 0 : -1;
}

static int write_record(FILE *out, const struct export_run *run)
{
    cJSON *root = cJSON_CreateObject(), *labs = cJSON_AddArrayToObject(root, "labs");
    cJSON_AddStringToObject(root, "record", "clkit");
    cJSON_AddStringToObject(root, "version", run->version ? run->version : "unknown");
    cJSON_AddNumberToObject(root, "seconds", run->seconds);
    for (int l = 0; labs && l < run->count; l++)
        cJSON_AddItemToArray(labs, lab_item(run, l));
    return print_record(out, root);
}

int record_write_not_graded(FILE *out, const char *why)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "record", "clkit");
    cJSON_AddStringToObject(root, "why", why ? why : "");
    cJSON_AddArrayToObject(root, "labs");
    return print_record(out, root);
}

const struct result_writer result_writer_record = {
    .option = "record",
    .help = "write the kit's own result record (what a class's reports are written from)",
    .write = write_record,
};

/* Copies item's string field key into text (size bytes, cut), or "" when absent. */
static void string_of(const cJSON *item, const char *key, char *text, size_t size)
{
    const char *value = cJSON_GetStringValue(cJSON_GetObjectItem(item, key));
    snprintf(text, size, "%s", value ? value : "");
}

static double number_of(const cJSON *item, const char *key)
{
    return cJSON_GetNumberValue(cJSON_GetObjectItem(item, key)); /* NaN when absent */
}

static void read_test(const cJSON *item, struct grade_test *t)
{
    const char *reason = cJSON_GetStringValue(cJSON_GetObjectItem(item, "reason"));
    string_of(item, "name", t->name, sizeof t->name);
    t->score = number_of(item, "score");
    t->max = number_of(item, "max");
    t->passed = number_of(item, "passed") == 1;
    t->informational = number_of(item, "informational") == 1;
    t->pending = number_of(item, "pending") == 1;
    t->noted = number_of(item, "noted") == 1;
    t->reason = strdup(reason ? reason : "");
    string_of(item, "metrics", t->metrics, sizeof t->metrics);
    string_of(item, "cause", t->cause, sizeof t->cause);
    t->seconds = number_of(item, "seconds");
}

static void read_lab(const cJSON *item, struct grade_lab_result *result, char *unit, size_t unit_size)
{
    const cJSON *test;
    const char *setup = cJSON_GetStringValue(cJSON_GetObjectItem(item, "setup_error"));
    string_of(item, "lab", result->lab, sizeof result->lab);
    string_of(item, "device", result->device, sizeof result->device);
    string_of(item, "unit", unit, unit_size);
    result->seconds = number_of(item, "seconds");
    result->setup_error = setup ? strdup(setup) : NULL;
    cJSON_ArrayForEach(test, cJSON_GetObjectItem(item, "tests"))
        if (result->test_count < GRADE_MAX_TESTS)
            read_test(test, &result->tests[result->test_count++]);
}

/* The whole of a small regular file, not through a link (caller frees), or NULL. */
static char *read_text(int dirfd, const char *name)
{
    FILE *in = outfile_read(dirfd, name);
    char *text = NULL, buffer[8192];
    size_t size = 0, n;
    FILE *copy = in ? open_memstream(&text, &size) : NULL;
    while (copy && (n = fread(buffer, 1, sizeof buffer, in)) > 0 && size < (16u << 20))
        fwrite(buffer, 1, n, copy);
    if (copy)
        fclose(copy);
    if (in)
        fclose(in);
    return text;
}

/* The record's tag, "clkit" in a record ("" when absent). */
static const char *record_tag(const cJSON *root)
{
    const char *tag = cJSON_GetStringValue(cJSON_GetObjectItem(root, "record"));
    return tag ? tag : "";
}

int record_read(int dirfd, const char *name, struct record *r)
{
    char file[300], *text;
    const cJSON *lab;
    cJSON *root;
    memset(r, 0, sizeof *r);
    snprintf(file, sizeof file, "%s.record", name);
    text = read_text(dirfd, file);
    root = text ? cJSON_Parse(text) : NULL;
    free(text);
    if (!root || strcmp(record_tag(root), "clkit") != 0) {
        cJSON_Delete(root);
        return -1;
    }
    string_of(root, "why", r->why, sizeof r->why);
    cJSON_ArrayForEach(lab, cJSON_GetObjectItem(root, "labs"))
        if (r->count < JUDGE_MAX_LABS) {
            read_lab(lab, &r->results[r->count], r->units[r->count], sizeof r->units[0]);
            r->count++;
        }
    cJSON_Delete(root);
    return 0;
}

void record_free(struct record *r)
{
    for (int l = 0; l < r->count; l++)
        result_free(&r->results[l]);
    r->count = 0;
}

double record_metric(const char *metrics, const char *key)
{
    char pattern[32];
    snprintf(pattern, sizeof pattern, "%s=", key);
    for (const char *p = strstr(metrics, pattern); p; p = strstr(p + 1, pattern))
        if (p == metrics || p[-1] == ';')
            return strtod(p + strlen(pattern), NULL);
    return 0.0;
}

double record_rate(const struct grade_lab_result *result)
{
    const char *metrics = "";
    for (int t = 0; t < result->test_count; t++)
        if (strstr(result->tests[t].metrics, "rate=")) /* the speed test's, scored or reported */
            metrics = result->tests[t].metrics;
    return record_metric(metrics, "rate");
}

int record_status(const struct grade_lab_result *results, int count)
{
    int all_passed = 1;
    for (int l = 0; l < count; l++) {
        if (results[l].setup_error)
            return 2;
        for (int t = 0; t < results[l].test_count; t++)
            all_passed &= results[l].tests[t].passed || results[l].tests[t].informational ||
                          results[l].tests[t].pending;
    }
    return all_passed ? 0 : 1;
}
