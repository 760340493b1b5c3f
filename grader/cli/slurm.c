#include "cli/slurm.h"

#include "cli/batch.h"
#include "report/html.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#define CLASS_FILE "class.txt"
#define GRACE_MINUTES 2

/* Writes text to out in single quotes, for the shell. */
static void shell_quote(FILE *out, const char *text)
{
    fputc('\'', out);
    for (const char *p = text; *p; p++)
        fputs(*p == '\'' ? "'\\''" : (char[]){*p, '\0'}, out);
    fputc('\'', out);
}

static int make_dir(const char *path)
{
    if (mkdir(path, 0755) != 0 && errno != EEXIST) {
        fprintf(stderr, "grade: cannot create %s: %s\n", path, strerror(errno));
        return -1;
    }
    return 0;
}

/* DIR/class.txt: "# clkit class seed=S labs=A,B" and one "NAME<tab>PATH<tab>REFUSED" line per student. */
static int write_class(const struct grading *g, const char *dir, const struct student *students, int count)
{
    char path[PATH_MAX + 32];
    FILE *out;
    snprintf(path, sizeof path, "%s/" CLASS_FILE, dir);
    if (!(out = fopen(path, "w"))) {
        fprintf(stderr, "grade: cannot write %s: %s\n", path, strerror(errno));
        return -1;
    }
    fprintf(out, "# clkit class seed=%llu labs=", (unsigned long long)g->seed);
    for (int i = 0; i < g->cli->lab_count; i++)
        fprintf(out, "%s%s", i ? "," : "", g->cli->labs[i]);
    fputc('\n', out);
    for (int i = 0; i < count; i++) {
        char *real = realpath(students[i].path, NULL);
        fprintf(out, "%s\t%s\t%s\n", students[i].name, real ? real : students[i].path,
                students[i].refused ? students[i].refused : "");
        free(real);
    }
    fclose(out);
    return 0;
}

/* DIR/grade.sbatch: the job array, each task grading one student with the kit's grader on one GPU. */
static int write_script(const struct grading *g, const char *dir, int count)
{
    char path[PATH_MAX + 32], grade[PATH_MAX + 16], date[32];
    time_t now = time(NULL);
    FILE *out;
    snprintf(path, sizeof path, "%s/grade.sbatch", dir);
    snprintf(grade, sizeof grade, "%s/grade", g->root);
    strftime(date, sizeof date, "%Y-%m-%d", gmtime(&now));
    if (!(out = fopen(path, "w"))) {
        fprintf(stderr, "grade: cannot write %s: %s\n", path, strerror(errno));
        return -1;
    }
    fprintf(out, "#!/bin/bash\n# Written by ./grade --slurm on %s: one task per student of %s/" CLASS_FILE
                 ", each on one GPU.\n# Submit with: sbatch %s\n# When every task has ended: %s --merge %s\n",
            date, dir, path, grade, dir);
    fprintf(out, "#SBATCH --job-name=clkit-grade\n#SBATCH --array=0-%d\n#SBATCH --gres=gpu:1\n"
                 "#SBATCH --cpus-per-task=4\n#SBATCH --time=%d\n#SBATCH --output=%s/logs/task-%%a.log\n",
            count - 1, (g->cli->budget_s + 59) / 60 + GRACE_MINUTES, dir);
    fputs("exec ", out);
    shell_quote(out, grade);
    fputs(" --task ", out);
    shell_quote(out, dir);
    fprintf(out, " --seed %llu --budget %d --timeout %d --device ", (unsigned long long)g->seed, g->cli->budget_s,
            g->cli->timeout_s);
    shell_quote(out, g->cli->device ? g->cli->device : "gpu");
    fprintf(out, "%s", g->cli->quick ? " --quick" : "");
    for (int i = 0; i < g->cli->lab_count; i++)
        fprintf(out, " %s", g->cli->labs[i]);
    fputc('\n', out);
    fclose(out);
    return 0;
}

int slurm_write(struct grading *g)
{
    static struct student students[BATCH_MAX_STUDENTS];
    const char *dir = g->cli->slurm;
    char logs[PATH_MAX + 8], absolute[PATH_MAX]; /* the tasks run on other machines, from another folder */
    int count = batch_list_class(g->cli, students, BATCH_MAX_STUDENTS), rc = 2;
    snprintf(logs, sizeof logs, "%s/logs", dir);
    if (count == 0)
        fprintf(stderr, "grade: no student folders found in %s\n", g->cli->submissions[0]);
    else if (make_dir(dir) == 0 && make_dir(logs) == 0 && (dir = realpath(dir, absolute)) != NULL &&
             write_class(g, dir, students, count) == 0 && write_script(g, dir, count) == 0) {
        printf("wrote %s/grade.sbatch: %d tasks, one per student, seed %llu\nsubmit it with: sbatch %s/grade.sbatch\n"
               "then, when every task has ended: ./grade --merge %s\n",
               dir, count, (unsigned long long)g->seed, dir, dir);
        rc = 0;
    }
    for (int i = 0; i < count; i++)
        free(students[i].path);
    return rc;
}

/* Reads DIR/class.txt: the labs of its first line into labs (a copy kept in text), and its students; returns how
   many, or -1 after saying why. */
static int read_class(const char *dir, char *text, size_t size, struct student *students, int max)
{
    char path[PATH_MAX + 32], line[PATH_MAX + 600];
    int count = 0;
    FILE *in;
    snprintf(path, sizeof path, "%s/" CLASS_FILE, dir);
    if (!(in = fopen(path, "r")) || !fgets(text, (int)size, in) || strncmp(text, "# clkit class ", 14) != 0) {
        fprintf(stderr, "grade: %s is not a class that ./grade --slurm wrote (%s)\n", path,
                in ? "its first line is not '# clkit class ...'" : strerror(errno));
        if (in)
            fclose(in);
        return -1;
    }
    while (count < max && fgets(line, sizeof line, in)) {
        char *name = strtok(line, "\t\n"), *where = strtok(NULL, "\t\n"), *refused = strtok(NULL, "\n");
        if (!name || !where)
            continue;
        snprintf(students[count].name, sizeof students[count].name, "%s", name);
        students[count].path = strdup(where);
        students[count].refused = refused && refused[0] ? strdup(refused) : NULL;
        count++;
    }
    fclose(in);
    return count;
}

static void free_class(struct student *students, int count)
{
    for (int i = 0; i < count; i++) {
        free(students[i].path);
        free((char *)students[i].refused);
    }
}

static void hide_parent(struct grading *g, const char *path)
{
    char parent[PATH_MAX];
    char *slash;
    snprintf(parent, sizeof parent, "%s", path);
    if ((slash = strrchr(parent, '/')) != NULL && slash != parent) {
        *slash = '\0';
        grading_hide(g, parent);
    }
}

int slurm_task(struct grading *g)
{
    static struct student students[BATCH_MAX_STUDENTS];
    static char header[4096];
    const char *task = getenv("SLURM_ARRAY_TASK_ID"), *why;
    char results[PATH_MAX + 16], row[PATH_MAX + 300], staged[PATH_MAX + 310];
    int count = read_class(g->cli->task, header, sizeof header, students, BATCH_MAX_STUDENTS);
    long index = task && *task ? strtol(task, NULL, 10) : -1;
    FILE *out;
    if (count < 0)
        return 2;
    if (index < 0 || index >= count) {
        fprintf(stderr, "grade: --task needs SLURM_ARRAY_TASK_ID from 0 to %d (it is %s)\n", count - 1,
                task ? task : "unset");
        free_class(students, count);
        return 2;
    }
    snprintf(results, sizeof results, "%s/results", g->cli->task);
    if (make_dir(results) != 0) {
        free_class(students, count);
        return 2;
    }
    /* As in a batch, the student's runs see neither the job's results nor a classmate: the folders that hold the
       class are hidden (the submission is graded from its scratch copy). */
    grading_hide(g, g->cli->task);
    for (int i = 0; i < count; i++)
        hide_parent(g, students[i].path);
    why = batch_grade_student(g, &students[index], results);
    /* A task that did not finish leaves the row that says why, where the merge looks for it. */
    snprintf(row, sizeof row, "%s/%s.row", results, students[index].name);
    snprintf(staged, sizeof staged, "%s.why", row);
    if (why && (out = fopen(staged, "w")) != NULL) {
        batch_collect(g, &students[index], why, results, out, 0);
        fclose(out);
        rename(staged, row);
    }
    free_class(students, count);
    return 0;
}

/* The labs of a class file's first line, "# clkit class seed=S labs=A,B", into cli (pointing into header). */
static int class_labs(char *header, struct cli *cli)
{
    char *labs = strstr(header, "labs=");
    cli->lab_count = 0;
    if (!labs)
        return -1;
    for (char *lab = strtok(labs + 5, ",\n"); lab && cli->lab_count < CLI_MAX_LABS; lab = strtok(NULL, ",\n"))
        cli->labs[cli->lab_count++] = lab;
    return cli->lab_count > 0 ? 0 : -1;
}

int slurm_merge(struct grading *g)
{
    static struct student students[BATCH_MAX_STUDENTS];
    static char header[4096];
    static struct cli merged;
    const struct cli *given = g->cli;
    char results[PATH_MAX + 16], path[PATH_MAX + 32], row[PATH_MAX + 300];
    int count = read_class(given->merge, header, sizeof header, students, BATCH_MAX_STUDENTS), missing = 0;
    FILE *csv;
    merged = *given;
    if (count < 0 || class_labs(header, &merged) != 0) {
        if (count >= 0)
            fprintf(stderr, "grade: %s/" CLASS_FILE " names no labs on its first line\n", given->merge);
        free_class(students, count < 0 ? 0 : count);
        return 2;
    }
    g->cli = &merged;
    snprintf(results, sizeof results, "%s/results", given->merge);
    snprintf(path, sizeof path, "%s/scores.csv", results);
    if (make_dir(results) != 0 || !(csv = fopen(path, "w"))) {
        fprintf(stderr, "grade: cannot write %s\n", path);
        free_class(students, count);
        g->cli = given;
        return 2;
    }
    batch_csv_header(&merged, csv);
    for (int i = 0; i < count; i++) {
        struct stat st;
        snprintf(row, sizeof row, "%s/%s.row", results, students[i].name);
        int found = stat(row, &st) == 0;
        missing += !found;
        batch_collect(g, &students[i], found ? NULL : "not graded: its Slurm task left no result (see logs/)", results,
                      csv, 1);
    }
    fclose(csv);
    printf("wrote %s: %d students, %d without a result from their task\n", path, count, missing);
    free_class(students, count);
    g->cli = given;
    return given->html && html_write_class(results, given->html, g->root) != 0 ? 2 : 0;
}
