#include "judge/oclgrind_counts.h"

#include <stdio.h>
#include <string.h>

int counts_parse(const char *text, struct technique_counts *counts)
{
    const char *last = NULL;
    for (const char *p = text; p && (p = strstr(p, "clkit-counts launch=")) != NULL; p++)
        if (p == text || p[-1] == '\n')
            last = p;
    memset(counts, 0, sizeof *counts);
    if (!last)
        return -1;
    /* Found by name, wherever it stands in the line; a plugin that predates it has not measured it (-1). */
    const char *constant = strstr(last, " constant_loads="), *line_end = strchr(last, '\n');
    counts->constant_loads = -1.0;
    if (constant && (!line_end || constant < line_end))
        sscanf(constant, " constant_loads=%lf", &counts->constant_loads);
    /* The atomics close the line; a plugin that predates them leaves them 0. */
    const char *atomics = strstr(last, " global_atomics="), *end = strchr(last, '\n');
    if (atomics && (!end || atomics < end))
        sscanf(atomics, " global_atomics=%lf local_atomics=%lf", &counts->global_atomics, &counts->local_atomics);
    const char *adds = strstr(last, " local_adds="), *stop = strchr(last, '\n');
    counts->local_adds = counts->item_adds = -1.0;
    if (adds && (!stop || adds < stop))
        sscanf(adds, " local_adds=%lf item_adds=%lf", &counts->local_adds, &counts->item_adds);
    return sscanf(last, "clkit-counts launch=%*u global_loads=%lf global_stores=%lf local_loads=%lf local_stores=%lf "
                  "load_requests=%lf load_transactions=%lf store_requests=%lf store_transactions=%lf "
                  "local_requests=%lf local_wavefronts=%lf",
                  &counts->global_loads, &counts->global_stores, &counts->local_loads, &counts->local_stores,
                  &counts->load_requests, &counts->load_transactions, &counts->store_requests,
                  &counts->store_transactions, &counts->local_requests, &counts->local_wavefronts) == 10
               ? 0
               : -1;
}

/* Whether line is a launch of kernel: its last word is kernel=NAME. */
static int launches(const char *line, const char *kernel)
{
    const char *word = strrchr(line, ' ');
    return word && strncmp(word, " kernel=", 8) == 0 && strcmp(word + 8, kernel) == 0;
}

const char *counts_line_of(char *text, const char *kernel)
{
    char *found = NULL;
    for (char *line = text, *end; line && *line; line = end ? end + 1 : NULL) {
        if ((end = strchr(line, '\n')) != NULL)
            *end = '\0';
        int match = line[0] && (kernel ? launches(line, kernel) : 1);
        if (end)
            *end = '\n';
        if (match)
            found = line;
        if (match && kernel)
            break;
    }
    if (!found)
        return "";
    found[strcspn(found, "\n")] = '\0';
    return found;
}
