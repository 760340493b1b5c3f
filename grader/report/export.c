#include "report/export.h"

#include "report/outfile.h"
#include "report/report.h"
#include "judge/safetext.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Points as Gradescope shows them: two decimals, so that a sum of thirds never reads 3.3333333333333335. */
static double points(double value)
{
    return round(value * 100.0) / 100.0;
}

static double metric(const char *metrics, const char *key);

static cJSON *json_test(const char *lab, const struct grade_test *test)
{
    cJSON *item = cJSON_CreateObject();
    char name[128], *output = safetext_clean(test->reason, 0);
    cJSON *extra = NULL;
    snprintf(name, sizeof name, "%s: %s%s", lab, test->name,
             test->informational ? " (informational)" : test->pending ? " (pending)" : "");
    cJSON_AddStringToObject(item, "name", name);
    cJSON_AddNumberToObject(item, "score", test->informational ? 0.0 : points(test->score));
    cJSON_AddNumberToObject(item, "max_score", test->informational ? 0.0 : points(test->max));
    /* Pending is neither: Gradescope shows a test without a status by its score, the output says why. */
    if (!test->pending)
        cJSON_AddStringToObject(item, "status", test->passed ? "passed" : "failed");
    cJSON_AddStringToObject(item, "output", output ? output : "");
    cJSON_AddStringToObject(item, "visibility", "visible");
    if (test->cause[0] || test->pending || strstr(test->metrics, "questions="))
        extra = cJSON_AddObjectToObject(item, "extra_data");
    if (test->cause[0])
        cJSON_AddStringToObject(extra, "cause", test->cause);
    if (test->pending)
        cJSON_AddTrueToObject(extra, "pending");
    if (extra && strstr(test->metrics, "questions=")) { /* the predictions test: what the class report counts */
        const char *keys[] = {"questions", "predicted", "answered", "measured", "within"};
        for (size_t k = 0; k < sizeof keys / sizeof *keys; k++)
            cJSON_AddNumberToObject(extra, keys[k], metric(test->metrics, keys[k]));
    }
    free(output);
    return item;
}

/* The number after "key=" in a test's metrics ("size=...;rate=12.5;..."), or 0 when absent. */
static double metric(const char *metrics, const char *key)
{
    char pattern[32];
    snprintf(pattern, sizeof pattern, "%s=", key);
    for (const char *p = strstr(metrics, pattern); p; p = strstr(p + 1, pattern))
        if (p == metrics || p[-1] == ';')
            return strtod(p + strlen(pattern), NULL);
    return 0.0;
}

static void leaderboard_entry(cJSON *board, const char *lab, const char *what, double value)
{
    cJSON *entry = cJSON_CreateObject();
    char name[64];
    snprintf(name, sizeof name, "%s %s", lab, what);
    cJSON_AddStringToObject(entry, "name", name);
    cJSON_AddNumberToObject(entry, "value", value);
    cJSON_AddStringToObject(entry, "order", "desc");
    cJSON_AddItemToArray(board, entry);
}

/* Each lab's rate and speedup from its speed test, the same columns for every student (0: not measured). */
static cJSON *json_leaderboard(const struct export_run *run)
{
    cJSON *board = cJSON_CreateArray();
    for (int l = 0; board && run->units && l < run->count; l++) {
        const struct grade_lab_result *result = &run->results[l];
        const char *metrics = "";
        for (int t = 0; t < result->test_count; t++)
            if (strstr(result->tests[t].metrics, "rate=")) /* the speed test's, scored or reported */
                metrics = result->tests[t].metrics;
        leaderboard_entry(board, result->lab, run->units[l], metric(metrics, "rate"));
        if (run->has_baseline && run->has_baseline[l])
            leaderboard_entry(board, result->lab, "speedup", metric(metrics, "speedup"));
    }
    return board;
}

static cJSON *json_extra(const struct export_run *run)
{
    cJSON *extra = cJSON_CreateObject(), *devices = cJSON_CreateObject();
    cJSON_AddStringToObject(extra, "grader_version", run->version ? run->version : "unknown");
    for (int l = 0; devices && l < run->count; l++)
        cJSON_AddStringToObject(devices, run->results[l].lab, run->results[l].device);
    cJSON_AddItemToObject(extra, "devices", devices);
    return extra;
}

int export_json(FILE *out, const struct export_run *run)
{
    cJSON *root = cJSON_CreateObject(), *tests = cJSON_CreateArray();
    double score = 0.0;
    char *text, *summary = safetext_clean(run->summary, 0);
    if (!root || !tests || !summary)
        return -1;
    for (int l = 0; l < run->count; l++) {
        const struct grade_lab_result *result = &run->results[l];
        double lab_score, lab_max;
        report_score(result, &lab_score, &lab_max);
        score += lab_score;
        if (result->setup_error) {
            struct grade_test setup = {.max = 0, .reason = result->setup_error};
            snprintf(setup.name, sizeof setup.name, "set-up");
            cJSON_AddItemToArray(tests, json_test(result->lab, &setup));
        }
        for (int t = 0; t < result->test_count; t++)
            cJSON_AddItemToArray(tests, json_test(result->lab, &result->tests[t]));
    }
    /* Gradescope's documented top level has a score and no maximum: the maximum is the sum of the tests'. */
    cJSON_AddNumberToObject(root, "score", points(score));
    cJSON_AddNumberToObject(root, "execution_time", (double)(long)(run->seconds + 0.999)); /* whole seconds */
    cJSON_AddStringToObject(root, "output", summary);
    cJSON_AddStringToObject(root, "visibility", "visible");
    cJSON_AddItemToObject(root, "tests", tests);
    cJSON_AddItemToObject(root, "leaderboard", json_leaderboard(run));
    cJSON_AddItemToObject(root, "extra_data", json_extra(run));
    text = cJSON_Print(root);
    if (text)
        fprintf(out, "%s\n", text);
    free(text);
    free(summary);
    cJSON_Delete(root);
    return text ? 0 : -1;
}

/* Writes text as XML character data: markup escaped, and characters XML 1.0 forbids replaced by '?'. */
static void xml_text(FILE *out, const char *text)
{
    char *clean = safetext_clean(text, 0);
    for (const char *p = clean ? clean : ""; *p; p++) {
        unsigned char c = (unsigned char)*p;
        switch (c) {
        case '&': fputs("&amp;", out); break;
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '"': fputs("&quot;", out); break;
        case '\'': fputs("&apos;", out); break;
        default: fputc(c < 0x20 && c != '\n' && c != '\t' && c != '\r' ? '?' : c, out);
        }
    }
    free(clean);
}

/* The file a test is about: the lab's kernel, or host.c beside it for the host program's test. */
static const char *test_file(const char *kernel, const struct grade_test *test, char *path, size_t size)
{
    const char *slash = strrchr(kernel, '/');
    if (strcmp(test->name, "host program") != 0)
        return kernel;
    snprintf(path, size, "%.*s%shost.c", slash ? (int)(slash - kernel) : 0, kernel, slash ? "/" : "");
    return path;
}

/* Writes the XML attribute name="text", escaped. */
static void xml_attribute(FILE *out, const char *name, const char *text)
{
    fprintf(out, " %s=\"", name);
    xml_text(out, text);
    fputc('"', out);
}

/* One test as a testcase: a failure, an error (set-up), or passed with its reason as output; its time is the
   wall time to its verdict from the lab's previous one (tests judged together: the first carries their runs). */
static void junit_case(FILE *out, const char *classname, const struct grade_test *test, int is_error)
{
    const char *reason = test->reason ? test->reason : "";
    const char *newline = strchr(reason, '\n'), *element = is_error ? "error" : "failure";
    char first[512];
    safetext_cut(first, sizeof first, reason, newline ? (size_t)(newline - reason) : strlen(reason));
    fputs("    <testcase", out);
    xml_attribute(out, "name", test->name);
    xml_attribute(out, "classname", classname);
    fprintf(out, " time=\"%.3f\">\n", test->seconds > 0 ? test->seconds : 0.0);
    if (!is_error && test->pending) {
        fputs("      <skipped", out);
        xml_attribute(out, "message", first);
        fputs("/>\n      <system-out>", out);
        xml_text(out, reason);
        fputs("</system-out>\n", out);
    } else if (is_error || (!test->passed && !test->informational)) {
        fprintf(out, "      <%s", element);
        xml_attribute(out, "message", first);
        fputc('>', out);
        xml_text(out, reason);
        fprintf(out, "</%s>\n", element);
    } else {
        fputs("      <system-out>", out);
        xml_text(out, reason);
        fputs("</system-out>\n", out);
    }
    fputs("    </testcase>\n", out);
}

/* A lab's counts: tests (with a set-up case), failures (informational and pending tests never fail), errors
   (set-up), skipped (pending: decided on the course's device). */
static void junit_counts(const struct grade_lab_result *result, int *tests, int *failures, int *errors,
                         int *skipped)
{
    *tests = result->test_count + (result->setup_error ? 1 : 0);
    *errors = result->setup_error ? 1 : 0;
    *failures = *skipped = 0;
    for (int t = 0; t < result->test_count; t++) {
        *failures += !result->tests[t].passed && !result->tests[t].informational && !result->tests[t].pending;
        *skipped += result->tests[t].pending;
    }
}

static void junit_suite(FILE *out, const struct export_run *run, int l)
{
    const struct grade_lab_result *result = &run->results[l];
    const char *file = run->kernels && run->kernels[l] ? run->kernels[l] : result->lab;
    char name[256];
    int tests, failures, errors, skipped;
    junit_counts(result, &tests, &failures, &errors, &skipped);
    snprintf(name, sizeof name, "%s: %s", result->lab, run->titles[l]);
    fputs("  <testsuite", out);
    xml_attribute(out, "name", name);
    fprintf(out, " tests=\"%d\" failures=\"%d\" errors=\"%d\" skipped=\"%d\" time=\"%.3f\"", tests, failures, errors,
            skipped, result->seconds > 0 ? result->seconds : 0.0);
    xml_attribute(out, "file", file);
    fputs(">\n", out);
    if (result->setup_error) {
        struct grade_test setup = {.reason = result->setup_error};
        snprintf(setup.name, sizeof setup.name, "set-up");
        junit_case(out, file, &setup, 1);
    }
    for (int t = 0; t < result->test_count; t++) {
        char path[PATH_MAX + 16];
        junit_case(out, test_file(file, &result->tests[t], path, sizeof path), &result->tests[t], 0);
    }
    fputs("  </testsuite>\n", out);
}

void export_junit(FILE *out, const struct export_run *run)
{
    int tests = 0, failures = 0, errors = 0;
    for (int l = 0; l < run->count; l++) {
        int lab_tests, lab_failures, lab_errors, lab_skipped;
        junit_counts(&run->results[l], &lab_tests, &lab_failures, &lab_errors, &lab_skipped);
        tests += lab_tests;
        failures += lab_failures;
        errors += lab_errors;
    }
    fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                 "<testsuites name=\"clkit\" tests=\"%d\" failures=\"%d\" errors=\"%d\" time=\"%.3f\">\n",
            tests, failures, errors, run->seconds > 0 ? run->seconds : 0.0);
    for (int l = 0; l < run->count; l++)
        junit_suite(out, run, l);
    fputs("</testsuites>\n", out);
}

/* The kernel line a reason names ("lab1/vadd.cl:5" or "vadd.cl:5:2"), or 0. */
static int reason_line(const char *reason)
{
    for (const char *p = strstr(reason, ".cl:"); p; p = strstr(p + 1, ".cl:")) {
        int line = atoi(p + 4);
        if (line > 0)
            return line;
    }
    return 0;
}

/* The first line of why a lab's unscored gate (its build) failed, or NULL: the reporter lists only tests worth
   points, so their "not run" reasons carry it, or a student who deleted a kernel would never read which file. */
static const char *lab_blocker(const struct grade_lab_result *result)
{
    for (int t = 0; t < result->test_count; t++)
        if (!result->tests[t].passed && !result->tests[t].informational && !result->tests[t].pending &&
            result->tests[t].max <= 0)
            return result->tests[t].reason;
    return NULL;
}

static cJSON *classroom_test(const struct grade_lab_result *result, const struct grade_test *test, const char *file,
                             int is_error)
{
    cJSON *item = cJSON_CreateObject();
    const char *blocker = lab_blocker(result), *reason = test->reason ? test->reason : "";
    char name[128], path[PATH_MAX + 16], because[1024], *message;
    if (blocker && !test->passed && strncmp(reason, "not run", 7) == 0)
        snprintf(because, sizeof because, "%s (%.*s)", reason, (int)strcspn(blocker, "\n"), blocker), reason = because;
    message = safetext_clean(reason, 0);
    snprintf(name, sizeof name, "%s: %s", result->lab, test->name);
    cJSON_AddStringToObject(item, "name", name);
    cJSON_AddStringToObject(item, "status", is_error ? "error" : test->passed ? "pass" : "fail");
    cJSON_AddNumberToObject(item, "score", test->score);
    cJSON_AddNumberToObject(item, "max_score", test->max);
    cJSON_AddStringToObject(item, "message", message ? message : "");
    cJSON_AddNumberToObject(item, "line_no", reason_line(test->reason ? test->reason : ""));
    cJSON_AddStringToObject(item, "filename", test_file(file, test, path, sizeof path));
    cJSON_AddStringToObject(item, "test_code", "");
    free(message);
    return item;
}

/* The runner result GitHub Classroom's reporter reads: every test worth points (the reporter counts each test it
   lists), a set-up failure as an error, the maximum over every lab asked for. */
static cJSON *classroom_json(const struct export_run *run)
{
    cJSON *root = cJSON_CreateObject(), *tests = cJSON_CreateArray();
    double max = 0.0;
    int failed = 0, errored = 0;
    for (int l = 0; root && tests && l < run->count; l++) {
        const struct grade_lab_result *result = &run->results[l];
        const char *file = run->kernels && run->kernels[l] ? run->kernels[l] : result->lab;
        double lab_score, lab_max;
        report_score(result, &lab_score, &lab_max);
        max += lab_max;
        if (result->setup_error) {
            struct grade_test setup = {.reason = result->setup_error};
            snprintf(setup.name, sizeof setup.name, "set-up");
            cJSON_AddItemToArray(tests, classroom_test(result, &setup, file, 1));
            errored = 1;
        }
        for (int t = 0; t < result->test_count; t++)
            /* A pending test is not listed (the reporter would count it failed); its points stay in max. */
            if (!result->tests[t].informational && !result->tests[t].pending && result->tests[t].max > 0) {
                cJSON_AddItemToArray(tests, classroom_test(result, &result->tests[t], file, 0));
                failed |= !result->tests[t].passed;
            }
    }
    cJSON_AddNumberToObject(root, "version", 1);
    cJSON_AddStringToObject(root, "status", errored ? "error" : failed ? "fail" : "pass");
    cJSON_AddNumberToObject(root, "max_score", max);
    cJSON_AddItemToObject(root, "tests", tests);
    return root;
}

/* Standard base64 of size bytes, NUL-terminated (caller frees). */
static char *base64(const unsigned char *data, size_t size)
{
    static const char digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char *text = malloc((size + 2) / 3 * 4 + 1), *out = text;
    for (size_t i = 0; text && i < size; i += 3) {
        unsigned long bits = (unsigned long)data[i] << 16 | (i + 1 < size ? (unsigned long)data[i + 1] << 8 : 0) |
                             (i + 2 < size ? data[i + 2] : 0);
        *out++ = digits[bits >> 18 & 63];
        *out++ = digits[bits >> 12 & 63];
        *out++ = i + 1 < size ? digits[bits >> 6 & 63] : '=';
        *out++ = i + 2 < size ? digits[bits & 63] : '=';
    }
    if (text)
        *out = '\0';
    return text;
}

int export_classroom(FILE *out, const struct export_run *run)
{
    cJSON *root = classroom_json(run);
    char *json = root ? cJSON_PrintUnformatted(root) : NULL, *encoded = json ? base64((unsigned char *)json, strlen(json)) : NULL;
    if (encoded)
        fprintf(out, "%s\n", encoded);
    free(encoded);
    free(json);
    cJSON_Delete(root);
    return encoded ? 0 : -1;
}
