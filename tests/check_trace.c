/* The command trace (judge/trace.h) on ledgers written here: the seal, and schedules right and wrong. */
#include "suites.h"

#include "judge/command_trace.h"
#include "ledgertag.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const uint64_t key[2] = {0x0123456789abcdefULL, 0xfedcba9876543210ULL};

/* The lines of plain (one a line), sealed as the ledger seals them, into a new string (caller frees). */
static char *sealed(const char *plain)
{
    char *copy = strdup(plain), *save = NULL, *out = calloc(strlen(plain) * 2 + 4096, 1);
    unsigned long seq = 0;
    for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save), seq++)
        sprintf(out + strlen(out), "%lu %016llx %s\n", seq, (unsigned long long)clk_ledger_tag(key, seq, line), line);
    free(copy);
    return out;
}

START_TEST(unseal_keeps_sealed_lines_and_refuses_others)
{
    const char *plain = "queue 1 Portable\nqid 2 0\nend\n";
    char *text = sealed(plain), *moved;
    long bad = -1;
    ck_assert_int_eq(trace_unseal(text, key, &bad), 0);
    ck_assert_str_eq(text, plain);
    free(text);
    /* A line changed, a line added by the program, lines swapped, another run's key: refused. */
    text = sealed(plain);
    text[strlen(text) - 2] = 'x';
    ck_assert_int_eq(trace_unseal(text, key, &bad), -1);
    ck_assert_int_eq(bad, 3);
    free(text);
    text = sealed(plain);
    moved = calloc(strlen(text) + 64, 1);
    sprintf(moved, "%s3 0123456789abcdef cmd write q=2 ev=9 blk=0 b=8 off=0 size=4\n", text);
    ck_assert_int_eq(trace_unseal(moved, key, &bad), -1);
    ck_assert_int_eq(bad, 4);
    free(moved);
    moved = strdup(strchr(text, '\n') + 1);
    ck_assert_int_eq(trace_unseal(moved, key, &bad), -1);
    ck_assert_int_eq(bad, 1);
    free(moved);
    {
        const uint64_t other[2] = {1, 2};
        ck_assert_int_eq(trace_unseal(text, other, &bad), -1);
    }
    free(text);
}
END_TEST

/* Buffers a (8), b (9) read-only, c (10) written, for two slots (a 11, b 12, c 13); queues 2, 3, 4 in order. */
#define SET_UP                                                                                                   \
    "qid 2 0\nqid 3 0\nqid 4 0\nbuffer 8 64 1 0 0\nbuffer 9 64 1 0 0\nbuffer 10 64 0 0 0\nbuffer 11 64 1 0 0\n" \
    "buffer 12 64 1 0 0\nbuffer 13 64 0 0 0\n"

/* Chunk i of a double-buffered pipeline on queues 2 (uploads), 3 (kernels), 4 (downloads): events 100 + 4i on. */
static void chunk(char *text, int i, int wait_kernel, int wait_reuse)
{
    int e = 100 + 4 * i, slot = i % 2 ? 11 : 8;
    char reuse_up[32] = "", reuse_down[32] = "";
    if (i >= 2 && wait_reuse)
        snprintf(reuse_up, sizeof reuse_up, " wait=%d", e - 6), snprintf(reuse_down, sizeof reuse_down, ",%d", e - 5);
    sprintf(text + strlen(text), "cmd write q=2 ev=%d blk=0 b=%d off=0 size=64%s\n", e, slot, reuse_up);
    sprintf(text + strlen(text), "cmd write q=2 ev=%d blk=0 b=%d off=0 size=64%s\n", e + 1, slot + 1, reuse_up);
    if (wait_kernel)
        sprintf(text + strlen(text), "cmd kernel q=3 ev=%d blk=0 k=5 goff=0 bufs=%d,%d,%d wait=%d,%d%s\n", e + 2,
                slot, slot + 1, slot + 2, e, e + 1, reuse_down);
    else
        sprintf(text + strlen(text), "cmd kernel q=3 ev=%d blk=0 k=5 goff=0 bufs=%d,%d,%d\n", e + 2, slot,
                slot + 1, slot + 2);
    sprintf(text + strlen(text), "cmd read q=4 ev=%d blk=0 b=%d off=0 size=64 wait=%d\n", e + 3, slot + 2, e + 2);
}

static void pipeline(char *text, int chunks, int wait_kernel, int wait_reuse)
{
    strcpy(text, SET_UP);
    for (int i = 0; i < chunks; i++)
        chunk(text, i, wait_kernel, wait_reuse);
    sprintf(text + strlen(text), "waitfor wait=%d\n", 100 + 4 * (chunks - 1) + 3);
}

START_TEST(double_buffered_pipeline_overlaps)
{
    static char text[16384];
    struct trace_verdict v;
    pipeline(text, 8, 1, 1);
    ck_assert_msg(trace_check(text, 1, &v) == 0, "%s", v.why);
    ck_assert_int_eq(v.kernels, 8);
    ck_assert_int_eq(v.overlapped, 1);
}
END_TEST

START_TEST(missing_waits_are_races)
{
    static char text[16384];
    struct trace_verdict v;
    pipeline(text, 8, 0, 1);
    ck_assert_int_eq(trace_check(text, 0, &v), 1);
    ck_assert_int_eq(v.unsafe, 1);
    ck_assert_ptr_nonnull(strstr(v.why, "the kernel may start before its upload ends"));
    pipeline(text, 8, 1, 0);
    ck_assert_int_eq(trace_check(text, 0, &v), 1);
    ck_assert_ptr_nonnull(strstr(v.why, "reused"));
}
END_TEST

START_TEST(a_finish_per_chunk_serialises)
{
    static char text[16384];
    struct trace_verdict v;
    strcpy(text, SET_UP);
    for (int i = 0; i < 8; i++) {
        chunk(text, i, 1, 1);
        strcat(text, "finish 2\nfinish 3\nfinish 4\n");
    }
    ck_assert_int_eq(trace_check(text, 0, &v), 0); /* no race: only the overlap is wrong */
    ck_assert_int_eq(trace_check(text, 1, &v), 1);
    ck_assert_int_eq(v.unsafe, 0);
    ck_assert_msg(strstr(v.why, "serialised") && strstr(v.why, "clFinish"), "%s", v.why);
}
END_TEST

/* The worked example of the handout: every chunk enqueued behind a user event, set once all are enqueued. */
START_TEST(a_user_event_gate_is_followed)
{
    static char text[16384];
    struct trace_verdict v;
    strcpy(text, SET_UP "uevent 99\n");
    for (int i = 0; i < 6; i++)
        chunk(text, i, 1, 1);
    /* The first uploads wait for the gate too: no race, and the pipeline still overlaps. */
    {
        char *first = strstr(text, "cmd write q=2 ev=100 blk=0 b=8 off=0 size=64");
        memmove(first + strlen("cmd write q=2 ev=100 blk=0 b=8 off=0 size=64") + 8,
                first + strlen("cmd write q=2 ev=100 blk=0 b=8 off=0 size=64"),
                strlen(first + strlen("cmd write q=2 ev=100 blk=0 b=8 off=0 size=64")) + 1);
        memcpy(first + strlen("cmd write q=2 ev=100 blk=0 b=8 off=0 size=64"), " wait=99", 8);
    }
    strcat(text, "ustatus 99 0\nwaitfor wait=123\n");
    ck_assert_msg(trace_check(text, 1, &v) == 0, "%s", v.why);
    ck_assert_int_eq(v.kernels, 6);
}
END_TEST

/* One out-of-order queue: only wait lists, markers and barriers order; sub-buffers of one buffer do not race. */
START_TEST(out_of_order_queue_and_sub_buffers)
{
    const char *right = "qid 2 1\nbuffer 8 128 1 0 0\nbuffer 9 64 2 8 0\nbuffer 10 64 2 8 64\nbuffer 11 128 0 0 0\n"
                        "buffer 12 64 2 11 0\nbuffer 13 64 2 11 64\n"
                        "cmd write q=2 ev=20 blk=0 b=9 off=0 size=64\n"
                        "cmd kernel q=2 ev=21 blk=0 k=5 goff=0 bufs=9,12 wait=20\n"
                        "cmd write q=2 ev=22 blk=0 b=10 off=0 size=64\n"
                        "cmd kernel q=2 ev=23 blk=0 k=5 goff=0 bufs=10,13 wait=22\n"
                        "cmd read q=2 ev=24 blk=0 b=12 off=0 size=64 wait=21\n"
                        "cmd read q=2 ev=25 blk=0 b=13 off=0 size=64 wait=23\n"
                        "cmd barrier q=2 ev=0 blk=0\nfinish 2\n";
    const char *racy = "qid 2 1\nbuffer 8 128 1 0 0\nbuffer 11 128 0 0 0\n"
                       "cmd write q=2 ev=20 blk=0 b=8 off=0 size=128\n"
                       "cmd kernel q=2 ev=21 blk=0 k=5 goff=0 bufs=8,11\nfinish 2\n";
    const char *offset = "qid 2 0\nbuffer 8 128 1 0 0\ncmd kernel q=2 ev=21 blk=0 k=5 goff=1 bufs=8\nfinish 2\n";
    const char *unwaited = "qid 2 0\nbuffer 8 128 0 0 0\ncmd read q=2 ev=21 blk=0 b=8 off=0 size=4\n";
    struct trace_verdict v;
    ck_assert_msg(trace_check(right, 0, &v) == 0, "%s", v.why);
    ck_assert_int_eq(trace_check(racy, 0, &v), 1);
    ck_assert_int_eq(v.races, 1);
    ck_assert_int_eq(trace_check(offset, 0, &v), 1);
    ck_assert_ptr_nonnull(strstr(v.why, "global work offset"));
    ck_assert_int_eq(trace_check(unwaited, 0, &v), 1);
    ck_assert_ptr_nonnull(strstr(v.why, "never waited for"));
}
END_TEST

/* Kernels on memory the host maps, no transfer in the pipeline: nothing to overlap, whatever the queues. */
START_TEST(a_pipeline_without_transfers_is_no_overlap)
{
    static char text[4096];
    struct trace_verdict v;
    strcpy(text, "qid 2 1\nbuffer 8 64 0 0 0\nbuffer 9 64 0 0 0\n");
    for (int i = 0; i < 6; i++)
        sprintf(text + strlen(text), "cmd kernel q=2 ev=%d blk=0 k=5 goff=0 bufs=%d%s%d\n", 20 + i, 8 + i % 2,
                i >= 2 ? " wait=" : " x=", 18 + i);
    strcat(text, "finish 2\n");
    ck_assert_int_eq(trace_check(text, 0, &v), 0);
    ck_assert_int_eq(trace_check(text, 1, &v), 1);
    ck_assert_ptr_nonnull(strstr(v.why, "read no chunk uploaded"));
}
END_TEST

Suite *trace_suite(void)
{
    Suite *s = suite_create("trace");
    TCase *tc = tcase_create("schedules");
    tcase_add_test(tc, unseal_keeps_sealed_lines_and_refuses_others);
    tcase_add_test(tc, double_buffered_pipeline_overlaps);
    tcase_add_test(tc, missing_waits_are_races);
    tcase_add_test(tc, a_finish_per_chunk_serialises);
    tcase_add_test(tc, a_user_event_gate_is_followed);
    tcase_add_test(tc, out_of_order_queue_and_sub_buffers);
    tcase_add_test(tc, a_pipeline_without_transfers_is_no_overlap);
    suite_add_tcase(s, tc);
    return s;
}
