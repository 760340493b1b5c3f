/* The command trace of a host program: the sealed ledger its confined run left (common/ledger.h), checked line by
   line against the judge's key, then read as a graph of commands (what each enqueue touches, the event it returns,
   its wait list, the host's waits) and judged against lab 12's contract: no two commands on the same memory left
   unordered (a race), and transfers free to overlap kernels (upload i+1 and download i-1 ordered neither before nor
   after kernel i). */
#ifndef CLKIT_GRADER_TRACE_H
#define CLKIT_GRADER_TRACE_H

#include <stddef.h>
#include <stdint.h>

/* Checks that every line of text carries the seal of key ("seq tag text", common/ledgertag.h), numbered from 0 in
   order, and strips the seals in place; returns 0, or -1 with the first bad line's number (from 1) in *bad_line. */
int trace_unseal(char *text, const uint64_t key[2], long *bad_line);

struct trace_verdict {
    int races;          /* pairs of commands on the same memory that nothing orders */
    int unsafe;         /* a race, or a result the host may use before it arrives: right only by luck */
    int kernels;        /* kernel launches in the longest pipeline (a pass the host did not wait in) */
    int overlapped;     /* that pipeline lets transfers overlap kernels as the lab asks */
    char why[2048];     /* the first fault, said; "" when none */
    char measured[512]; /* the longest pipeline's profiled timeline, said; "" when the ledger has no times */
};

/* The fewest chunks (kernel launches in one pipeline) the lab's size must be run in. */
#define TRACE_MIN_CHUNKS 4

/* Judges the commands of an unsealed ledger's text into v: races always; with want_overlap, also that one pipeline
   of at least TRACE_MIN_CHUNKS kernels overlaps. Returns 0 when the schedule keeps the contract, 1 when not, -1
   when the grader could not follow it (why says what). */
int trace_check(const char *text, int want_overlap, struct trace_verdict *v);

#endif
