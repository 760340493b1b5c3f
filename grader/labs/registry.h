/* The registry of labs: every spec file under grader/labs/, in lab order, as the Makefile lists them. Nothing
   else names the labs: the command line, profiles, batch grading and the tests take the set from here. */
#ifndef CLKIT_GRADER_REGISTRY_H
#define CLKIT_GRADER_REGISTRY_H

#include "labs/spec.h"

#include <stddef.h>

/* The most labs a kit may hold: what fixed-size tables indexed by lab allow. */
#define REGISTRY_MAX_LABS 32

/* Returns how many labs the kit has. */
size_t registry_count(void);

/* Returns the lab at index (0 for the first), or NULL past the last. */
const struct grade_lab_spec *registry_lab(size_t index);

/* Returns the lab named name ("lab3"), or NULL. */
const struct grade_lab_spec *registry_find(const char *name);

/* Returns the index of lab, a spec from the registry or one made for one of its contracts. */
size_t registry_index(const struct grade_lab_spec *lab);

#endif
