/* The result files a grading writes, as a table of writers: each names the option that asks for its file and
   writes the kit's result record of the run in its format. A new format is one writer file with its record, one
   row of the table in writers.c and its declaration here. */
#ifndef CLKIT_GRADER_WRITERS_H
#define CLKIT_GRADER_WRITERS_H

#include "report/export.h"

#include <stdio.h>

/* Writers a command line may name: the table's rows at most. */
#define RESULT_MAX_WRITERS 8

struct result_writer {
    const char *option; /* "json": --json FILE asks for it */
    const char *help;   /* what --help says it writes */
    /* Writes run to out in the writer's format; returns 0, or -1 when it cannot (memory). */
    int (*write)(FILE *out, const struct export_run *run);
};

/* The writers, in --help's order, ended by NULL. */
extern const struct result_writer *const result_writers[];

/* The writers (writers.c: json, junit and classroom, over export.h; csv.c: csv). */
extern const struct result_writer result_writer_json, result_writer_junit, result_writer_classroom,
    result_writer_csv;

/* The index in result_writers of the writer --option names (option without its dashes), or -1. */
int result_writer_index(const char *option);

/* Writes run with writer into a file at path, created afresh (a link there is replaced, never written through);
   returns 0, or -1 after printing why. */
int result_writer_file(const struct result_writer *writer, const char *path, const struct export_run *run);

/* Writes run with each writer whose path (indexed like result_writers) is not NULL; returns 0, or -1 when one
   file could not be written (the others are still written). */
int result_writers_write(const char *const paths[RESULT_MAX_WRITERS], const struct export_run *run);

#endif
