/* A lab graded under one of its contracts: a copy of its spec with the contract's builds. */
#include "labs/contract.h"

#include "labs/technique.h"

/* The specs labs_under_contract made, kept for the process as the registry's own are. */
#define MAX_CONTRACTED 32
static struct contracted {
    const struct grade_lab_spec *base;
    int index;
    struct grade_lab_spec spec;
    struct grade_technique technique;
} contracted[MAX_CONTRACTED];
static int contracted_count;

/* Fills made with base under its contract index: the contract's builds, timed build and technique case. */
static void make_contracted(struct contracted *made, const struct grade_lab_spec *base, int index)
{
    const struct grade_contract *k = &base->contracts[index];
    made->base = base;
    made->index = index;
    made->spec = *base;
    made->spec.tilings = k->tilings;
    made->spec.perf.tiling = k->measured;
    made->spec.contract = k;
    if (base->technique) {
        made->technique = *base->technique;
        made->technique.shape.tile = k->measured.tile;
        made->technique.shape.wpt = k->measured.wpt;
        made->spec.technique = &made->technique;
    }
}

const struct grade_lab_spec *labs_under_contract(const struct grade_lab_spec *lab, int index)
{
    int count = 0;
    for (int i = 0; i < contracted_count; i++) /* a made spec: its lab's own */
        if (lab == &contracted[i].spec)
            lab = contracted[i].base;
    while (lab->contracts && lab->contracts[count].tilings)
        count++;
    if (index < 0 || index >= count)
        return lab;
    for (int i = 0; i < contracted_count; i++)
        if (contracted[i].base == lab && contracted[i].index == index)
            return &contracted[i].spec;
    if (contracted_count >= MAX_CONTRACTED)
        return lab;
    make_contracted(&contracted[contracted_count], lab, index);
    return &contracted[contracted_count++].spec;
}

int labs_contract_index(const struct grade_lab_spec *lab)
{
    return lab->contract && lab->contracts ? (int)(lab->contract - lab->contracts) : 0;
}
