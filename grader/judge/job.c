#include "judge/job.h"

#include "files.h"
#include "judge/device_busy.h"
#include "sandbox/scratch.h"
#include "timing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* As root, submitted code runs as another user: where bubblewrap cannot hide them, the solutions and the tests
   must not be readable by others. */
static void close_answers(const struct grading *g)
{
    const char *folders[] = {"solutions", "tests"};
    for (size_t i = 0; sandbox_drops_privileges() && i < sizeof folders / sizeof *folders; i++) {
        char path[PATH_MAX + 16];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", g->root, folders[i]);
        if (stat(path, &st) == 0 && (st.st_mode & 0007) && chmod(path, st.st_mode & 07770) != 0)
            fprintf(stderr, "grade: cannot close %s to other users: grading is not safe here\n", path);
    }
}

/* Reads --course, else the kit's course.conf where there is one; returns 0, or 2 after saying why. */
static int open_course(struct grading *g)
{
    char path[PATH_MAX + 32], why[2048];
    const char *file = g->config.course;
    snprintf(path, sizeof path, "%s/" COURSE_FILE, g->root);
    if (!file && clk_file_exists(path))
        file = path;
    if (course_load(file, g->profiles_dir, &g->course, why, sizeof why) != 0) {
        fprintf(stderr, "grade: %s\n", why);
        return 2;
    }
    return 0;
}

int grading_open(struct grading *g)
{
    const char *root = getenv("CLKIT_ROOT");
    char *resolved = realpath(root && root[0] ? root : CLK_ROOT, NULL);
    if (!resolved) {
        fprintf(stderr, "grade: cannot find the kit at %s (set CLKIT_ROOT)\n", root && root[0] ? root : CLK_ROOT);
        return 2;
    }
    snprintf(g->root, sizeof g->root, "%s", resolved);
    snprintf(g->kernels_dir, sizeof g->kernels_dir, "%s/kernels", resolved);
    snprintf(g->profiles_dir, sizeof g->profiles_dir, "%s/grader/profiles", resolved);
    free(resolved);
    busy_mark_root();
    if (open_course(g) != 0 || grading_new_scratch(g) != 0)
        return 2;
    grading_hide(g, g->root);
    close_answers(g);
    return 0;
}

int grading_new_scratch(struct grading *g)
{
    char why[512];
    snprintf(g->scratch, sizeof g->scratch, "/tmp/clkit-grade-XXXXXX");
    if (!mkdtemp(g->scratch)) {
        fprintf(stderr, "grade: cannot create a temporary directory in /tmp\n");
        g->scratch[0] = '\0';
        return 2;
    }
    if (scratch_stage_kit(g->root, g->scratch, why, sizeof why) != 0) {
        fprintf(stderr, "grade: cannot prepare the scratch folder: %s\n", why);
        return 2;
    }
    return 0;
}

void grading_hide(struct grading *g, const char *path)
{
    char *resolved = realpath(path, NULL);
    for (int i = 0; resolved && i < SANDBOX_MAX_HIDDEN - 1; i++) { /* the last slot is the source's */
        if (g->hidden[i] && strcmp(g->hidden[i], resolved) == 0)
            break;
        if (!g->hidden[i]) {
            snprintf(g->hidden_paths[i], sizeof g->hidden_paths[i], "%s", resolved);
            g->hidden[i] = g->hidden_paths[i];
            break;
        }
    }
    free(resolved);
}

void grading_close(struct grading *g)
{
    if (g->scratch[0] && scratch_remove(g->scratch) != 0)
        fprintf(stderr, "grade: could not remove %s\n", g->scratch);
}

int grading_set_source(struct grading *g, const char *submission)
{
    char *resolved;
    size_t length;
    g->submission = submission;
    g->started = clk_now_s();
    if (!submission) {
        snprintf(g->source_dir, sizeof g->source_dir, "%s", g->config.solutions ? "solutions" : "labs");
        if (chdir(g->root) != 0) {
            fprintf(stderr, "grade: cannot enter the kit at %s (set CLKIT_ROOT)\n", g->root);
            return 2;
        }
        return 0;
    }
    length = strlen(submission);
    while (length > 1 && submission[length - 1] == '/')
        length--;
    snprintf(g->source_dir, sizeof g->source_dir, "%.*s", (int)length, submission);
    if (!(resolved = realpath(g->source_dir, NULL))) {
        fprintf(stderr, "grade: cannot open the submission directory '%s'\n", submission);
        return 2;
    }
    /* The folder being graded is copied for each run: confined code sees only the copy. */
    snprintf(g->hidden_paths[SANDBOX_MAX_HIDDEN - 1], PATH_MAX, "%s", resolved);
    g->hidden[SANDBOX_MAX_HIDDEN - 1] = g->hidden_paths[SANDBOX_MAX_HIDDEN - 1];
    free(resolved);
    return 0;
}
