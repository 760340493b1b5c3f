#include "labs/registry.h"

#include <string.h>

/* registry_list.h is written by the Makefile from grader/labs/: REGISTRY_LAB(labN) for each spec file, in
   lab order, and REGISTRY_LAB_COUNT. */
#define REGISTRY_LAB(name) extern const struct grade_lab_spec name##_spec;
#include "registry_list.h"
#undef REGISTRY_LAB

static const struct grade_lab_spec *const table[] = {
#define REGISTRY_LAB(name) &name##_spec,
#include "registry_list.h"
#undef REGISTRY_LAB
};

_Static_assert(GRADE_COUNT(table) == REGISTRY_LAB_COUNT, "the registry holds every listed lab");
_Static_assert(REGISTRY_LAB_COUNT <= REGISTRY_MAX_LABS, "REGISTRY_MAX_LABS bounds the tables indexed by lab");

size_t registry_count(void)
{
    return GRADE_COUNT(table);
}

const struct grade_lab_spec *registry_lab(size_t index)
{
    return index < GRADE_COUNT(table) ? table[index] : NULL;
}

const struct grade_lab_spec *registry_find(const char *name)
{
    for (size_t i = 0; name && i < GRADE_COUNT(table); i++)
        if (strcmp(table[i]->name, name) == 0)
            return table[i];
    return NULL;
}

size_t registry_index(const struct grade_lab_spec *lab)
{
    size_t i = 0;
    while (i < GRADE_COUNT(table) && table[i] != lab && strcmp(table[i]->name, lab->name) != 0)
        i++; /* a spec made for one of a lab's contracts (labs_under_contract) is that lab's */
    return i;
}
