#include "report/contest.h"

#include "judge/safetext.h"
#include "report/outfile.h"
#include "report/record.h"

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

/* Whether a lab's kernel was right: every correctness test that ran passed (a pending one counts as not passed). */
static int lab_correct(const struct grade_lab_result *result)
{
    int seen = 0;
    for (int t = 0; t < result->test_count; t++) {
        const struct grade_test *test = &result->tests[t];
        for (size_t k = 0; k < sizeof correctness / sizeof *correctness; k++)
            if (!test->informational && !test->pending && !strcmp(test->name, correctness[k])) {
                if (!test->passed)
                    return 0;
                seen++;
            }
    }
    return seen > 0;
}

/* Adds an entry per lab of a student's record that has a rate unit; returns how many entries there are now. */
static int read_entries(const struct record *r, const char *student, struct contest_entry *entries, int count)
{
    for (int l = 0; l < r->count && count < MAX_ENTRIES; l++) {
        struct contest_entry *e = &entries[count];
        if (!r->units[l][0])
            continue;
        memset(e, 0, sizeof *e);
        snprintf(e->student, sizeof e->student, "%s", student);
        snprintf(e->lab, sizeof e->lab, "%s", r->results[l].lab);
        snprintf(e->device, sizeof e->device, "%s", r->results[l].device);
        e->rate = record_rate(&r->results[l]);
        e->correct = lab_correct(&r->results[l]);
        count++;
    }
    return count;
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
    static struct record r;
    int dirfd = outfile_dir(results_dir, 0), used = 0;
    FILE *csv;
    if (dirfd < 0)
        return -1;
    for (int i = 0; i < count; i++) {
        if (record_read(dirfd, names[i], &r) == 0)
            used = read_entries(&r, names[i], entries, used);
        record_free(&r);
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
