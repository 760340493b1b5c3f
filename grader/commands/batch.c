#include "commands/batch.h"
#include "pipeline.h"

#include "labs/spec.h"
#include "labs/registry.h"
#include "report/export.h"
#include "report/class_writers.h"
#include "report/outfile.h"
#include "report/record.h"
#include "report/report.h"
#include "judge/device_list.h"
#include "judge/device_lock.h"
#include "judge/prediction_test.h"
#include "judge/safetext.h"
#include "sandbox/sandbox.h"
#include "device.h"
#include "timing.h"

#include <cjson/cJSON.h>

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define GRACE_S 60
/* Without --budget a student's grading has no time limit of its own (a busy machine only makes it slower); this
   guard stops a judge that hangs from holding the class up for ever. */
#define UNBUDGETED_S 3600

/* When the student graded from now on must have ended. */
static double student_deadline(const struct grading *g)
{
    return clk_now_s() + (g->config.budget_s > 0 ? g->config.budget_s + GRACE_S : UNBUDGETED_S);
}

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

/* The last component of a folder's path (its trailing slashes left out), and its length. */
static const char *last_component(const char *path, size_t *length)
{
    size_t end = strlen(path);
    const char *start;
    while (end > 1 && path[end - 1] == '/')
        end--;
    start = path + end;
    while (start > path && start[-1] != '/')
        start--;
    *length = end - (size_t)(start - path);
    return start;
}

static int has_control(const char *text, size_t length)
{
    for (size_t i = 0; i < length; i++)
        if ((unsigned char)text[i] < 0x20 || text[i] == 0x7f)
            return 1;
    return 0;
}

/* A folder name as a message can show it: control characters and bytes past ASCII as \n, \t, \xHH; cut. */
static void shown_name(const char *name, size_t length, char *out, size_t size)
{
    size_t used = 0;
    for (size_t i = 0; i < length && used + 5 < size; i++) {
        unsigned char c = (unsigned char)name[i];
        used += (size_t)(c == '\n' ? snprintf(out + used, size - used, "\\n")
                         : c == '\t' ? snprintf(out + used, size - used, "\\t")
                         : c < 0x20 || c >= 0x7f || c == '\\' ? snprintf(out + used, size - used, "\\x%02x", c)
                                                              : snprintf(out + used, size - used, "%c", c));
    }
    out[used] = '\0';
}

static void add_student(struct student *students, int *count, const char *path, const char *refused)
{
    struct student *s = &students[*count];
    memset(s, 0, sizeof *s);
    s->path = strdup(path);
    s->refused = refused;
    (*count)++;
}

/* A folder whose name has control characters (a line break, a tab) is refused: no class file or terminal line
   may carry it. Runs once the class is in order, refusals pointing into each student's own why. */
static void refuse_control_names(struct student *students, int count)
{
    for (int i = 0; i < count; i++) {
        struct student *s = &students[i];
        size_t length;
        const char *name = last_component(s->path, &length);
        char shown[160];
        if (s->refused || !has_control(name, length))
            continue;
        shown_name(name, length, shown, sizeof shown);
        snprintf(s->why, sizeof s->why, "a folder name with control characters ('%s'): rename it", shown);
        s->refused = s->why;
    }
}

/* Lists the class: the folders given, or every entry of the one class folder, in name order; hidden entries,
   links and files are listed too, refused with a reason. Returns how many, *more set when there were more than max. */
static int list_students(const struct cli *cli, struct student *students, int max, int *more_out)
{
    int count = 0, more = 0;
    DIR *d;
    struct dirent *e;
    struct stat st;
    if (cli->submission_count > 1) {
        more = cli->submission_count > max;
        for (int i = 0; i < cli->submission_count && count < max; i++)
            add_student(students, &count, cli->submissions[i],
                        is_dir(cli->submissions[i]) ? NULL : "not a folder (a link or a file)");
    } else if ((d = opendir(cli->submissions[0])) != NULL) {
        while ((e = readdir(d)) != NULL && !more) {
            char path[4096];
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
                continue;
            if ((more = count == max))
                break;
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
    *more_out = more;
    return count;
}

/* FNV-1a of text: a short tag that tells apart names cut or cleaned to the same file name. */
static unsigned long name_hash(const char *text, unsigned long salt)
{
    unsigned long long hash = 1469598103934665603ull ^ salt;
    for (const unsigned char *p = (const unsigned char *)text; *p; p++)
        hash = (hash ^ *p) * 1099511628211ull;
    return (unsigned long)(hash & 0xffffffffu);
}

int batch_name_is_safe(const char *name)
{
    size_t length = strlen(name);
    if (length == 0 || length > BATCH_NAME_MAX || name[0] == '.')
        return 0;
    for (const char *p = name; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || strchr("._-", *p)))
            return 0;
    return 1;
}

/* A file name from a student's folder name: letters, digits, '.', '_' and '-' only; a name longer than
   BATCH_NAME_MAX is cut and tagged with a hash of the whole path, so that no file derived from it is too long. */
static void file_name_of(const struct student *s, char *name)
{
    size_t length;
    const char *raw = last_component(s->path, &length);
    snprintf(name, BATCH_NAME_MAX + 1, "%.*s", (int)(length > BATCH_NAME_MAX ? BATCH_NAME_MAX : length), raw);
    for (char *p = name; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || strchr("._-", *p)))
            *p = '_';
    if (name[0] == '.' || name[0] == '\0')
        name[0] = '_';
    if (length > BATCH_NAME_MAX)
        snprintf(name + BATCH_NAME_MAX - 9, 10, "-%08lx", name_hash(s->path, 0));
}

/* Whether s's folder is named exactly its file name (nothing cleaned or cut). */
static int named_exactly(const struct student *s)
{
    size_t length;
    const char *raw = last_component(s->path, &length);
    return strlen(s->name) == length && strncmp(raw, s->name, length) == 0;
}

/* The student that keeps file name i's: the first graded one named exactly so, else nobody (-1). */
static int keeper_of(const struct student *students, int count, int i)
{
    for (int j = 0; j < count; j++)
        if (!strcmp(students[j].name, students[i].name) && !students[j].refused && named_exactly(&students[j]))
            return j;
    return -1;
}

static int name_taken(const struct student *students, int count, int i)
{
    for (int j = 0; j < count; j++)
        if (j != i && !strcmp(students[j].name, students[i].name))
            return 1;
    return 0;
}

/* Names that collide after cleaning ("bob smith" beside "bob_smith") take nobody's files: the folder named exactly
   so keeps the name, the others are refused and get a name of their own (cut, with a hash of the path). */
static void refuse_collisions(struct student *students, int count)
{
    int keepers[BATCH_MAX_STUDENTS];
    for (int i = 0; i < count; i++)
        keepers[i] = name_taken(students, count, i) ? keeper_of(students, count, i) : i;
    for (int i = 0; i < count; i++) {
        struct student *s = &students[i];
        char shown[160];
        size_t length;
        const char *raw = last_component(s->path, &length);
        if (keepers[i] == i)
            continue;
        shown_name(raw, length, shown, sizeof shown);
        if (!s->refused) {
            snprintf(s->why, sizeof s->why, "the folder '%s' has the file name %s, as another submission does: "
                     "rename one so that names differ in letters, digits, '.', '_' or '-'", shown, s->name);
            s->refused = s->why;
        }
        size_t end = strlen(s->name) > BATCH_NAME_MAX - 9 ? BATCH_NAME_MAX - 9 : strlen(s->name);
        for (unsigned long salt = 0; salt == 0 || name_taken(students, count, i); salt++)
            snprintf(s->name + end, 10, "-%08lx", name_hash(s->path, salt));
    }
}

int batch_list_class(const struct cli *cli, struct student *students, int max)
{
    int more, count = list_students(cli, students, max, &more);
    if (more) {
        fprintf(stderr, "grade: the class has more than %d entries, the most one run grades; split it\n", max);
        for (int i = 0; i < count; i++)
            free(students[i].path);
        return -1;
    }
    refuse_control_names(students, count);
    for (int i = 0; i < count; i++)
        file_name_of(&students[i], students[i].name);
    refuse_collisions(students, count);
    return count;
}

/* Creates DIR/NAME.EXTENSION for s afresh (a link or stale file there is replaced, never written through). */
static FILE *student_file(const char *dir, const struct student *s, const char *extension)
{
    char name[BATCH_NAME_MAX + 16];
    int dirfd = outfile_dir(dir, 0);
    FILE *out;
    if (dirfd < 0)
        return NULL;
    snprintf(name, sizeof name, "%s.%s", s->name, extension);
    out = outfile_create(dirfd, name);
    close(dirfd);
    return out;
}

/* In a judge process of its own: grades one student into DIR/NAME.txt, NAME.json and the record NAME.record. */
static int grade_in_child(struct grading *g, const struct student *s, const char *dir)
{
    static struct grade_lab_result results[JUDGE_MAX_LABS];
    char path[4096 + 300], record[4096 + 300];
    FILE *report;
    double start = clk_now_s();
    int status = 2;
    if ((report = student_file(dir, s, "txt")) != NULL) {
        report_style_for(report, g->config.verbose, &g->style);
        if (grading_set_source(g, s->path) == 0)
            status = pipeline_run(g, results);
        fclose(report);
    }
    snprintf(path, sizeof path, "%s/%s.json", dir, s->name);
    snprintf(record, sizeof record, "%s/%s.record", dir, s->name);
    struct pipeline_outputs out = {.version = cli_version()};
    out.paths[result_writer_index("json")] = path;
    out.paths[result_writer_index("record")] = record; /* last: the class's files are written from it */
    pipeline_write_results(g, results, clk_now_s() - start, &out);
    return status;
}

/* What a student gets when the judge could not finish: a results file and a record that say why. */
static void write_fallback(const struct student *s, const char *dir, const char *why)
{
    FILE *f;
    char *text = safetext_clean(why, 512);
    cJSON *root = cJSON_CreateObject();
    char *json;
    cJSON_AddNumberToObject(root, "score", 0);
    cJSON_AddStringToObject(root, "output", text ? text : "");
    cJSON_AddItemToObject(root, "tests", cJSON_CreateArray());
    json = cJSON_Print(root);
    if (json && (f = student_file(dir, s, "json")) != NULL) {
        fprintf(f, "%s\n", json);
        fclose(f);
    }
    cJSON_free(json);
    cJSON_Delete(root);
    if ((f = student_file(dir, s, "record")) != NULL) {
        record_write_not_graded(f, text ? text : "");
        fclose(f);
    }
    free(text);
}

/* Where the workers grade: each one's device (a --device SPEC; "" for the batch's own), and the lock file that
   orders the workers sharing its device ("" for none), held for whole labs on a CPU device. */
struct plan {
    int jobs;
    char devices[CLI_MAX_JOBS][64];
    char locks[CLI_MAX_JOBS][PATH_MAX];
    int whole_labs[CLI_MAX_JOBS];
    char lock_dir[64]; /* private to the grader (0700): no runner can open a lock and hold the device */
    volatile double *waits; /* each worker's seconds waiting for its device (shared), which its deadline allows */
};

/* The devices named: --devices LIST; else, for --jobs N without --device, the GPUs; else the batch's own device
   (""). Returns how many, or 0 after saying why. */
static int named_devices(const struct cli *cli, const struct clk_device_info *infos, int found, char devices[][64])
{
    int count = 0;
    if (cli->devices) {
        for (const char *p = cli->devices; *p && count < CLI_MAX_JOBS; count++) {
            size_t length = strcspn(p, ",");
            snprintf(devices[count], 64, "%.*s", (int)length, p);
            p += length + (p[length] == ',');
        }
        if (count == 0)
            fprintf(stderr, "grade: --devices names no device (e.g. --devices 1,2; see ./grade --list-devices)\n");
        return count;
    }
    for (int i = 0; cli->jobs > 1 && !cli->device && i < found && count < CLI_MAX_JOBS; i++)
        if (infos[i].is_gpu)
            snprintf(devices[count++], 64, "%d", i);
    if (count <= 1) { /* one GPU or none: the batch's device, as --device or the default chooses it */
        devices[0][0] = '\0';
        count = 1;
    }
    return count;
}

/* The number of workers: --jobs; else one per device of --devices; else on a GPU half the cores (the CPU stages
   of the next students run while one is timed), on a CPU device one (its timings compete with every worker). */
static int worker_count(const struct cli *cli, int devices, int first_is_gpu)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    if (cli->jobs > 0)
        return cli->jobs;
    if (cli->devices)
        return devices;
    if (!first_is_gpu || cores < 4)
        return 1;
    return cores / 2 > CLI_MAX_JOBS ? CLI_MAX_JOBS : (int)(cores / 2);
}

/* The device SPEC as the runner reads it ("": --device, CLKIT_DEVICE, else the default). */
static const char *spec_of(const struct cli *cli, const char *device)
{
    return device[0] ? device : cli->device ? cli->device : getenv("CLKIT_DEVICE");
}

/* Makes the plan: devices assigned to the workers in turn, and a lock file per device that workers share, keyed
   by its index (two names of one device share one lock). Returns the number of workers, or 0 after saying why. */
static int make_plan(const struct cli *cli, struct plan *plan)
{
    static struct clk_device_info infos[CLK_MAX_DEVICES];
    static char devices[CLI_MAX_JOBS][64];
    int found = device_list(infos, CLK_MAX_DEVICES), count = named_devices(cli, infos, found, devices);
    int first = count ? clk_match_device(infos, found, spec_of(cli, devices[0])) : -1;
    memset(plan, 0, sizeof *plan);
    if (count == 0)
        return 0;
    plan->jobs = worker_count(cli, count, first >= 0 && infos[first].is_gpu);
    if (plan->jobs > 1) {
        void *waits = mmap(NULL, CLI_MAX_JOBS * sizeof(double), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
                           -1, 0);
        plan->waits = waits != MAP_FAILED ? waits : NULL;
        snprintf(plan->lock_dir, sizeof plan->lock_dir, "/tmp/clkit-devices-XXXXXX");
        if (!mkdtemp(plan->lock_dir)) {
            fprintf(stderr, "grade: cannot create a folder for the devices' locks in /tmp: %s\n", strerror(errno));
            return 0;
        }
    }
    for (int w = 0; w < plan->jobs; w++) {
        const char *device = devices[w % count], *spec = spec_of(cli, device);
        int index = clk_match_device(infos, found, spec);
        snprintf(plan->devices[w], sizeof plan->devices[w], "%s", device);
        plan->whole_labs[w] = index < 0 || !infos[index].is_gpu; /* Oclgrind, or a device that is not there */
        if (plan->jobs > 1 && index >= 0)
            snprintf(plan->locks[w], sizeof plan->locks[w], "%s/device-%d.lock", plan->lock_dir, index);
        else if (plan->jobs > 1) /* the worker then says what is wrong with its device, or simulates */
            snprintf(plan->locks[w], sizeof plan->locks[w], "%s/device-%lx.lock", plan->lock_dir,
                     name_hash(spec ? spec : "", 0));
    }
    return plan->jobs;
}

/* Removes the plan's lock files and their folder. */
static void end_plan(const struct plan *plan)
{
    DIR *d = plan->lock_dir[0] ? opendir(plan->lock_dir) : NULL;
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL) {
        char path[sizeof plan->lock_dir + 300];
        snprintf(path, sizeof path, "%s/%s", plan->lock_dir, e->d_name);
        if (e->d_name[0] != '.')
            unlink(path);
    }
    if (d) {
        closedir(d);
        rmdir(plan->lock_dir);
    }
    if (plan->waits)
        munmap((void *)plan->waits, CLI_MAX_JOBS * sizeof(double));
}

/* One worker: the student it grades, its judge process, and when its budget runs out. */
struct worker {
    pid_t pid;
    int student;
    double started, deadline;
};

/* What became of each student: NULL when its judge finished, else how grading stopped. */
static const char *outcomes[BATCH_MAX_STUDENTS];

/* Removes what an earlier run left for s in dir, so that a judge that dies early leaves nothing stale behind. */
static void clear_student(const char *dir, const struct student *s)
{
    static const char *const extensions[] = {"txt", "json", "record", "job"};
    int dirfd = outfile_dir(dir, 0);
    for (size_t i = 0; dirfd >= 0 && i < sizeof extensions / sizeof extensions[0]; i++) {
        char name[BATCH_NAME_MAX + 16];
        snprintf(name, sizeof name, "%s.%s", s->name, extensions[i]);
        unlinkat(dirfd, name, 0);
    }
    if (dirfd >= 0)
        close(dirfd);
}

/* Starts a judge process, worker number worker, that grades student s into dir on the plan's device for it
   (plan NULL: the batch's own), in a scratch folder of its own when own_scratch; returns its pid, or -1. */
static pid_t start_student(struct grading *g, const struct student *s, int worker, const struct plan *plan,
                           int own_scratch, const char *dir)
{
    pid_t pid;
    clear_student(dir, s);
    fflush(NULL);
    if ((pid = fork()) == 0) {
        sandbox_init(); /* this judge reaps what its runs leave behind */
        sandbox_worker(worker); /* its confined runs as its own user: no worker starves or reads another */
        if (plan && plan->devices[worker][0])
            judge_config_set_device(&g->config, plan->devices[worker]);
        if (plan && plan->locks[worker][0]) {
            g->config.device_lock = plan->locks[worker];
            g->config.lock_whole_labs = plan->whole_labs[worker];
            device_lock_share_waits(plan->waits ? &plan->waits[worker] : NULL);
        }
        /* Workers side by side share no scratch folder; the shared one stays the batch's. */
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

/* Seconds worker w has waited for its device, which its deadline allows it on top of the student's budget. */
static double waited(const struct plan *plan, int w)
{
    return plan && plan->waits ? plan->waits[w] : 0.0;
}

/* Waits until one of the running workers ends or passes its deadline; marks its student and frees the slot. */
static void reap_one(struct grading *g, struct worker *workers, int jobs, const struct student *students,
                     const struct plan *plan)
{
    for (;;) {
        int status = 0;
        pid_t done = waitpid(-1, &status, WNOHANG);
        for (int w = 0; w < jobs; w++) {
            struct worker *k = &workers[w];
            int late = k->pid > 0 && done != k->pid && clk_now_s() > k->deadline + waited(plan, w);
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
            /* A judge that exits 2 could not set up (no such device, the kit not built): not a grade. */
            fprintf(g->style.out, "%-24s %s", students[k->student].name,
                    outcomes[k->student]                         ? outcomes[k->student]
                    : WIFEXITED(status) && WEXITSTATUS(status) == 2 ? "set-up error: not graded (see its .txt)"
                                                                  : "graded");
            fprintf(g->style.out, " in %.1f s", clk_now_s() - k->started);
            if (plan && plan->waits) /* side by side: how much of it the device was another's */
                fprintf(g->style.out, ", %.1f s of it waiting for the device", waited(plan, w));
            fputc('\n', g->style.out);
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
    struct worker one = {.student = 0, .started = clk_now_s(), .deadline = student_deadline(g)};
    if (s->refused)
        return s->refused;
    if ((one.pid = start_student(g, s, 0, NULL, 0, dir)) < 0)
        return "grading could not start (fork failed)";
    outcomes[0] = NULL;
    reap_one(g, &one, 1, s, NULL);
    return outcomes[0];
}

void batch_settle(const struct student *s, const char *why, const char *dir)
{
    static struct record r;
    int dirfd = outfile_dir(dir, 0);
    if (why || dirfd < 0 || record_read(dirfd, s->name, &r) != 0)
        write_fallback(s, dir, why ? why : "grading stopped before it wrote a result");
    record_free(&r);
    if (dirfd >= 0)
        close(dirfd);
}

/* Says how the workers share the devices. */
static void describe_plan(struct grading *g, const struct cli *cli, const struct plan *plan)
{
    if (plan->jobs <= 1)
        return;
    fprintf(g->style.out, "%d workers side by side on %s%s; each timing runs alone on its device%s\n", plan->jobs,
            cli->devices ? "devices " : plan->devices[plan->jobs > 1][0] ? "the GPUs " : "the device ",
            cli->devices ? cli->devices : plan->devices[plan->jobs > 1][0] ? "(in turn)" : cli->device ? cli->device
                                                                                           : "(the default)",
            plan->whole_labs[0] ? " (a CPU device: each timing waits until no other worker is grading a lab)" : "");
}

/* Grades every student, plan->jobs at a time, each in a judge process of its own so that nothing a student does
   ends the batch; returns 0, or 2 when no plan can be made. */
static int grade_all(struct grading *g, const struct cli *cli, struct student *students, int count, const char *dir)
{
    static struct plan plan;
    struct worker workers[CLI_MAX_JOBS];
    int jobs = make_plan(cli, &plan), next = 0, running = 0;
    int own_scratch = jobs > 1 || cli->devices;
    if (jobs == 0)
        return 2;
    memset(workers, 0, sizeof workers);
    sandbox_share_tasks(jobs);
    describe_plan(g, cli, &plan);
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
            if (plan.waits)
                plan.waits[w] = 0.0;
            workers[w] = (struct worker){.pid = start_student(g, &students[next], w, &plan, own_scratch, dir),
                                         .student = next, .started = clk_now_s(),
                                         .deadline = student_deadline(g)};
            if (workers[w].pid < 0)
                outcomes[next] = "grading could not start (fork failed)";
            running += workers[w].pid > 0;
            next++;
        }
        if (running > 0) {
            reap_one(g, workers, jobs, students, &plan);
            running--;
        }
    }
    end_plan(&plan);
    for (int i = 0; i < count; i++)
        batch_settle(&students[i], outcomes[i], dir);
    return 0;
}

/* The file names of the class, for the report built from this run's list only. */
static const char **class_names(const struct student *students, int count)
{
    const char **names = malloc((size_t)(count ? count : 1) * sizeof *names);
    for (int i = 0; names && i < count; i++)
        names[i] = students[i].name;
    return names;
}

int batch_write_class(const struct grading *g, const char *html, const char *results_dir,
                      const struct student *students, int count, FILE *said, const char *scores_note)
{
    const char **names = class_names(students, count);
    struct class_run run = {.results_dir = results_dir, .names = names, .count = count, .config = &g->config,
                            .course = &g->course, .html_dir = html, .kit_root = g->root, .said = said,
                            .scores_note = scores_note};
    int rc = names ? class_writers_write(&run) : -1;
    free(names);
    return rc;
}

int batch_run(struct grading *g, const struct cli *cli)
{
    static struct student students[BATCH_MAX_STUDENTS];
    const char *results_dir = cli->results_dir ? cli->results_dir : "results";
    int count = batch_list_class(cli, students, BATCH_MAX_STUDENTS), rc, dirfd;
    if (count == 0)
        fprintf(stderr, "grade: no student folders found in %s\n", cli->submissions[0]);
    if (count <= 0)
        return 2;
    if ((dirfd = outfile_dir(results_dir, 1)) >= 0) /* made before grading: a folder that cannot be stops it */
        close(dirfd);
    else {
        for (int i = 0; i < count; i++)
            free(students[i].path);
        return 2;
    }
    for (int i = 0; i < cli->submission_count; i++)
        grading_hide(g, cli->submissions[i]); /* a student's runner sees no classmate */
    grading_hide(g, results_dir);
    fprintf(g->style.out, "grading %d submissions with seed %llu; results in %s/\n", count,
            (unsigned long long)g->seed, results_dir);
    rc = grade_all(g, cli, students, count, results_dir);
    if (rc == 0 && batch_write_class(g, cli->html, results_dir, students, count, g->style.out, "") != 0)
        rc = 2;
    for (int i = 0; i < count; i++)
        free(students[i].path);
    return rc;
}
