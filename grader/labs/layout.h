/* The layout of a buffer and of a result: what its words hold, the poison an unwritten element keeps, and the
   shape of a result, as a lab's spec gives them and both processes and the comparison read them. */
#ifndef CLKIT_GRADER_LAYOUT_H
#define CLKIT_GRADER_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

/* Output buffers start filled with this NaN, so an element the kernel never wrote is recognised. */
#define COMPARE_POISON_BITS 0x7fc0bad0u

#define COMPARE_MAX_INPUTS 8

/* What the 4-byte words of a buffer hold (a kernel's __global float *, int * or uint *). */
enum compare_type { COMPARE_FLOAT, COMPARE_INT, COMPARE_UINT };

/* The layout of a result, so that patterns can be told in the kernel's own terms. */
struct compare_shape {
    enum compare_type type; /* of its elements; the poison is the same bits whatever the type */
    size_t count;     /* elements in the result */
    size_t rows;      /* a 2-D result is rows x cols; 0 for 1-D */
    size_t cols;
    size_t block;     /* 1-D: elements per work-group, 0 when it does not apply */
    size_t grid;      /* 1-D: work-items in the grid, 0 when it does not apply */
    uint32_t around_inputs[COMPARE_MAX_INPUTS]; /* the NaN bits the grader puts around each input (0: none) */
};

#endif
