/* Lab 10's technique check: per-work-group bins in local memory, merged with at most one global atomic per bin. */
#include "labs/technique.h"

#include "labs/families_hist.h"

#include <stdio.h>

int technique_judge_private_bins(const struct grade_case *s, const struct technique_counts *c, char *text,
                                 size_t size)
{
    double n = (double)s->dims[0], merges = (double)(hist_groups(s) * hist_bins(s));
    double local = c->local_atomics + c->local_stores;
    snprintf(text, size, "global atomics: %.0f for %.0f elements, %.3f per element (one global atomic per element: "
             "1; budget: <= %.0f, one per bin per work-group, %.3f per element); local memory: %.0f atomics, %.0f "
             "stores", c->global_atomics, n, c->global_atomics / n, merges, merges / n, c->local_atomics,
             c->local_stores);
    return c->global_atomics <= merges && local > 0;
}
