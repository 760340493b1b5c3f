/* A vendor-library reference for the matmul labs: CLBlast's SGEMM, where the kit was built with it. */
#ifndef CLKIT_GRADER_CLBLAST_H
#define CLKIT_GRADER_CLBLAST_H

#include "context.h"

#include <stddef.h>

/* Times C = A B (row-major, M x K times K x N) with CLBlast on the given buffers: the fastest of 15 calls after
   warm-ups, in ms; 0 when the kit was built without CLBlast or the call fails. */
double clblast_sgemm_ms(const struct clk_env *env, cl_mem A, cl_mem B, cl_mem C, size_t M, size_t N, size_t K);

#endif
