#include "cli/batch.h"
#include "pipeline.h"

#include "judge/labs.h"
#include "judge/registry.h"
#include "report/export.h"
#include "report/html.h"
#include "report/safetext.h"
#include "runner/sandbox.h"
#include "device.h"
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

#define GRACE_S 60

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

int batch_list_class(const struct cli *cli, struct student *students, int max)
{
    int count = list_students(cli, students, max);
    for (int i = 0; i < count; i++)
        file_name_of(students[i].name);
    make_names_unique(students, count);
    return count;
}

void batch_csv_header(const struct cli *cli, FILE *csv)
{
    fprintf(csv, "student");
    for (int i = 0; i < cli->lab_count; i++)
        fprintf(csv, ",%s", cli->labs[i]);
    fprintf(csv, ",total,max,status\n");
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

/* The devices of the workers, one worker each: --devices LIST, else the first --jobs GPUs, else the one device of
   --device (NULL: the default). Returns how many, or 0 after saying why. */
static int worker_devices(const struct cli *cli, char devices[][64], int max)
{
    static struct clk_device_info infos[CLK_MAX_DEVICES];
    int count = 0, found;
    if (cli->devices) {
        for (const char *p = cli->devices; *p && count < max; count++) {
            size_t length = strcspn(p, ",");
            snprintf(devices[count], 64, "%.*s", (int)length, p);
            p += length + (p[length] == ',');
        }
        if (count == 0)
            fprintf(stderr, "grade: --devices names no device (e.g. --devices 1,2; see ./grade --list-devices)\n");
        return count;
    }
    if (cli->jobs <= 1) {
        snprintf(devices[0], 64, "%s", cli->device ? cli->device : "");
        return 1;
    }
    found = clk_enumerate_devices(infos, CLK_MAX_DEVICES);
    for (int i = 0; i < found && count < cli->jobs && count < max; i++)
        if (infos[i].is_gpu)
            snprintf(devices[count++], 64, "%d", i);
    if (count < cli->jobs) {
        fprintf(stderr, "grade: --jobs %d needs %d GPUs, and this machine has %d; name the devices with --devices "
                "(see ./grade --list-devices; a device named twice shares its timings)\n", cli->jobs, cli->jobs,
                count);
        return 0;
    }
    return count;
}

/* One worker: the student it grades, its judge process, and when its budget runs out. */
struct worker {
    pid_t pid;
    int student;
    double deadline;
};

/* What became of each student: NULL when its judge finished, else how grading stopped. */
static const char *outcomes[BATCH_MAX_STUDENTS];

/* Starts a judge process, worker number worker, that grades student s on device into dir; returns its pid, or -1. */
static pid_t start_student(struct grading *g, const struct student *s, int worker, const char *device,
                           const char *dir)
{
    static struct cli mine;
    pid_t pid;
    fflush(NULL);
    if ((pid = fork()) == 0) {
        sandbox_init(); /* this judge reaps what its runs leave behind */
        sandbox_worker(worker); /* its confined runs as its own user: no worker starves or reads another */
        mine = *g->cli;
        mine.device = device[0] ? device : g->cli->device;
        g->cli = &mine;
        /* Workers side by side share no scratch folder; the shared one stays the batch's. */
        int own_scratch = g->cli->jobs > 1 || g->cli->devices;
        if (own_scratch && grading_new_scratch(g) != 0)
            _exit(2);
        int status = grade_in_child(g, s, dir);
        if (own_scratch)
            grading_close(g);
        _exit(status);
    }
    if (pid > 0)
        sandbox_keep(pid, 1); /* not a leftover: other workers' orphans are killed around it */
    return pid;
}

/* Waits until one of the running workers ends or passes its deadline; marks its student and frees the slot. */
static void reap_one(struct grading *g, struct worker *workers, int jobs, const struct student *students)
{
    for (;;) {
        int status = 0;
        pid_t done = waitpid(-1, &status, WNOHANG);
        for (int w = 0; w < jobs; w++) {
            struct worker *k = &workers[w];
            int late = k->pid > 0 && done != k->pid && clk_now_s() > k->deadline;
            if (k->pid <= 0 || (done != k->pid && !late))
                continue;
            if (late) {
                kill(k->pid, SIGKILL);
                waitpid(k->pid, &status, 0);
                outcomes[k->student] = "grading stopped: the student's time budget ran out";
            } else if (WIFSIGNALED(status)) {
                outcomes[k->student] = "grading stopped: the grader's process for this student was killed";
            }
            sandbox_keep(k->pid, 0);
            sandbox_kill_orphans(); /* what a judge killed at the budget left behind comes back here */
            fprintf(g->style.out, "%-24s %s\n", students[k->student].name,
                    outcomes[k->student] ? outcomes[k->student] : "graded");
            fflush(g->style.out);
            k->pid = 0;
            return;
        }
        if (done <= 0)
            usleep(20000);
    }
}

const char *batch_grade_student(struct grading *g, const struct student *s, const char *dir)
{
    struct worker one = {.student = 0, .deadline = clk_now_s() + g->cli->budget_s + GRACE_S};
    if (s->refused)
        return s->refused;
    if ((one.pid = start_student(g, s, 0, "", dir)) < 0)
        return "grading could not start (fork failed)";
    outcomes[0] = NULL;
    reap_one(g, &one, 1, s);
    return outcomes[0];
}

void batch_collect(struct grading *g, const struct student *s, const char *why, const char *dir, FILE *csv,
                   int keep_row)
{
    char path[4096 + 300], line[8192];
    FILE *row;
    snprintf(path, sizeof path, "%s/%s.row", dir, s->name);
    if (!why && (row = fopen(path, "r")) != NULL && fgets(line, sizeof line, row)) {
        fputs(line, csv);
        fclose(row);
    } else {
        write_fallback(g, s, dir, why ? why : "grading stopped before it wrote a result", csv);
    }
    if (!keep_row)
        unlink(path);
}

/* Grades every student, up to one per device at a time, each in a judge process of its own so that nothing a
   student does ends the batch; returns 0, or 2 when no device list can be made. */
static int grade_all(struct grading *g, struct student *students, int count, const char *dir, FILE *csv)
{
    static char devices[CLI_MAX_JOBS][64];
    struct worker workers[CLI_MAX_JOBS];
    int jobs = worker_devices(g->cli, devices, CLI_MAX_JOBS), next = 0, running = 0;
    if (jobs == 0)
        return 2;
    memset(workers, 0, sizeof workers);
    sandbox_share_tasks(jobs);
    if (jobs > 1)
        fprintf(g->style.out, "%d workers side by side, one per device:%s%s\n", jobs, g->cli->devices ? " " : " GPUs ",
                g->cli->devices ? g->cli->devices : "(the first ones --list-devices shows)");
    while (next < count || running > 0) {
        for (int w = 0; w < jobs && next < count; w++) {
            if (workers[w].pid > 0)
                continue;
            outcomes[next] = students[next].refused;
            if (students[next].refused) {
                fprintf(g->style.out, "%-24s not graded: %s\n", students[next].name, students[next].refused);
                next++;
                continue;
            }
            workers[w] = (struct worker){.pid = start_student(g, &students[next], w, devices[w], dir), .student = next,
                                         .deadline = clk_now_s() + g->cli->budget_s + GRACE_S};
            if (workers[w].pid < 0)
                outcomes[next] = "grading could not start (fork failed)";
            running += workers[w].pid > 0;
            next++;
        }
        if (running > 0) {
            reap_one(g, workers, jobs, students);
            running--;
        }
    }
    for (int i = 0; i < count; i++)
        batch_collect(g, &students[i], outcomes[i], dir, csv, 0);
    return 0;
}

int batch_run(struct grading *g)
{
    static struct student students[BATCH_MAX_STUDENTS];
    const char *results_dir = g->cli->results_dir ? g->cli->results_dir : "results";
    char path[4096];
    int count = batch_list_class(g->cli, students, BATCH_MAX_STUDENTS), rc;
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
    for (int i = 0; i < g->cli->submission_count; i++)
        grading_hide(g, g->cli->submissions[i]); /* a student's runner sees no classmate */
    grading_hide(g, results_dir);
    batch_csv_header(g->cli, csv);
    fprintf(g->style.out, "grading %d submissions with seed %llu; results in %s/\n", count,
            (unsigned long long)g->seed, results_dir);
    rc = grade_all(g, students, count, results_dir, csv);
    for (int i = 0; i < count; i++)
        free(students[i].path);
    fclose(csv);
    if (rc == 0)
        fprintf(g->style.out, "wrote %s\n", path);
    if (rc == 0 && g->cli->html && html_write_class(results_dir, g->cli->html, g->root) != 0)
        rc = 2;
    return rc;
}
