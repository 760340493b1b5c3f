#include "report/contest.h"

#include "judge/safetext.h"
#include "report/outfile.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_ENTRIES 8192

/* The tests that decide whether a lab's kernel is right; a kernel competes only when all that ran passed. */
static const char *const correctness[] = {"exact cases", "real cases", "memory safety"};

void contest_place(struct contest_entry *entries, int count, const struct course_tier *tiers, int tier_count)
{
    for (int i = 0; i < count; i++) {
        double fastest = 0.0;
        entries[i].ratio = entries[i].extra = 0.0;
        if (!entries[i].correct || entries[i].rate <= 0)
            continue;
        for (int j = 0; j < count; j++)
            if (entries[j].correct && !strcmp(entries[j].lab, entries[i].lab) &&
                !strcmp(entries[j].device, entries[i].device) && entries[j].rate > fastest)
                fastest = entries[j].rate;
        entries[i].ratio = fastest / entries[i].rate;
        for (int t = 0; t < tier_count && entries[i].extra == 0.0; t++)
            if (entries[i].ratio <= tiers[t].ratio + 1e-9)
                entries[i].extra = tiers[t].points;
    }
}

/* Marks which labs of a results file were right: a correctness test that failed rules its lab out. */
static int lab_correct(const cJSON *root, const char *lab)
{
    const cJSON *test;
    int seen = 0;
    cJSON_ArrayForEach(test, cJSON_GetObjectItem(root, "tests")) {
        const char *name = cJSON_GetStringValue(cJSON_GetObjectItem(test, "name"));
        const char *status = cJSON_GetStringValue(cJSON_GetObjectItem(test, "status"));
        size_t length = strlen(lab);
        if (!name || strncmp(name, lab, length) || strncmp(name + length, ": ", 2))
            continue;
        for (size_t k = 0; k < sizeof correctness / sizeof *correctness; k++)
            if (!strcmp(name + length + 2, correctness[k])) {
                if (!status || strcmp(status, "passed"))
                    return 0;
                seen++;
            }
    }
    return seen > 0;
}

/* Adds an entry per lab the results file root has a rate for; returns how many entries there are now. */
static int read_entries(const cJSON *root, const char *student, struct contest_entry *entries, int count)
{
    const cJSON *entry, *devices = cJSON_GetObjectItem(cJSON_GetObjectItem(root, "extra_data"), "devices");
    cJSON_ArrayForEach(entry, cJSON_GetObjectItem(root, "leaderboard")) {
        const char *name = cJSON_GetStringValue(cJSON_GetObjectItem(entry, "name")), *space;
        struct contest_entry *e = &entries[count];
        if (count == MAX_ENTRIES || !name || !(space = strchr(name, ' ')) || !strcmp(space + 1, "speedup"))
            continue;
        memset(e, 0, sizeof *e);
        snprintf(e->student, sizeof e->student, "%s", student);
        snprintf(e->lab, sizeof e->lab, "%.*s", (int)(space - name), name);
        snprintf(e->device, sizeof e->device, "%s",
                 cJSON_GetStringValue(cJSON_GetObjectItem(devices, e->lab)) ? cJSON_GetStringValue(
                                                                                  cJSON_GetObjectItem(devices, e->lab))
                                                                            : "");
        e->rate = cJSON_GetNumberValue(cJSON_GetObjectItem(entry, "value"));
        e->correct = lab_correct(root, e->lab);
        count++;
    }
    return count;
}

/* Reads NAME.json of results_dir (not through a link); NULL when missing or unreadable. */
static cJSON *read_results(int dirfd, const char *name)
{
    char file[300], *text = NULL;
    size_t size = 0, n;
    FILE *in;
    cJSON *root = NULL;
    snprintf(file, sizeof file, "%s.json", name);
    if (!(in = outfile_read(dirfd, file)))
        return NULL;
    for (char buffer[8192]; (n = fread(buffer, 1, sizeof buffer, in)) > 0 && size < (16u << 20); size += n) {
        char *grown = realloc(text, size + n + 1);
        if (!grown)
            break;
        text = grown;
        memcpy(text + size, buffer, n);
    }
    fclose(in);
    if (text) {
        text[size] = '\0';
        root = cJSON_Parse(text);
    }
    free(text);
    return root;
}

static int by_lab_then_ratio(const void *a, const void *b)
{
    const struct contest_entry *x = a, *y = b;
    int lab = strcmp(x->lab, y->lab), device = strcmp(x->device, y->device);
    if (lab || device)
        return lab ? lab : device;
    if (!x->ratio || !y->ratio) /* unplaced last */
        return (x->ratio == 0) - (y->ratio == 0);
    return x->ratio < y->ratio ? -1 : x->ratio > y->ratio;
}

static void write_rows(FILE *csv, const struct contest_entry *entries, int count)
{
    fputs("lab,device,student,rate,ratio_to_fastest,extra_points\n", csv);
    for (int i = 0; i < count; i++) {
        const struct contest_entry *e = &entries[i];
        fprintf(csv, "%s,", e->lab);
        safetext_csv(csv, e->device, 128);
        fputc(',', csv);
        safetext_csv(csv, e->student, 256);
        if (e->ratio > 0)
            fprintf(csv, ",%.2f,%.3f,%g\n", e->rate, e->ratio, e->extra);
        else
            fprintf(csv, ",%.2f,,0\n", e->rate); /* not right, or not timed: not placed */
    }
}

int contest_write(const char *results_dir, const char *const *names, int count, const struct course *course)
{
    static struct contest_entry entries[MAX_ENTRIES];
    int dirfd = outfile_dir(results_dir, 0), used = 0;
    FILE *csv;
    if (dirfd < 0)
        return -1;
    for (int i = 0; i < count; i++) {
        cJSON *root = read_results(dirfd, names[i]);
        if (root)
            used = read_entries(root, names[i], entries, used);
        cJSON_Delete(root);
    }
    contest_place(entries, used, course->tiers, course->tier_count);
    qsort(entries, (size_t)used, sizeof *entries, by_lab_then_ratio);
    if (!(csv = outfile_create(dirfd, "contest.csv"))) {
        fprintf(stderr, "grade: cannot write %s/contest.csv: %s\n", results_dir, strerror(errno));
        close(dirfd);
        return -1;
    }
    write_rows(csv, entries, used);
    fclose(csv);
    close(dirfd);
    printf("wrote %s/contest.csv (the class contest: fastest correct kernels per lab and device)\n", results_dir);
    return 0;
}
