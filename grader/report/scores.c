/* scores.csv: a row per student of a class, in the class's order, from their records: a score per lab, the total,
   the maximum, the predictions made and those within their margin, and the status (or, for a student not graded,
   zeros and why). */
#include "report/class_writers.h"

#include "judge/prediction_test.h"
#include "judge/safetext.h"
#include "report/outfile.h"
#include "report/record.h"
#include "report/report.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

/* Writes a CSV field: cleaned, quoted, and never a spreadsheet formula. */
static void csv_field(FILE *out, const char *text)
{
    safetext_csv(out, text, 256);
}

static void header(FILE *csv, const struct judge_config *config)
{
    fprintf(csv, "student");
    for (int i = 0; i < config->lab_count; i++)
        fprintf(csv, ",%s", config->labs[i]);
    fprintf(csv, ",total,max,predicted,within,status\n");
}

static void graded_row(FILE *csv, const char *name, const struct record *r)
{
    static const char *const statuses[] = {"all passed", "some failed", "set-up error"};
    const char *status = statuses[record_status(r->results, r->count)];
    double total = 0.0, total_max = 0.0;
    int predicted = 0, within = 0;
    csv_field(csv, name);
    for (int i = 0; i < r->count; i++) {
        double score, max;
        report_score(&r->results[i], &score, &max);
        predict_tally(&r->results[i], &predicted, &within);
        total += score;
        total_max += max;
        fprintf(csv, ",%.2f", score);
    }
    fprintf(csv, ",%.2f,%.2f,%d,%d,", total, total_max, predicted, within);
    if (report_pending(r->results, r->count) > 0) { /* the columns stay; the status says what is not decided yet */
        char text[160];
        snprintf(text, sizeof text, "%s; %g points pending (speed, graded on the course's device)", status,
                 report_pending(r->results, r->count));
        csv_field(csv, text);
    } else {
        csv_field(csv, status);
    }
    fputc('\n', csv);
}

static void not_graded_row(FILE *csv, const char *name, const char *why, int labs)
{
    csv_field(csv, name);
    for (int i = 0; i < labs; i++)
        fputs(",0.00", csv);
    fputs(",0.00,,,,", csv); /* total, and no maximum or predictions */
    csv_field(csv, why);
    fputc('\n', csv);
}

static int write_scores(const struct class_run *run)
{
    static struct record r;
    int dirfd = outfile_dir(run->results_dir, 1);
    FILE *csv = dirfd >= 0 ? outfile_create(dirfd, "scores.csv") : NULL;
    if (!csv) {
        fprintf(stderr, "grade: cannot write %s/scores.csv: %s\n", run->results_dir, strerror(errno));
        if (dirfd >= 0)
            close(dirfd);
        return -1;
    }
    header(csv, run->config);
    for (int i = 0; i < run->count; i++) {
        if (record_read(dirfd, run->names[i], &r) == 0 && !r.why[0])
            graded_row(csv, run->names[i], &r);
        else
            not_graded_row(csv, run->names[i], r.why[0] ? r.why : "grading stopped before it wrote a result",
                           run->config->lab_count);
        record_free(&r);
    }
    fclose(csv);
    close(dirfd);
    fprintf(run->said, "wrote %s/scores.csv%s\n", run->results_dir, run->scores_note ? run->scores_note : "");
    return 0;
}

static int always(const struct class_run *run)
{
    (void)run;
    return 1;
}

const struct class_writer class_writer_scores = {
    .name = "scores.csv",
    .wanted = always,
    .write = write_scores,
};
