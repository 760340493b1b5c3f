/* The table of a class's writers, and the rows of the HTML report and the contest (html.c and contest.c write
   them); scores.c writes scores.csv. */
#include "report/class_writers.h"

#include "report/contest.h"
#include "report/html.h"

extern const struct class_writer class_writer_scores; /* scores.c */

static int html_wanted(const struct class_run *run)
{
    return run->html_dir != NULL;
}

static int html_write(const struct class_run *run)
{
    return html_write_class(run->results_dir, run->html_dir, run->kit_root, run->names, run->count);
}

static const struct class_writer class_writer_html = {
    .name = "the HTML report",
    .wanted = html_wanted,
    .write = html_write,
};

static int contest_wanted(const struct class_run *run)
{
    return run->course && run->course->contest;
}

static int contest_run(const struct class_run *run)
{
    return contest_write(run->results_dir, run->names, run->count, run->course);
}

static const struct class_writer class_writer_contest = {
    .name = "contest.csv",
    .wanted = contest_wanted,
    .write = contest_run,
};

const struct class_writer *const class_writers[] = {
    &class_writer_scores, &class_writer_html, &class_writer_contest, NULL,
};

int class_writers_write(const struct class_run *run)
{
    for (int i = 0; class_writers[i]; i++)
        if (class_writers[i]->wanted(run) && class_writers[i]->write(run) != 0)
            return -1;
    return 0;
}
