/* The host-program probe: a kernel of the kit (kernels/probe_*.cl) staged under the lab's own kernel name with a
   per-run secret in its arithmetic, and its reference, computed only here, in the judge. */
#ifndef CLKIT_GRADER_PROBE_H
#define CLKIT_GRADER_PROBE_H

#include "problem.h"

#include <stddef.h>
#include <stdint.h>

/* Fills bytes with random bytes from the system; returns 0, or -1 when it has none to give. */
int probe_random(void *bytes, size_t count);

/* A fresh secret: a float in [1.25, 2.75) with 12 random bits, exact in any float arithmetic; 0 on failure. */
float probe_secret(void);

/* The probe's source from the template at path: comments dropped, PROBE_KERNEL named kernel_name and PROBE_SECRET
   replaced by secret (a hex float literal); NULL when it cannot be read (caller frees). */
char *probe_source(const char *path, const char *kernel_name, float secret);

/* The probe's result for a problem of kind at dims from seed with secret: handed over in *expected and *bound for
   the caller to free; returns its length, or 0 when memory runs out. */
size_t probe_reference(enum clk_problem_kind kind, const size_t *dims, uint64_t seed, float secret, double **expected,
                       double **bound);

#endif
