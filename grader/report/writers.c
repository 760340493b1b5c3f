#include "report/writers.h"

#include "report/outfile.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static int write_junit(FILE *out, const struct export_run *run)
{
    export_junit(out, run);
    return ferror(out) ? -1 : 0;
}

const struct result_writer result_writer_json = {
    .option = "json",
    .help = "write the results as Gradescope results.json",
    .write = export_json,
};

const struct result_writer result_writer_junit = {
    .option = "junit",
    .help = "write the results as JUnit XML",
    .write = write_junit,
};

const struct result_writer result_writer_classroom = {
    .option = "classroom",
    .help = "write the results as GitHub Classroom's runner result (base64, for its reporter)",
    .write = export_classroom,
};

extern const struct result_writer result_writer_lab_csv; /* lab_csv.c */
extern const struct result_writer result_writer_record;  /* record.c */

const struct result_writer *const result_writers[] = {
    &result_writer_json, &result_writer_junit,   &result_writer_classroom,
    &result_writer_csv,  &result_writer_lab_csv, &result_writer_record, NULL,
};

int result_writer_index(const char *option)
{
    for (int i = 0; result_writers[i]; i++)
        if (strcmp(result_writers[i]->option, option) == 0)
            return i;
    return -1;
}

int result_writer_file(const struct result_writer *writer, const char *path, const struct export_run *run)
{
    FILE *out = outfile_create_path(path); /* a link where the file goes is replaced, never written through */
    int rc;
    if (!out) {
        fprintf(stderr, "grade: cannot write %s: %s\n", path,
                errno == ELOOP ? "it is a symbolic link (name the file itself)" : strerror(errno));
        return -1;
    }
    rc = writer->write(out, run);
    if (fclose(out) != 0 || rc != 0) {
        fprintf(stderr, "grade: cannot write %s\n", path);
        return -1;
    }
    return 0;
}

int result_writers_write(const char *const paths[RESULT_MAX_WRITERS], const struct export_run *run)
{
    int rc = 0;
    for (int i = 0; result_writers[i] && i < RESULT_MAX_WRITERS; i++)
        if (paths[i] && result_writer_file(result_writers[i], paths[i], run) != 0)
            rc = -1;
    return rc;
}
