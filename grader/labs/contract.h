/* Labs whose kernels may be written under several contracts (labs/spec.h's grade_contract): the spec that grades
   a kernel under one of them. */
#ifndef CLKIT_GRADER_LABS_CONTRACT_H
#define CLKIT_GRADER_LABS_CONTRACT_H

#include "labs/spec.h"

/* Returns lab graded under its contract index: a spec of the same name whose tilings, timed build and technique
   case are the contract's (made once, kept for the process), or lab itself when it has no such contract. */
const struct grade_lab_spec *labs_under_contract(const struct grade_lab_spec *lab, int index);

/* Returns the index of the contract that lab (from labs_under_contract, or a lab's own spec: 0) grades. */
int labs_contract_index(const struct grade_lab_spec *lab);

#endif
