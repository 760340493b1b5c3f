/* The guard check: a case's buffers as the device left them, their guard zones bitwise, inputs unchanged, and the
   output against the reference. */
#ifndef CLKIT_GRADER_GUARD_CHECK_H
#define CLKIT_GRADER_GUARD_CHECK_H

#include "labs/spec.h"
#include "wire/harness.h"

#include <stddef.h>
#include <stdint.h>

struct case_verdict {
    int values_ok;     /* the result is within tolerance */
    int memory_ok;     /* no write outside the buffers, inputs unchanged */
    char values[4096]; /* why the values are wrong, with a map of a wrong matrix */
    char memory[2048]; /* why the memory check failed, with a map of a matrix written outside */
    const char *cause; /* why the values are wrong, as a key (COMPARE_CAUSE_...), or NULL */
    char kernel[64];   /* a lab of several kernels: the kernel the wrong values are traced to ("" when none) */
};

/* Checks raw (the guards bitwise, the inputs against launch's own copy) and the output against
   launch's reference; returns 0, or -1 when raw does not have the layout guard and launch give. */
int guard_check(const struct grade_family *family, const struct grade_launch *launch, size_t guard,
                const uint32_t *guard_bits, const struct harness_raw *raw, struct case_verdict *verdict);

#endif
