#include "commands/slurm.h"

#include "commands/batch.h"
#include "report/outfile.h"
#include "report/record.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define CLASS_FILE "class.txt"
#define RESULTS_DIR "results"
#define JOB_VARIABLE "CLKIT_JOB" /* set by grade.sbatch: the job its tasks belong to */
#define JOB_SIZE 17               /* a job stamp: 16 hex digits and a NUL */
#define GRACE_MINUTES 2
/* A task's budget without --budget: Slurm's --time stops a task on the wall clock, so a task keeps a budget that
   leaves it time to write the labs it graded. */
#define SLURM_DEFAULT_BUDGET_S 540

/* The budget each task grades within. */
static int slurm_budget_s(const struct cli *cli)
{
    return cli->budget_s > 0 ? cli->budget_s : SLURM_DEFAULT_BUDGET_S;
}

/* Writes text to out in single quotes, for the shell. */
static void shell_quote(FILE *out, const char *text)
{
    fputc('\'', out);
    for (const char *p = text; *p; p++)
        fputs(*p == '\'' ? "'\\''" : (char[]){*p, '\0'}, out);
    fputc('\'', out);
}

/* A new job's stamp: 16 hex digits from the kernel's random source, so that no two --slurm runs share one. */
static int new_job(char *job, size_t size)
{
    unsigned char bytes[8];
    if (getrandom(bytes, sizeof bytes, 0) != (ssize_t)sizeof bytes) {
        fprintf(stderr, "grade: cannot draw a job stamp: %s\n", strerror(errno));
        return -1;
    }
    for (size_t i = 0; i < sizeof bytes && 2 * i + 2 < size; i++)
        snprintf(job + 2 * i, 3, "%02x", bytes[i]);
    return 0;
}

/* Writes a class file field: a backslash, a tab, a line break or any control byte escaped (\\, \t, \n, \xHH),
   so that no folder name can write a line or a field of its own. */
static void encode_field(FILE *out, const char *text)
{
    for (const unsigned char *p = (const unsigned char *)text; *p; p++)
        if (*p == '\\')
            fputs("\\\\", out);
        else if (*p == '\t')
            fputs("\\t", out);
        else if (*p == '\n')
            fputs("\\n", out);
        else if (*p < 0x20 || *p == 0x7f)
            fprintf(out, "\\x%02x", *p);
        else
            fputc(*p, out);
}

/* Undoes encode_field in place; returns -1 on an escape it never writes. */
static int decode_field(char *text)
{
    char *out = text;
    for (const char *p = text; *p; p++) {
        unsigned value;
        if (*p != '\\') {
            *out++ = *p;
            continue;
        }
        p++;
        if (*p == '\\' || *p == 't' || *p == 'n')
            *out++ = *p == 't' ? '\t' : *p == 'n' ? '\n' : '\\';
        else if (*p == 'x' && sscanf(p + 1, "%2x", &value) == 1 && value > 0 && (value < 0x20 || value == 0x7f))
            *out++ = (char)value, p += 2;
        else
            return -1;
    }
    *out = '\0';
    return 0;
}

/* DIR/class.txt: "# clkit class seed=S job=J count=N labs=A,B" and one "NAME<tab>PATH<tab>REFUSED" line per
   student, fields escaped. */
static int write_class(const struct grading *g, int dirfd, const char *job, const struct student *students,
                       int count)
{
    FILE *out = outfile_create(dirfd, CLASS_FILE);
    if (!out) {
        fprintf(stderr, "grade: cannot write " CLASS_FILE ": %s\n", strerror(errno));
        return -1;
    }
    fprintf(out, "# clkit class seed=%llu job=%s count=%d labs=", (unsigned long long)g->seed, job, count);
    for (int i = 0; i < g->config.lab_count; i++)
        fprintf(out, "%s%s", i ? "," : "", g->config.labs[i]);
    fputc('\n', out);
    for (int i = 0; i < count; i++) {
        char *real = realpath(students[i].path, NULL);
        fprintf(out, "%s\t", students[i].name);
        encode_field(out, real ? real : students[i].path);
        fputc('\t', out);
        encode_field(out, students[i].refused ? students[i].refused : "");
        fputc('\n', out);
        free(real);
    }
    return fclose(out) == 0 ? 0 : -1;
}

/* DIR/grade.sbatch: the job array, each task grading one student with the kit's grader, with the GPUs and CPUs
   asked for; a GPU is asked for only when wanted, as a node without a gpu GRES refuses the whole array. */
static int write_script(const struct grading *g, const struct cli *cli, int dirfd, const char *dir, const char *job,
                        int count)
{
    char path[PATH_MAX + 32], grade[PATH_MAX + 16], date[32];
    time_t now = time(NULL);
    FILE *out;
    snprintf(path, sizeof path, "%s/grade.sbatch", dir);
    snprintf(grade, sizeof grade, "%s/grade", g->root);
    strftime(date, sizeof date, "%Y-%m-%d", gmtime(&now));
    if (!(out = outfile_create(dirfd, "grade.sbatch"))) {
        fprintf(stderr, "grade: cannot write %s: %s\n", path, strerror(errno));
        return -1;
    }
    fprintf(out, "#!/bin/bash\n# Written by ./grade --slurm on %s: one task per student of %s/" CLASS_FILE
                 ".\n# Submit with: sbatch %s\n# When every task has ended: %s --merge %s\n",
            date, dir, path, grade, dir);
    fprintf(out, "#SBATCH --job-name=clkit-grade\n#SBATCH --array=0-%d\n", count - 1);
    if (cli->slurm_gpus > 0)
        fprintf(out, "#SBATCH --gres=gpu:%d\n", cli->slurm_gpus);
    fprintf(out, "#SBATCH --cpus-per-task=%d\n#SBATCH --time=%d\n#SBATCH --output=%s/logs/task-%%a.log\n",
            cli->slurm_cpus, (slurm_budget_s(cli) + 59) / 60 + GRACE_MINUTES, dir);
    /* The job's stamp: a task of this script grades only the class this run wrote, and stamps its results. */
    fprintf(out, "export " JOB_VARIABLE "=%s\n", job);
    fputs("exec ", out);
    shell_quote(out, grade);
    fputs(" --task ", out);
    shell_quote(out, dir);
    fprintf(out, " --seed %llu --budget %d --timeout %d --device ", (unsigned long long)g->seed, slurm_budget_s(cli),
            cli->timeout_s);
    shell_quote(out, cli->device ? cli->device : cli->slurm_gpus > 0 ? "gpu" : "cpu");
    fprintf(out, "%s", cli->quick ? " --quick" : "");
    if (g->course.path[0]) { /* every task grades for the same course, wherever it runs */
        char *course = realpath(g->course.path, NULL);
        fputs(" --course ", out);
        shell_quote(out, course ? course : g->course.path);
        free(course);
    }
    for (int i = 0; i < cli->lab_count; i++)
        fprintf(out, " %s", cli->labs[i]);
    fputc('\n', out);
    return fclose(out) == 0 ? 0 : -1;
}

/* Removes every file an earlier job left in DIR/results (links too, never followed); returns how many. */
static int clear_results(int dirfd)
{
    int results = outfile_subdir(dirfd, RESULTS_DIR, RESULTS_DIR), removed = 0;
    DIR *d = results >= 0 ? fdopendir(dup(results)) : NULL;
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL)
        removed += e->d_type != DT_DIR && e->d_name[0] != '.' && unlinkat(results, e->d_name, 0) == 0;
    if (d)
        closedir(d);
    if (results >= 0)
        close(results);
    return removed;
}

/* The GPUs a node's GRES as sinfo prints it holds ("gpu:4", "gpu:a100:2(S:0-1),gpu:v100:1", "(null)"). */
static int gres_gpus(const char *gres)
{
    int gpus = 0;
    for (const char *item = gres; item; item = strchr(item, ',') ? strchr(item, ',') + 1 : NULL) {
        const char *end = item + strcspn(item, ",("), *count = end;
        while (count > item && count[-1] != ':')
            count--;
        if (strncmp(item, "gpu:", 4) == 0 && count > item)
            gpus += atoi(count);
    }
    return gpus;
}

/* Whether some node of the cluster that sinfo describes has the CPUs and GPUs a task asks for, so that the array
   can ever run (Slurm refuses it, or leaves it pending for good, when none has). Where sinfo does not answer (no
   Slurm on this machine) the array is written all the same. Returns 0, or -1 after saying why. */
static int cluster_fits(const struct cli *cli)
{
    FILE *in = popen("sinfo -h -N -o '%c %G' 2>/dev/null", "r");
    char line[1024], gres[1000];
    int cpus, gpus, nodes = 0, fit = 0, most_cpus = 0, most_gpus = 0;
    while (in && fgets(line, sizeof line, in))
        if (sscanf(line, "%d %999s", &cpus, gres) == 2) {
            gpus = gres_gpus(gres);
            nodes++;
            fit += cpus >= cli->slurm_cpus && gpus >= cli->slurm_gpus;
            most_cpus = cpus > most_cpus ? cpus : most_cpus;
            most_gpus = gpus > most_gpus ? gpus : most_gpus;
        }
    if (in)
        pclose(in);
    if (nodes == 0 || fit > 0)
        return 0;
    fprintf(stderr, "grade: no node of this cluster has %d CPUs and %d GPUs for a task (sinfo: at most %d CPUs and %d "
            "GPUs of a gpu GRES on a node); ask for what a node has with --slurm-cpus and --slurm-gpus\n",
            cli->slurm_cpus, cli->slurm_gpus, most_cpus, most_gpus);
    return -1;
}

int slurm_write(struct grading *g, const struct cli *cli)
{
    static struct student students[BATCH_MAX_STUDENTS];
    const char *dir = cli->slurm;
    char absolute[PATH_MAX], job[JOB_SIZE] = ""; /* the tasks run on other machines, from another folder */
    int count = batch_list_class(cli, students, BATCH_MAX_STUDENTS), rc = 2, dirfd = -1, logs = -1, removed;
    if (count == 0)
        fprintf(stderr, "grade: no student folders found in %s\n", cli->submissions[0]);
    else if (count > 0 && cluster_fits(cli) == 0 && new_job(job, sizeof job) == 0 &&
             (dirfd = outfile_dir(dir, 1)) >= 0 && (logs = outfile_subdir(dirfd, "logs", "logs")) >= 0 &&
             (dir = realpath(dir, absolute)) != NULL &&
             write_class(g, dirfd, job, students, count) == 0 && write_script(g, cli, dirfd, dir, job, count) == 0) {
        removed = clear_results(dirfd);
        if (removed > 0)
            printf("removed %d files an earlier job left in %s/" RESULTS_DIR "/\n", removed, dir);
        printf("wrote %s/grade.sbatch: %d tasks, one per student, seed %llu, job %s\nsubmit it with: sbatch "
               "%s/grade.sbatch\nthen, when every task has ended: ./grade --merge %s\n",
               dir, count, (unsigned long long)g->seed, job, dir, dir);
        rc = 0;
    }
    if (logs >= 0)
        close(logs);
    if (dirfd >= 0)
        close(dirfd);
    for (int i = 0; i < count; i++)
        free(students[i].path);
    return rc;
}

/* What a class file's first line says: its job and how many students follow. */
struct class_header {
    char job[JOB_SIZE];
    int count;
};

static int class_damaged(const char *path, int line, const char *why)
{
    fprintf(stderr, "grade: %s is damaged (line %d: %s); write it again with ./grade --slurm\n", path, line, why);
    return -1;
}

/* One student line, "NAME<tab>PATH<tab>REFUSED", into s (its name checked safe and new); NULL, or what is wrong. */
static const char *class_line(char *line, struct student *students, int count)
{
    struct student *s = &students[count];
    char *name = line, *where = strchr(line, '\t'), *refused = where ? strchr(where + 1, '\t') : NULL;
    line[strcspn(line, "\n")] = '\0';
    if (!where || !refused || strchr(refused + 1, '\t'))
        return "not three fields";
    *where++ = '\0';
    *refused++ = '\0';
    if (!batch_name_is_safe(name))
        return "a name that is not a safe file name";
    for (int i = 0; i < count; i++)
        if (!strcmp(students[i].name, name))
            return "a name that another line has";
    if (decode_field(where) != 0 || decode_field(refused) != 0 || !where[0])
        return "a field that is not escaped as ./grade writes it";
    memset(s, 0, sizeof *s);
    snprintf(s->name, sizeof s->name, "%s", name);
    snprintf(s->why, sizeof s->why, "%s", refused);
    s->refused = refused[0] ? s->why : NULL;
    s->path = strdup(where);
    return NULL;
}

/* Reads DIR/class.txt: its first line into text (the labs, kept for class_labs) and header, and its students, as
   many as the first line says; returns how many, or -1 after saying why. */
static int read_class(const char *dir, char *text, size_t size, struct class_header *header,
                      struct student *students, int max)
{
    char path[PATH_MAX + 32], *line = NULL, *job;
    size_t capacity = 0;
    int count = 0, number = 1, dirfd = outfile_dir(dir, 0);
    FILE *in = dirfd >= 0 ? outfile_read(dirfd, CLASS_FILE) : NULL;
    const char *wrong = NULL;
    snprintf(path, sizeof path, "%s/" CLASS_FILE, dir);
    if (dirfd >= 0)
        close(dirfd);
    if (!in || !fgets(text, (int)size, in) || strncmp(text, "# clkit class ", 14) != 0) {
        fprintf(stderr, "grade: %s is not a class that ./grade --slurm wrote (%s)\n", path,
                in ? "its first line is not '# clkit class ...'" : "it cannot be read");
        if (in)
            fclose(in);
        return -1;
    }
    job = strstr(text, " job=");
    if (!job || sscanf(job, " job=%16[0-9a-f] count=%d", header->job, &header->count) != 2 ||
        strlen(header->job) != JOB_SIZE - 1 || header->count < 1 || header->count > max)
        wrong = "no job stamp and count (a class written before stamps, or edited)";
    while (!wrong && getline(&line, &capacity, in) > 0) {
        number++;
        if (count == header->count)
            wrong = "more students than its first line counts";
        else if ((wrong = class_line(line, students, count)) == NULL)
            count++;
    }
    if (!wrong && count != header->count)
        wrong = "fewer students than its first line counts";
    free(line);
    fclose(in);
    if (wrong) {
        for (int i = 0; i < count; i++)
            free(students[i].path);
        return class_damaged(path, number, wrong);
    }
    return count;
}

static void free_class(struct student *students, int count)
{
    for (int i = 0; i < count; i++) {
        free(students[i].path);
        students[i].path = NULL;
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

/* Opens DIR/results, created when missing, without following links; -1 after saying why. */
static int results_dir(const char *dir)
{
    int dirfd = outfile_dir(dir, 0), results = dirfd >= 0 ? outfile_subdir(dirfd, RESULTS_DIR, RESULTS_DIR) : -1;
    if (dirfd >= 0)
        close(dirfd);
    return results;
}

/* Writes s's stamp, NAME.job holding the job, the last of its results a task writes. */
static int stamp_result(int results, const struct student *s, const char *job)
{
    char name[BATCH_NAME_MAX + 16];
    FILE *out;
    snprintf(name, sizeof name, "%s.job", s->name);
    if (!(out = outfile_create(results, name)))
        return -1;
    fprintf(out, "%s\n", job);
    return fclose(out) == 0 ? 0 : -1;
}

/* Whether s's results in the folder results are stamped with job. */
static int stamped(int results, const struct student *s, const char *job)
{
    char name[BATCH_NAME_MAX + 16], line[64] = "";
    FILE *in;
    snprintf(name, sizeof name, "%s.job", s->name);
    if (!(in = outfile_read(results, name)))
        return 0;
    int same = fgets(line, sizeof line, in) && strncmp(line, job, JOB_SIZE - 1) == 0 && line[JOB_SIZE - 1] == '\n';
    fclose(in);
    return same;
}

/* Whether this process runs a task of the job class.txt describes ("./grade --slurm" since: an older job). */
static int task_of_job(const char *dir, const char *job)
{
    const char *mine = getenv(JOB_VARIABLE);
    if (mine && strcmp(mine, job) == 0)
        return 1;
    fprintf(stderr, "grade: this task is of job %s, and %s/" CLASS_FILE " of job %s (./grade --slurm ran again "
            "since, or the task was not started by its grade.sbatch): submit %s/grade.sbatch again\n",
            mine && *mine ? mine : "(none)", dir, job, dir);
    return 0;
}

/* Grades student s of the job into the folder results, then stamps what it left. */
static int task_grade(struct grading *g, const struct student *s, const char *results, int resultsfd,
                      const char *job)
{
    char stamp[BATCH_NAME_MAX + 16];
    const char *why;
    snprintf(stamp, sizeof stamp, "%s.job", s->name);
    unlinkat(resultsfd, stamp, 0); /* no earlier stamp vouches for results this task has not written yet */
    why = batch_grade_student(g, s, results);
    /* A task that did not finish leaves the record that says why, where the merge looks for it. */
    if (why)
        batch_settle(s, why, results);
    return stamp_result(resultsfd, s, job);
}

int slurm_task(struct grading *g, const struct cli *cli)
{
    static struct student students[BATCH_MAX_STUDENTS];
    static char text[4096];
    struct class_header header;
    const char *task = getenv("SLURM_ARRAY_TASK_ID");
    char results[PATH_MAX + 16];
    int count = read_class(cli->task, text, sizeof text, &header, students, BATCH_MAX_STUDENTS), rc = 2, fd = -1;
    char *end = NULL;
    long index = task && *task ? strtol(task, &end, 10) : -1;
    if (count < 0)
        return 2;
    snprintf(results, sizeof results, "%s/" RESULTS_DIR, cli->task);
    if (index < 0 || index >= count || *end)
        fprintf(stderr, "grade: --task needs SLURM_ARRAY_TASK_ID from 0 to %d (it is %s)\n", count - 1,
                task ? task : "unset");
    else if (task_of_job(cli->task, header.job) && (fd = results_dir(cli->task)) >= 0) {
        /* As in a batch, the student's runs see neither the job's results nor a classmate: the folders that hold
           the class are hidden (the submission is graded from its scratch copy). */
        grading_hide(g, cli->task);
        for (int i = 0; i < count; i++)
            hide_parent(g, students[i].path);
        rc = task_grade(g, &students[index], results, fd, header.job) == 0 ? 0 : 2;
    }
    if (fd >= 0)
        close(fd);
    free_class(students, count);
    return rc;
}

/* The labs of a class file's first line, "# clkit class ... labs=A,B", into config (pointing into header). */
static int class_labs(char *header, struct judge_config *config)
{
    char *labs = strstr(header, "labs=");
    config->lab_count = 0;
    if (!labs)
        return -1;
    for (char *lab = strtok(labs + 5, ",\n"); lab && config->lab_count < JUDGE_MAX_LABS; lab = strtok(NULL, ",\n"))
        config->labs[config->lab_count++] = lab;
    return config->lab_count > 0 ? 0 : -1;
}

/* Whether student s's record says "set-up error": the task ran but could not grade (no device, the kit not built),
   which is the cluster's failure, not a grade. */
static int record_is_setup_error(int fd, const struct student *s)
{
    static struct record r;
    int found = record_read(fd, s->name, &r) == 0 && !r.why[0] && record_status(r.results, r.count) == 2;
    record_free(&r);
    return found;
}

/* Each student's record as the merge takes it: its task's, when stamped with this job, else one that says why;
   returns how many students have no grade of this job (no result, or a task that could not set up), named on
   stderr. */
static int merge_records(struct student *students, int count, const char *results, int fd, const char *job)
{
    int missing = 0, setup = 0;
    for (int i = 0; i < count; i++) {
        char record[BATCH_NAME_MAX + 16];
        FILE *in;
        snprintf(record, sizeof record, "%s.record", students[i].name);
        int found = (in = outfile_read(fd, record)) != NULL, mine = found && stamped(fd, &students[i], job);
        if (in)
            fclose(in);
        if (!mine)
            fprintf(stderr, "%s %s", missing++ ? "," : "grade: no result of this job for:", students[i].name);
        setup += mine && record_is_setup_error(fd, &students[i]);
        batch_settle(&students[i], mine ? NULL : found ? "not graded: the result in results/ is not of this job "
                                                         "(an earlier job's, or a task that did not finish)"
                                                       : "not graded: its Slurm task left no result (see logs/)",
                     results);
    }
    if (missing)
        fputs(" (rerun their tasks: SLURM_ARRAY_TASK_ID is their line in class.txt, from 0)\n", stderr);
    for (int i = 0, named = 0; setup && i < count; i++)
        if (stamped(fd, &students[i], job) && record_is_setup_error(fd, &students[i]))
            fprintf(stderr, "%s %s", named++ ? "," : "grade: these tasks could not set up (see logs/):",
                    students[i].name);
    if (setup)
        fputc('\n', stderr);
    return missing + setup;
}

int slurm_merge(struct grading *g, const struct cli *cli)
{
    static struct student students[BATCH_MAX_STUDENTS];
    static char text[4096];
    struct class_header header;
    const struct judge_config given = g->config;
    char results[PATH_MAX + 16];
    int count = read_class(cli->merge, text, sizeof text, &header, students, BATCH_MAX_STUDENTS), missing = 0;
    int fd = -1, rc = 2;
    char note[96];
    snprintf(results, sizeof results, "%s/" RESULTS_DIR, cli->merge);
    /* The class's labs, from its file, for the columns of scores.csv; the command line's come back after. */
    if (count >= 0 && class_labs(text, &g->config) != 0)
        fprintf(stderr, "grade: %s/" CLASS_FILE " names no labs on its first line\n", cli->merge);
    else if (count >= 0 && (fd = results_dir(cli->merge)) >= 0) {
        missing = merge_records(students, count, results, fd, header.job);
        snprintf(note, sizeof note, ": %d students, %d without a grade of this job", count, missing);
        rc = batch_write_class(g, cli->html, results, students, count, stdout, note) != 0 || missing ? 2 : 0;
    }
    g->config = given;
    if (fd >= 0)
        close(fd);
    free_class(students, count < 0 ? 0 : count);
    return rc;
}
