#include "report/html.h"

#include "files.h"
#include "judge/mismatch.h"
#include "report/outfile.h"
#include "judge/safetext.h"
#include "report/record.h"
#include "judge/profile.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_TESTS 256
#define MAX_LABS 32
#define MAX_GROUPS 512
#define STUDENTS_DIR "students" /* student pages apart from the class page: a student named index keeps theirs */
#define STYLE "body{font-family:sans-serif;max-width:60em;margin:2em auto;color:#222}" \
              "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2em .5em;text-align:left}" \
              "pre{background:#f6f6f6;padding:.5em;white-space:pre-wrap}.pass{color:#276749}.fail{color:#c53030}"

struct test_row {
    char lab[16], test[32];
    double score, max;
    int passed, informational, pending; /* pending: speed, decided on the course's device alone */
    char *output;
};

struct student_row {
    char name[256];
    struct test_row tests[MAX_TESTS];
    int count;
    double total, max;
    int predicted, within; /* predictions written, and those within their margin of the measured figure */
    double rates[MAX_LABS]; /* by the class's lab index; 0: not timed */
    char devices[MAX_LABS][128];
};

struct class_data {
    struct student_row *students;
    int count;
    char labs[MAX_LABS][16];
    char units[MAX_LABS][16];
    int lab_count;
    const char *kit_root;
};

static int find_lab(const struct class_data *c, const char *lab)
{
    for (int i = 0; i < c->lab_count; i++)
        if (strcmp(c->labs[i], lab) == 0)
            return i;
    return -1;
}

/* The index of lab in the class, added when it is new; -1 when the class has too many. */
static int lab_index(struct class_data *c, const char *lab)
{
    int found = find_lab(c, lab);
    if (found >= 0 || c->lab_count == MAX_LABS)
        return found;
    safetext_cut(c->labs[c->lab_count], sizeof c->labs[0], lab, strlen(lab));
    return c->lab_count++;
}

/* Writes text as XML character data: within XML 1.0's Char production (safe text), and markup escaped. */
static void escape(FILE *out, const char *text)
{
    char *clean = safetext_clean(text, 0);
    for (const char *p = clean ? clean : ""; *p; p++)
        if (*p == '<')
            fputs("&lt;", out);
        else if (*p == '>')
            fputs("&gt;", out);
        else if (*p == '&')
            fputs("&amp;", out);
        else if (*p == '"')
            fputs("&quot;", out);
        else
            fputc(*p, out);
    free(clean);
}

/* A link to a student's page from the class page (names come from file names: escaped all the same). */
static void student_link(FILE *out, const char *name)
{
    fputs("<a href=\"" STUDENTS_DIR "/", out);
    escape(out, name);
    fputs(".html\">", out);
    escape(out, name);
    fputs("</a>", out);
}

/* Points as a results file shows them: two decimals. */
static double points(double value)
{
    return round(value * 100.0) / 100.0;
}

/* A count of the predictions test's, or 0 when absent or not a sensible count. */
static int count_of(const struct grade_test *test, const char *key)
{
    double v = strstr(test->metrics, "questions=") ? record_metric(test->metrics, key) : 0.0;
    return v > 0 && v < 1000 ? (int)v : 0;
}

/* One test of lab as a row of s: its name as the results show it ("(informational)" kept, "(pending)" dropped:
   the same test as a student's scored one), its points to two decimals, its output as safe text. */
static void add_test(struct class_data *c, const char *lab, const struct grade_test *test, struct student_row *s)
{
    struct test_row *t = &s->tests[s->count];
    char name[128], *output = safetext_clean(test->reason, 0);
    if (s->count == MAX_TESTS) {
        free(output);
        return;
    }
    snprintf(name, sizeof name, "%s%s", test->name, test->informational ? " (informational)" : "");
    safetext_cut(t->lab, sizeof t->lab, lab, strlen(lab));
    safetext_cut(t->test, sizeof t->test, name, strlen(name));
    t->score = test->informational ? 0.0 : points(test->score);
    t->max = test->informational ? 0.0 : points(test->max);
    t->passed = !test->pending && test->passed;
    t->informational = t->max == 0;
    t->pending = test->pending;
    s->predicted += count_of(test, "predicted");
    s->within += count_of(test, "within");
    t->output = output ? output : strdup("");
    lab_index(c, t->lab);
    s->count++;
}

/* The tests of a student's record, a lab's set-up error first among its own, and each lab's rate: its speed
   test's (0 when not timed), on its device. */
static void read_tests(struct class_data *c, const struct record *r, struct student_row *s)
{
    for (int l = 0; l < r->count; l++) {
        const struct grade_lab_result *result = &r->results[l];
        if (result->setup_error) {
            struct grade_test setup = {.name = "set-up", .reason = result->setup_error};
            add_test(c, result->lab, &setup, s);
        }
        for (int t = 0; t < result->test_count; t++)
            add_test(c, result->lab, &result->tests[t], s);
    }
    for (int l = 0, i; l < r->count; l++) {
        const struct grade_lab_result *result = &r->results[l];
        if (!r->units[l][0] || (i = lab_index(c, result->lab)) < 0)
            continue;
        s->rates[i] = record_rate(result);
        safetext_cut(c->units[i], sizeof c->units[i], r->units[l], strlen(r->units[l]));
        safetext_cut(s->devices[i], sizeof s->devices[i], result->device, strlen(result->device));
    }
}

/* Loads results_dir's NAME.record into s; a student whose record is missing or unreadable is listed with no tests. */
static void load_student(struct class_data *c, int dirfd, const char *name, struct student_row *s)
{
    static struct record r;
    memset(s, 0, sizeof *s);
    safetext_cut(s->name, sizeof s->name, name, strlen(name));
    if (record_read(dirfd, name, &r) == 0)
        read_tests(c, &r, s);
    record_free(&r);
    for (int t = 0; t < s->count; t++) {
        s->total += s->tests[t].score;
        s->max += s->tests[t].max;
    }
}

/* The rows of a mismatch map in a test's output, drawn as a heat map: one square per cell. */
static void map_svg(FILE *out, const char *output)
{
    const char *colours[] = {"#38a169", "#e53e3e", "#d69e2e", "#805ad5"}, *marks = ".Xo!";
    int rows = 0, cols = 0;
    for (const char *p = output; (p = strstr(p, MISMATCH_ROW)) != NULL; p++, rows++) {
        const char *end = strchr(p + strlen(MISMATCH_ROW), '|');
        if (end && end - p - (int)strlen(MISMATCH_ROW) > cols)
            cols = (int)(end - p - (int)strlen(MISMATCH_ROW));
    }
    if (rows == 0)
        return;
    fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" role=\"img\">"
                 "<title>mismatch map</title>",
            cols * 10, rows * 10);
    int r = 0;
    for (const char *p = output; (p = strstr(p, MISMATCH_ROW)) != NULL; p++, r++) {
        const char *cell = p + strlen(MISMATCH_ROW);
        for (int col = 0; cell[col] && cell[col] != '|' && cell[col] != '\n'; col++) {
            const char *kind = strchr(marks, cell[col]);
            if (kind && cell[col])
                fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"9\" height=\"9\" fill=\"%s\"/>", col * 10, r * 10,
                        colours[kind - marks]);
        }
    }
    fputs("</svg><p>green right, red wrong, yellow never written, purple written outside the matrix</p>", out);
}

/* The share of the device's peak a speed test's output reports ("... 48% of the FMA peak ..."), or -1. */
static double peak_share(const char *output)
{
    const char *at = strstr(output, "% of the ");
    const char *start = at;
    while (start && start > output && (isdigit((unsigned char)start[-1]) || start[-1] == '.'))
        start--;
    return at && start < at ? atof(start) / 100.0 : -1.0;
}

/* The solution's share of the peak on device, from the kit's docs/results/bench-DEVICE.csv, or -1. */
static double solution_share(const char *kit_root, const char *device, const char *lab)
{
    char name[300], path[PATH_MAX + 320], line[1024], key[40];
    double share = -1.0;
    FILE *in;
    profile_file_name(device, name, sizeof name);
    snprintf(path, sizeof path, "%s/docs/results/bench-%.*s.csv", kit_root, (int)(strlen(name) - 5), name);
    snprintf(key, sizeof key, ",%s,", lab);
    if (!device[0] || !(in = fopen(path, "r")))
        return -1.0;
    while (share < 0 && fgets(line, sizeof line, in)) {
        char *field = strstr(line, key);
        for (int i = 0; field && i < 7; i++) /* lab, kernel, size, ms, rate, unit, peak: then fraction */
            field = strchr(field + 1, ',');
        if (field)
            share = atof(field + 1);
    }
    fclose(in);
    return share;
}

/* The kernel's position under the device's roofline, beside the solution's: at the lab's arithmetic intensity the
   roof is the copy bandwidth (the vector labs, the transpose) or the FMA peak (the matrix products), and each bar is
   the share of that roof the kernel reached. */
static void speed_svg(FILE *out, double mine, double solution)
{
    fputs("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"420\" height=\"56\" role=\"img\">"
          "<title>share of the roofline at this lab's intensity</title>",
          out);
    const double shares[] = {mine, solution};
    const char *names[] = {"yours", "solution"};
    for (int i = 0; i < 2; i++) {
        if (shares[i] < 0)
            continue;
        double width = 300 * (shares[i] > 1 ? 1 : shares[i]);
        fprintf(out, "<text x=\"0\" y=\"%d\" font-size=\"12\">%s</text><rect x=\"70\" y=\"%d\" width=\"%.0f\" "
                     "height=\"18\" fill=\"%s\"/><text x=\"%.0f\" y=\"%d\" font-size=\"12\">%.0f%%</text>",
                i * 26 + 15, names[i], i * 26 + 2, width, i ? "#a0aec0" : "#2b6cb0", 76 + width, i * 26 + 15,
                100 * shares[i]);
    }
    fputs("</svg><p>the share of the device's roof (copy bandwidth or FMA peak, whichever bounds this lab) that your "
          "kernel and the solution reached</p>", out);
}

static void page_head(FILE *out, const char *title)
{
    /* Polyglot XHTML: a browser reads it as HTML, and xmllint can check that it is well formed. */
    fputs("<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\"><head><meta charset=\"utf-8\"/>"
          "<title>", out);
    escape(out, title);
    fputs("</title><style>" STYLE "</style></head><body>\n<h1>", out);
    escape(out, title);
    fputs("</h1>\n", out);
}

static void write_test(FILE *out, const struct class_data *c, const struct student_row *s, const struct test_row *t)
{
    fprintf(out, "<tr><td class=\"%s\">%s</td><td>", t->informational || t->pending ? "" : t->passed ? "pass" : "fail",
            t->informational ? "&#183;" : t->pending ? "&#8230;" : t->passed ? "&#10003;" : "&#10007;");
    escape(out, t->test);
    fprintf(out, "</td><td>%.1f / %g%s</td><td><pre>", t->score, t->max, t->pending ? " (pending)" : "");
    escape(out, t->output);
    fputs("</pre>", out);
    if (strcmp(t->test, "host program") != 0) /* a host program's output may print anything, maps too */
        map_svg(out, t->output);
    double share = t->informational || t->pending ? peak_share(t->output) : -1.0;
    if (share >= 0) {
        int l = find_lab(c, t->lab);
        speed_svg(out, share, l >= 0 ? solution_share(c->kit_root, s->devices[l], t->lab) : -1.0);
    }
    fputs("</td></tr>\n", out);
}

/* Writes text between the tags of an element, escaped. */
static void element(FILE *out, const char *tag, const char *text)
{
    fprintf(out, "<%s>", tag);
    escape(out, text);
    fprintf(out, "</%s>", tag);
}

/* Writes a student's page, file in the folder dirfd, linking to the class page when it is part of a class report. */
static int write_student(const struct class_data *c, const struct student_row *s, int dirfd, const char *file,
                         int in_class)
{
    char title[300];
    FILE *out;
    if (!(out = outfile_create(dirfd, file)))
        return -1;
    snprintf(title, sizeof title, "%s: %.1f / %g", s->name, s->total, s->max);
    page_head(out, title);
    if (in_class)
        fputs("<p><a href=\"../index.html\">the class</a></p>\n", out);
    for (int l = 0; l < c->lab_count; l++) {
        element(out, "h2", c->labs[l]);
        fputs("\n<table><tr><th></th><th>test</th><th>points</th><th>why</th></tr>\n", out);
        for (int t = 0; t < s->count; t++)
            if (strcmp(s->tests[t].lab, c->labs[l]) == 0)
                write_test(out, c, s, &s->tests[t]);
        fputs("</table>\n", out);
    }
    fputs("</body></html>\n", out);
    return fclose(out);
}

/* A lab's score of a student, and its maximum. */
static double lab_score(const struct student_row *s, const char *lab, double *max)
{
    double score = 0.0;
    *max = 0.0;
    for (int t = 0; t < s->count; t++)
        if (strcmp(s->tests[t].lab, lab) == 0) {
            score += s->tests[t].score;
            *max += s->tests[t].max;
        }
    return score;
}

/* Ten bars: how many students scored 0-10%, 10-20%, ... 90-100% of the lab's points. */
static void histogram_svg(FILE *out, const struct class_data *c, const char *lab)
{
    int bins[10] = {0}, most = 1;
    for (int i = 0; i < c->count; i++) {
        double max, score = lab_score(&c->students[i], lab, &max);
        int bin = max > 0 ? (int)(10 * score / max) : 0;
        bins[bin > 9 ? 9 : bin]++;
    }
    for (int b = 0; b < 10; b++)
        most = bins[b] > most ? bins[b] : most;
    fputs("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"420\" height=\"150\" role=\"img\"><title>scores</title>",
          out);
    for (int b = 0; b < 10; b++) {
        int height = 100 * bins[b] / most;
        fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"36\" height=\"%d\" fill=\"#2b6cb0\"/>"
                     "<text x=\"%d\" y=\"%d\" font-size=\"11\">%d</text><text x=\"%d\" y=\"146\" font-size=\"10\">%d%%"
                     "</text>",
                b * 40 + 2, 120 - height, height, b * 40 + 14, 116 - height, bins[b], b * 40 + 6, b * 10);
    }
    fputs("<text x=\"0\" y=\"134\" font-size=\"10\">students by share of the lab's points (the last bar: 90 to 100%)"
          "</text>", out);
    fputs("</svg>\n", out);
}

/* One row of the pass-rate table: how many of the students that ran the test passed it. */
static void pass_rate(FILE *out, const struct class_data *c, const char *lab, const char *test)
{
    int passed = 0, seen = 0;
    for (int i = 0; i < c->count; i++)
        for (int u = 0; u < c->students[i].count; u++)
            if (!strcmp(c->students[i].tests[u].lab, lab) && !strcmp(c->students[i].tests[u].test, test)) {
                seen++;
                passed += c->students[i].tests[u].passed;
            }
    fputs("<tr>", out);
    element(out, "td", test);
    fprintf(out, "<td>%d of %d (%.0f%%)</td></tr>\n", passed, seen, seen ? 100.0 * passed / seen : 0.0);
}

/* The pass rate of each test of the lab, over every test any student ran (a student with no results, as a stray
   file is, hides none). */
static void pass_rates(FILE *out, const struct class_data *c, const char *lab)
{
    const char *tests[MAX_TESTS];
    int count = 0;
    for (int i = 0; i < c->count; i++)
        for (int t = 0; t < c->students[i].count; t++) {
            const struct test_row *row = &c->students[i].tests[t];
            int known = 0;
            for (int k = 0; k < count && !known; k++)
                known = !strcmp(tests[k], row->test);
            if (!strcmp(row->lab, lab) && !row->informational && !known && count < MAX_TESTS)
                tests[count++] = row->test;
        }
    fputs("<table><tr><th>test</th><th>passed</th></tr>\n", out);
    for (int k = 0; k < count; k++)
        pass_rate(out, c, lab, tests[k]);
    fputs("</table>\n", out);
}

/* A failure's reason without its numbers, so that "3 of 9 cases wrong" and "5 of 9 cases wrong" count together. */
static void reason_key(const struct test_row *t, char *key, size_t size)
{
    char whole[1024];
    size_t used = (size_t)snprintf(whole, sizeof whole, "%s: ", t->test);
    for (const char *p = t->output; *p && *p != '\n' && used + 1 < sizeof whole; p++)
        if (!isdigit((unsigned char)*p) || (used > 0 && whole[used - 1] != '#'))
            whole[used++] = isdigit((unsigned char)*p) ? '#' : *p;
    whole[used] = '\0';
    safetext_cut(key, size, whole, used); /* between characters: a cut one would make the page ill-formed */
}

struct failure_group {
    char key[200];
    int count;
    const struct student_row *example;
};

static int by_count(const void *a, const void *b)
{
    return ((const struct failure_group *)b)->count - ((const struct failure_group *)a)->count;
}

/* The five most common reasons a test of the lab failed, with how many students and one of them. */
static void common_failures(FILE *out, const struct class_data *c, const char *lab)
{
    static struct failure_group groups[MAX_GROUPS];
    int count = 0;
    for (int i = 0; i < c->count; i++)
        for (int t = 0; t < c->students[i].count; t++) {
            const struct test_row *row = &c->students[i].tests[t];
            char key[200];
            int g = 0;
            if (strcmp(row->lab, lab) || row->passed || row->informational || row->pending)
                continue;
            reason_key(row, key, sizeof key);
            while (g < count && strcmp(groups[g].key, key))
                g++;
            if (g == count && count == MAX_GROUPS)
                continue;
            if (g == count)
                groups[count++] = (struct failure_group){.example = &c->students[i]};
            snprintf(groups[g].key, sizeof groups[g].key, "%s", key);
            groups[g].count++;
        }
    qsort(groups, (size_t)count, sizeof *groups, by_count);
    fputs("<ol>\n", out);
    for (int g = 0; g < count && g < 5; g++) {
        fprintf(out, "<li>%d student%s: ", groups[g].count, groups[g].count == 1 ? "" : "s");
        escape(out, groups[g].key);
        fputs(" (e.g. ", out);
        student_link(out, groups[g].example->name);
        fputs(")</li>\n", out);
    }
    fprintf(out, "</ol>%s\n", count ? "" : "<p>no failures</p>");
}

/* The fastest and slowest timed kernels of the lab. */
static void speed_extremes(FILE *out, const struct class_data *c, int lab)
{
    int best = -1, worst = -1;
    for (int i = 0; i < c->count; i++) {
        double rate = c->students[i].rates[lab];
        if (rate <= 0)
            continue;
        if (best < 0 || rate > c->students[best].rates[lab])
            best = i;
        if (worst < 0 || rate < c->students[worst].rates[lab])
            worst = i;
    }
    if (best < 0) {
        fputs("<p>no kernel was timed (--quick, or none was right)</p>\n", out);
        return;
    }
    fputs("<p>fastest: ", out);
    student_link(out, c->students[best].name);
    fprintf(out, ", %.1f ", c->students[best].rates[lab]);
    escape(out, c->units[lab]);
    fputs("; slowest: ", out);
    student_link(out, c->students[worst].name);
    fprintf(out, ", %.1f ", c->students[worst].rates[lab]);
    escape(out, c->units[lab]);
    fputs("</p>\n", out);
}

static int write_index(const struct class_data *c, int dirfd)
{
    FILE *out;
    if (!(out = outfile_create(dirfd, "index.html")))
        return -1;
    page_head(out, "clkit: the class");
    fprintf(out, "<p>%d students.</p>\n<table><tr><th>student</th>", c->count);
    for (int l = 0; l < c->lab_count; l++)
        element(out, "th", c->labs[l]);
    fputs("<th>total</th><th>predictions within their margin</th></tr>\n", out);
    for (int i = 0; i < c->count; i++) {
        const struct student_row *s = &c->students[i];
        fputs("<tr><td>", out);
        student_link(out, s->name);
        fputs("</td>", out);
        for (int l = 0; l < c->lab_count; l++) {
            double max, score = lab_score(s, c->labs[l], &max);
            fprintf(out, "<td>%.1f / %g</td>", score, max);
        }
        fprintf(out, "<td>%.1f / %g</td><td>%d of %d</td></tr>\n", s->total, s->max, s->within, s->predicted);
    }
    fputs("</table>\n", out);
    for (int l = 0; l < c->lab_count; l++) {
        element(out, "h2", c->labs[l]);
        fputs("\n<h3>scores</h3>\n", out);
        histogram_svg(out, c, c->labs[l]);
        fputs("<h3>pass rate of each test</h3>\n", out);
        pass_rates(out, c, c->labs[l]);
        fputs("<h3>most common failures</h3>\n", out);
        common_failures(out, c, c->labs[l]);
        fputs("<h3>speed</h3>\n", out);
        speed_extremes(out, c, l);
    }
    fputs("</body></html>\n", out);
    return fclose(out);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(((const struct student_row *)a)->name, ((const struct student_row *)b)->name);
}

/* Loads the listed students' NAME.record from dir into c; returns how many, or -1 when dir cannot be opened. */
static int load_class(const char *dir, const char *const *names, int count, struct class_data *c)
{
    int dirfd = outfile_dir(dir, 0);
    if (dirfd < 0)
        return -1;
    c->students = calloc((size_t)(count > 0 ? count : 1), sizeof *c->students);
    for (int i = 0; c->students && i < count; i++)
        load_student(c, dirfd, names[i], &c->students[c->count++]);
    close(dirfd);
    qsort(c->students, (size_t)c->count, sizeof *c->students, by_name);
    return c->count;
}

/* Writes every student's page into out_dir/students and the class page into out_dir; returns 0 or -1. */
static int write_pages(const struct class_data *c, const char *out_dir)
{
    int dirfd = outfile_dir(out_dir, 1), students = dirfd < 0 ? -1 : outfile_subdir(dirfd, STUDENTS_DIR, out_dir);
    int rc = students < 0 ? -1 : 0;
    for (int i = 0; rc == 0 && i < c->count; i++) {
        char file[300];
        snprintf(file, sizeof file, "%s.html", c->students[i].name);
        rc = write_student(c, &c->students[i], students, file, 1);
    }
    if (rc == 0)
        rc = write_index(c, dirfd);
    if (students >= 0)
        close(students);
    if (dirfd >= 0)
        close(dirfd);
    return rc;
}

static void free_class(struct class_data *c)
{
    for (int i = 0; i < c->count; i++)
        for (int t = 0; t < c->students[i].count; t++)
            free(c->students[i].tests[t].output);
    free(c->students);
}

int html_write_student(const char *results_dir, const char *name, const char *out_dir, const char *kit_root)
{
    struct class_data c = {.kit_root = kit_root};
    const char *names[] = {name};
    int dirfd = -1, rc = -1;
    if (load_class(results_dir, names, 1, &c) <= 0 || c.students[0].count == 0)
        fprintf(stderr, "grade: no results to report in %s/%s.record\n", results_dir, name);
    else if ((dirfd = outfile_dir(out_dir, 1)) < 0 || write_student(&c, &c.students[0], dirfd, "index.html", 0) != 0)
        fprintf(stderr, "grade: cannot write %s/index.html\n", out_dir);
    else {
        printf("wrote %s/index.html\n", out_dir);
        rc = 0;
    }
    if (dirfd >= 0)
        close(dirfd);
    free_class(&c);
    return rc;
}

int html_write_class(const char *results_dir, const char *out_dir, const char *kit_root, const char *const *names,
                     int count)
{
    struct class_data c = {.kit_root = kit_root};
    int rc;
    if (load_class(results_dir, names, count, &c) <= 0) {
        fprintf(stderr, "grade: no results to report in %s (batch grading writes STUDENT.record there)\n", results_dir);
        free(c.students);
        return -1;
    }
    if ((rc = write_pages(&c, out_dir)) != 0)
        fprintf(stderr, "grade: cannot write the report in %s\n", out_dir);
    else
        printf("wrote %s/index.html and a page per student in %s/" STUDENTS_DIR "/ (%d)\n", out_dir, out_dir,
               c.count);
    free_class(&c);
    return rc;
}
