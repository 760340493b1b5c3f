#include "batch.h"


#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#define MAX_STUDENTS 1024

static int is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* A submission folder holds at least one labN folder; a class folder holds student folders instead. */
static int holds_labs(const char *dir)
{
    for (int lab = 1; lab <= 7; lab++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/lab%d", dir, lab);
        if (is_dir(path))
            return 1;
    }
    return 0;
}

int batch_wanted(const struct cli *cli)
{
    return cli->submission_count > 1 || (cli->submission_count == 1 && is_dir(cli->submissions[0]) &&
                                         !holds_labs(cli->submissions[0]));
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Lists the student folders: those given, or the sub-folders of the one class folder, in name order. */
static int list_students(const struct cli *cli, char **students, int max)
{
    int count = 0;
    DIR *d;
    struct dirent *entry;
    if (cli->submission_count > 1) {
        for (int i = 0; i < cli->submission_count && count < max; i++)
            students[count++] = strdup(cli->submissions[i]);
        return count;
    }
    if (!(d = opendir(cli->submissions[0])))
        return 0;
    while ((entry = readdir(d)) != NULL && count < max) {
        char path[4096];
        if (entry->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "%s/%s", cli->submissions[0], entry->d_name);
        if (is_dir(path))
            students[count++] = strdup(path);
    }
    closedir(d);
    qsort(students, (size_t)count, sizeof *students, compare_names);
    return count;
}

/* The student's name: the last component of the folder's path. */
static void student_name(const char *path, char *name, size_t size)
{
    size_t length = strlen(path);
    const char *start;
    while (length > 1 && path[length - 1] == '/')
        length--;
    start = path + length;
    while (start > path && start[-1] != '/')
        start--;
    snprintf(name, size, "%.*s", (int)(length - (size_t)(start - path)), start);
}

/* Writes a CSV field, quoted when it holds a comma, a quote or a line break. */
static void csv_field(FILE *out, const char *text, size_t length)
{
    if (strcspn(text, ",\"\n\r") >= length) {
        fprintf(out, "%.*s", (int)length, text);
        return;
    }
    fputc('"', out);
    for (size_t i = 0; i < length; i++) {
        if (text[i] == '"')
            fputc('"', out);
        fputc(text[i], out);
    }
    fputc('"', out);
}

static void csv_row(FILE *csv, const char *name, const struct grade_lab_result *results, int count, int status)
{
    double total = 0.0, total_max = 0.0;
    csv_field(csv, name, strlen(name));
    for (int i = 0; i < count; i++) {
        double score, max;
        report_score(&results[i], &score, &max);
        total += score;
        total_max += max;
        fprintf(csv, ",%.2f", score);
    }
    fprintf(csv, ",%.2f,%.2f,%s\n", total, total_max,
            status == 2 ? "set-up error" : status == 0 ? "all passed" : "some failed");
    fflush(csv);
}

/* Grades one student into DIR/NAME.txt and DIR/NAME.json and adds a row to the CSV. */
static void grade_student(struct grading *g, const char *folder, const char *results_dir, FILE *csv)
{
    static struct grade_lab_result results[CLI_MAX_LABS];
    char name[256], path[4096 + 300];
    struct timespec start;
    struct report_style terminal = g->style;
    FILE *report;
    int status = 2;
    clock_gettime(CLOCK_MONOTONIC, &start);
    memset(results, 0, sizeof results);
    student_name(folder, name, sizeof name);
    snprintf(path, sizeof path, "%s/%s.txt", results_dir, name);
    if ((report = fopen(path, "w")) != NULL) {
        report_style_for(report, g->cli->verbose, &g->style);
        if (grading_set_source(g, folder) == 0)
            status = grading_run(g, results);
        fclose(report);
    }
    g->style = terminal;
    snprintf(path, sizeof path, "%s/%s.json", results_dir, name);
    grading_write_results(g, results, grading_seconds_since(&start), path, NULL);
    csv_row(csv, name, results, g->cli->lab_count, status);
    fprintf(g->style.out, "%-24s %s\n", name, status == 2 ? "set-up error (see its .txt)" : "graded");
    for (int i = 0; i < g->cli->lab_count; i++)
        result_free(&results[i]);
}

int batch_run(struct grading *g)
{
    static char *students[MAX_STUDENTS];
    const char *results_dir = g->cli->results_dir ? g->cli->results_dir : "results";
    char path[4096];
    int count = list_students(g->cli, students, MAX_STUDENTS);
    FILE *csv;
    if (count == 0) {
        fprintf(stderr, "grade: no student folders found in %s\n", g->cli->submissions[0]);
        return 2;
    }
    if (mkdir(results_dir, 0755) != 0 && errno != EEXIST) {
        fprintf(stderr, "grade: cannot create the results folder %s: %s\n", results_dir, strerror(errno));
        return 2;
    }
    snprintf(path, sizeof path, "%s/scores.csv", results_dir);
    if (!(csv = fopen(path, "w"))) {
        fprintf(stderr, "grade: cannot write %s: %s\n", path, strerror(errno));
        return 2;
    }
    fprintf(csv, "student");
    for (int i = 0; i < g->cli->lab_count; i++)
        fprintf(csv, ",%s", g->cli->labs[i]);
    fprintf(csv, ",total,max,status\n");
    fprintf(g->style.out, "grading %d submissions one at a time with seed %llu; results in %s/\n", count,
            (unsigned long long)g->seed, results_dir);
    for (int i = 0; i < count; i++) {
        grade_student(g, students[i], results_dir, csv);
        free(students[i]);
    }
    fclose(csv);
    fprintf(g->style.out, "wrote %s\n", path);
    return 0;
}
