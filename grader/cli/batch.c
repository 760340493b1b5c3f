#include "cli/batch.h"
#include "pipeline.h"

#include "judge/labs.h"
#include "judge/registry.h"
#include "report/export.h"
#include "report/safetext.h"
#include "runner/sandbox.h"
#include "timing.h"

#include <cjson/cJSON.h>

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_STUDENTS 1024
#define GRACE_S 60

/* One entry of a class: a folder to grade, or something refused with a reason. */
struct student {
    char *path;
    char name[256];
    const char *refused; /* why it is not graded, or NULL */
};

static int is_dir(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int holds_labs(const char *dir)
{
    for (size_t i = 0; i < registry_count(); i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, registry_lab(i)->name);
        if (is_dir(path))
            return 1;
    }
    return 0;
}

/* A class folder holds no lab folder itself but student folders that do; anything else is one submission. */
static int holds_students(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int found = 0;
    while (d && !found && (e = readdir(d)) != NULL) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        found = e->d_name[0] != '.' && is_dir(path) && holds_labs(path);
    }
    if (d)
        closedir(d);
    return found;
}

int batch_wanted(const struct cli *cli)
{
    return cli->submission_count > 1 || (cli->submission_count == 1 && is_dir(cli->submissions[0]) &&
                                         !holds_labs(cli->submissions[0]) && holds_students(cli->submissions[0]));
}

static int compare_students(const void *a, const void *b)
{
    return strcmp(((const struct student *)a)->path, ((const struct student *)b)->path);
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

static void add_student(struct student *students, int *count, const char *path, const char *refused)
{
    students[*count].path = strdup(path);
    students[*count].refused = refused;
    student_name(path, students[*count].name, sizeof students[*count].name);
    (*count)++;
}

/* Lists the class: the folders given, or every entry of the one class folder, in name order; hidden entries,
   links and files are listed too, refused with a reason. */
static int list_students(const struct cli *cli, struct student *students, int max)
{
    int count = 0;
    DIR *d;
    struct dirent *e;
    struct stat st;
    if (cli->submission_count > 1) {
        for (int i = 0; i < cli->submission_count && count < max; i++)
            add_student(students, &count, cli->submissions[i],
                        is_dir(cli->submissions[i]) ? NULL : "not a folder (a link or a file)");
    } else if ((d = opendir(cli->submissions[0])) != NULL) {
        while ((e = readdir(d)) != NULL && count < max) {
            char path[4096];
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
                continue;
            snprintf(path, sizeof path, "%s/%s", cli->submissions[0], e->d_name);
            add_student(students, &count, path,
                        e->d_name[0] == '.' ? "a hidden folder: rename it to grade it"
                        : lstat(path, &st) == 0 && S_ISLNK(st.st_mode) ? "a symbolic link: copy the folder itself"
                        : !is_dir(path) ? "not a folder"
                                        : NULL);
        }
        closedir(d);
    }
    qsort(students, (size_t)count, sizeof *students, compare_students);
    return count;
}

/* Two submissions with one name get distinct files: the second is NAME-2, and so on. */
static void make_names_unique(struct student *students, int count)
{
    for (int i = 1; i < count; i++)
        for (int n = 2, clash = 1; clash; n++) {
            clash = 0;
            for (int j = 0; j < i && !clash; j++)
                clash = strcmp(students[i].name, students[j].name) == 0;
            if (clash) {
                char base[200];
                char *dash = n > 2 ? strrchr(students[i].name, '-') : NULL;
                snprintf(base, sizeof base, "%.*s", dash ? (int)(dash - students[i].name) : 199, students[i].name);
                snprintf(students[i].name, sizeof students[i].name, "%s-%d", base, n);
            }
        }
}

/* A file name from a student's folder name: letters, digits, '.', '_' and '-' only. */
static void file_name_of(char *name)
{
    for (char *p = name; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || strchr("._-", *p)))
            *p = '_';
    if (name[0] == '.' || name[0] == '\0')
        name[0] = '_';
}

/* Writes a CSV field, quoted when it holds a comma, a quote or a line break. */
static void csv_field(FILE *out, const char *text)
{
    char *clean = safetext_clean(text, 256);
    const char *t = clean ? clean : "";
    if (strcspn(t, ",\"\n\r") == strlen(t)) {
        fputs(t, out);
    } else {
        fputc('"', out);
        for (const char *p = t; *p; p++) {
            if (*p == '"')
                fputc('"', out);
            fputc(*p, out);
        }
        fputc('"', out);
    }
    free(clean);
}

static void csv_row(FILE *csv, const char *name, const struct grade_lab_result *results, int count, const char *status)
{
    double total = 0.0, total_max = 0.0;
    csv_field(csv, name);
    for (int i = 0; i < count; i++) {
        double score, max;
        report_score(&results[i], &score, &max);
        total += score;
        total_max += max;
        fprintf(csv, ",%.2f", score);
    }
    fprintf(csv, ",%.2f,%.2f,", total, total_max);
    csv_field(csv, status);
    fputc('\n', csv);
}

/* In a judge process of its own: grades one student into DIR/NAME.txt, NAME.json and the CSV row NAME.row. */
static int grade_in_child(struct grading *g, const struct student *s, const char *dir)
{
    static struct grade_lab_result results[CLI_MAX_LABS];
    char path[4096 + 300];
    FILE *report, *row;
    double start = clk_now_s();
    int status = 2;
    snprintf(path, sizeof path, "%s/%s.txt", dir, s->name);
    if ((report = fopen(path, "w")) != NULL) {
        report_style_for(report, g->cli->verbose, &g->style);
        if (grading_set_source(g, s->path) == 0)
            status = pipeline_run(g, results);
        fclose(report);
    }
    snprintf(path, sizeof path, "%s/%s.json", dir, s->name);
    pipeline_write_results(g, results, clk_now_s() - start, path, NULL, NULL);
    snprintf(path, sizeof path, "%s/%s.row", dir, s->name);
    if ((row = fopen(path, "w")) != NULL) {
        csv_row(row, s->name, results, g->cli->lab_count,
                status == 2 ? "set-up error" : status == 0 ? "all passed" : "some failed");
        fclose(row);
    }
    return status;
}

/* What a student gets when the judge could not finish: a results file that says why, and a row of zeros. */
static void write_fallback(const struct grading *g, const struct student *s, const char *dir, const char *why,
                           FILE *csv)
{
    char path[4096 + 300];
    FILE *f;
    char *text = safetext_clean(why, 512);
    snprintf(path, sizeof path, "%s/%s.json", dir, s->name);
    cJSON *root = cJSON_CreateObject();
    char *json;
    cJSON_AddNumberToObject(root, "score", 0);
    cJSON_AddStringToObject(root, "output", text ? text : "");
    cJSON_AddItemToObject(root, "tests", cJSON_CreateArray());
    json = cJSON_Print(root);
    if (json && (f = fopen(path, "w")) != NULL) {
        fprintf(f, "%s\n", json);
        fclose(f);
    }
    cJSON_free(json);
    cJSON_Delete(root);
    csv_field(csv, s->name);
    for (int i = 0; i < g->cli->lab_count; i++)
        fputs(",0.00", csv);
    fputs(",0.00,,", csv);
    csv_field(csv, why);
    fputc('\n', csv);
    free(text);
}

/* Waits for a student's judge until the budget and a grace period have passed; returns how it ended, in words,
   or NULL when it finished. */
static const char *wait_for(pid_t pid, int budget_s)
{
    double deadline = clk_now_s() + budget_s + GRACE_S;
    int status = 0;
    pid_t done;
    while ((done = waitpid(pid, &status, WNOHANG)) == 0 && clk_now_s() < deadline)
        usleep(20000);
    if (done == 0) {
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
        return "grading stopped: the student's time budget ran out";
    }
    if (done < 0 || WIFSIGNALED(status))
        return "grading stopped: the grader's process for this student was killed";
    return NULL;
}

/* Grades one student in a judge process of its own, so that nothing a student does ends the batch; copies its
   row into the CSV, or writes a fallback result when it did not finish. */
static void grade_student(struct grading *g, const struct student *s, const char *dir, FILE *csv)
{
    char path[4096 + 300], line[8192];
    const char *stopped;
    FILE *row;
    pid_t pid;
    fflush(NULL);
    if (s->refused) {
        write_fallback(g, s, dir, s->refused, csv);
        fprintf(g->style.out, "%-24s not graded: %s\n", s->name, s->refused);
        return;
    }
    if ((pid = fork()) == 0) {
        sandbox_init(); /* this judge reaps what its runs leave behind */
        _exit(grade_in_child(g, s, dir));
    }
    stopped = pid < 0 ? "grading could not start (fork failed)" : wait_for(pid, g->cli->budget_s);
    sandbox_kill_orphans(); /* what a judge killed at the budget left behind comes back here */
    snprintf(path, sizeof path, "%s/%s.row", dir, s->name);
    if (!stopped && (row = fopen(path, "r")) != NULL && fgets(line, sizeof line, row)) {
        fputs(line, csv);
        fclose(row);
        fprintf(g->style.out, "%-24s graded\n", s->name);
    } else {
        write_fallback(g, s, dir, stopped ? stopped : "grading stopped before it wrote a result", csv);
        fprintf(g->style.out, "%-24s %s\n", s->name, stopped ? stopped : "grading stopped");
    }
    unlink(path);
    fflush(csv);
}

int batch_run(struct grading *g)
{
    static struct student students[MAX_STUDENTS];
    const char *results_dir = g->cli->results_dir ? g->cli->results_dir : "results";
    char path[4096];
    int count = list_students(g->cli, students, MAX_STUDENTS);
    FILE *csv;
    if (count == 0) {
        fprintf(stderr, "grade: no student folders found in %s\n", g->cli->submissions[0]);
        return 2;
    }
    for (int i = 0; i < count; i++)
        file_name_of(students[i].name);
    make_names_unique(students, count);
    if (mkdir(results_dir, 0755) != 0 && errno != EEXIST) {
        fprintf(stderr, "grade: cannot create the results folder %s: %s\n", results_dir, strerror(errno));
        return 2;
    }
    snprintf(path, sizeof path, "%s/scores.csv", results_dir);
    if (!(csv = fopen(path, "w"))) {
        fprintf(stderr, "grade: cannot write %s: %s\n", path, strerror(errno));
        return 2;
    }
    for (int i = 0; i < g->cli->submission_count; i++)
        grading_hide(g, g->cli->submissions[i]); /* a student's runner sees no classmate */
    grading_hide(g, results_dir);
    fprintf(csv, "student");
    for (int i = 0; i < g->cli->lab_count; i++)
        fprintf(csv, ",%s", g->cli->labs[i]);
    fprintf(csv, ",total,max,status\n");
    fprintf(g->style.out, "grading %d submissions one at a time with seed %llu; results in %s/\n", count,
            (unsigned long long)g->seed, results_dir);
    for (int i = 0; i < count; i++) {
        grade_student(g, &students[i], results_dir, csv);
        free(students[i].path);
    }
    fclose(csv);
    fprintf(g->style.out, "wrote %s\n", path);
    return 0;
}
