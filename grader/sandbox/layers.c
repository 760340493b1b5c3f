/* The table of confinement layers, the three that the judge arranges for every run (a session, an environment, a
   scratch copy), and the walks over the table: resolve in the judge, apply in the child, describe for people. */
#include "sandbox/layers.h"

#include "text.h"

#include <string.h>

extern const struct sandbox_layer layer_core; /* core.c */

const struct sandbox_layer *const sandbox_layer_table[] = {
    &layer_session, &layer_limits,  &layer_core,       &layer_environment, &layer_user,
    &layer_seccomp, &layer_scratch, &layer_bubblewrap, &layer_landlock,    NULL,
};

static int always(void)
{
    return 1;
}

static void session_phrase(int held, char *text, size_t size)
{
    snprintf(text, size, "%s", held ? "own session, deadline" : "");
}

static void environment_phrase(int held, char *text, size_t size)
{
    snprintf(text, size, "%s", held ? "clean environment" : "");
}

static void scratch_phrase(int held, char *text, size_t size)
{
    snprintf(text, size, "%s", held ? "scratch copy" : "");
}

const struct sandbox_layer layer_session = {
    .name = "session",
    .confines = "its own session and process group, killed with the judge, a hard deadline, and every process it "
                "leaves behind killed",
    .holds = always,
    .phrase = session_phrase,
};

const struct sandbox_layer layer_environment = {
    .name = "environment",
    .confines = "a clean environment: a fixed PATH and locale, HOME, TMPDIR and caches in its scratch folder, only "
                "the variables that choose an OpenCL device",
    .holds = always,
    .phrase = environment_phrase,
};

const struct sandbox_layer layer_scratch = {
    .name = "scratch",
    .confines = "works on a copy of the submission and of the kit's files it needs, in a folder of its own: the "
                "originals are never written",
    .holds = always,
    .phrase = scratch_phrase,
};

void sandbox_layers_resolve(void)
{
    for (int i = 0; sandbox_layer_table[i]; i++)
        sandbox_layer_table[i]->holds();
}

int sandbox_layers_apply(struct layer_run *run)
{
    for (int i = 0; sandbox_layer_table[i]; i++) {
        const struct sandbox_layer *layer = sandbox_layer_table[i];
        if (layer->apply && layer->holds() && layer->apply(run) != 0)
            return -1;
    }
    return 0;
}

void sandbox_layers(char *text, size_t size)
{
    text[0] = '\0';
    sandbox_layers_resolve();
    for (int clause = 0; clause <= 1; clause++)
        for (int i = 0; sandbox_layer_table[i]; i++) {
            const struct sandbox_layer *layer = sandbox_layer_table[i];
            char phrase[256];
            if (layer->clause != clause)
                continue;
            layer->phrase(layer->holds(), phrase, sizeof phrase);
            if (phrase[0])
                clk_append(text, size, "%s%s", !text[0] ? "" : clause ? "; " : ", ", phrase);
        }
}

void sandbox_layers_print(FILE *out)
{
    char line[1024];
    sandbox_layers(line, sizeof line);
    fprintf(out, "confinement: %s\n\n%-12s %-6s %s\n", line, "layer", "here", "what it confines");
    for (int i = 0; sandbox_layer_table[i]; i++) {
        const struct sandbox_layer *layer = sandbox_layer_table[i];
        fprintf(out, "%-12s %-6s %s\n", layer->name, layer->holds() ? "yes" : "no", layer->confines);
    }
}
