#include "hostprog.h"

#include "files.h"
#include "options.h"
#include "sandbox.h"
#include "verify.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define OUTPUT_KEPT 4096
#define REASON_SIZE 8192

/* The last lines of what the program printed, for the reason. */
static const char *tail_of(const char *output, size_t keep)
{
    size_t length = output ? strlen(output) : 0;
    return length > keep ? output + length - keep : (output ? output : "");
}

static void check_output(const struct hostprog_job *job, const char *out_path, int status, char *reason,
                         size_t size, int *passed)
{
    size_t dims[3] = {0, 0, 0}, count = 0, expected_count, first = 0, wrong;
    double *expected = NULL, *bound = NULL;
    float *got = clk_file_exists(out_path) ? clk_read_floats(out_path, &count) : NULL;
    clk_parse_dims(job->lab->host_size, dims, job->lab->family->dim_count);
    expected_count = job->lab->family->host_reference(dims, job->seed, &expected, &bound);
    if (!got && status != 0)
        snprintf(reason, size, "it exited with status %d and wrote no --out file", status);
    else if (!got)
        snprintf(reason, size, "it wrote no --out file: write the result with clk_write_floats");
    else if (count != expected_count)
        snprintf(reason, size, "its --out file holds %zu floats; %zu expected", count, expected_count);
    else if ((wrong = clk_count_wrong(got, expected, bound, count, &first)) != 0)
        snprintf(reason, size, "%zu of %zu results wrong; first at index %zu: expected %.9g, got %.9g", wrong, count,
                 first, expected[first], (double)got[first]);
    else {
        snprintf(reason, size, "--size %s --seed %llu: all %zu results right", job->lab->host_size,
                 (unsigned long long)job->seed, count);
        *passed = 1;
    }
    free(got);
    free(expected);
    free(bound);
}

void hostprog_test(const struct hostprog_job *job, struct grade_lab_result *result)
{
    char out_path[4096], seed[32], reason[REASON_SIZE], how[256];
    char *argv[12];
    int argc = 0, passed = 0;
    struct sandbox_outcome outcome;
    snprintf(out_path, sizeof out_path, "%s/%s.out", job->scratch, job->lab->name);
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)job->seed);
    unlink(out_path);
    if (!clk_file_exists(job->binary)) {
        snprintf(reason, sizeof reason, "%s is not built: run 'make %s' and read its errors", job->binary,
                 job->lab->name);
        result_add(result, "host program", 0, job->lab->points.host, 0, reason);
        return;
    }
    argv[argc++] = (char *)job->binary;
    argv[argc++] = "--size", argv[argc++] = (char *)job->lab->host_size;
    argv[argc++] = "--seed", argv[argc++] = seed;
    argv[argc++] = "--out", argv[argc++] = out_path;
    if (job->device)
        argv[argc++] = "--device", argv[argc++] = (char *)job->device;
    argv[argc] = NULL;
    sandbox_exec(argv, job->timeout_s, 1 << 20, &outcome);
    if (outcome.end != SANDBOX_EXITED || (outcome.code != 0 && outcome.code != 1)) {
        sandbox_describe(&outcome, job->timeout_s, how, sizeof how);
        snprintf(reason, sizeof reason, "%s %s\nits output ends with:\n%s", job->binary, how,
                 tail_of(outcome.output, OUTPUT_KEPT));
    } else {
        check_output(job, out_path, outcome.code, reason, sizeof reason, &passed);
        if (!passed)
            snprintf(reason + strlen(reason), sizeof reason - strlen(reason), "\nits output ends with:\n%s",
                     tail_of(outcome.output, OUTPUT_KEPT));
    }
    result_add(result, "host program", passed ? job->lab->points.host : 0, job->lab->points.host, passed, reason);
    sandbox_outcome_free(&outcome);
    unlink(out_path);
}
