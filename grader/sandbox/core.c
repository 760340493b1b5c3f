/* The core layer: a confined program and every process it starts leave no core file when they crash (a copy of the
   run's memory, its inputs among it, in a folder a later run could read). Split from the limits layer's rlimits. */
#include "sandbox/layers.h"

#include <stdio.h>

static int apply(struct layer_run *run)
{
    struct rlimit none = {0, 0};
    (void)run;
    setrlimit(RLIMIT_CORE, &none); /* lowering a limit cannot fail */
    return 0;
}

static int holds(void)
{
    return 1;
}

/* Nothing in the report's line: it is the limits' detail, listed by --confinement. */
static void phrase(int held, char *text, size_t size)
{
    (void)held;
    snprintf(text, size, "%s", "");
}

const struct sandbox_layer layer_core = {
    .name = "core",
    .confines = "no core files: a crash leaves no copy of the run's memory behind",
    .holds = holds,
    .phrase = phrase,
    .apply = apply,
};
