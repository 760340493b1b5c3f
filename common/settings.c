#include "settings.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *trim(char *s)
{
    char *end;
    while (isspace((unsigned char)*s))
        s++;
    end = s + strlen(s);
    while (end > s && isspace((unsigned char)end[-1]))
        *--end = '\0';
    return s;
}

int clk_settings_parse(const char *text, clk_setting_fn set, void *context, char *error, size_t error_size)
{
    char *copy = strdup(text), *line, *next, why[768];
    int number = 0, rc = copy ? 0 : -1;
    if (!copy)
        snprintf(error, error_size, "out of memory reading settings");
    for (line = copy; line && rc == 0; line = next) {
        char *eq, *key;
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        number++;
        key = trim(line);
        if (*key == '\0' || *key == '#')
            continue;
        if (!(eq = strchr(key, '='))) {
            snprintf(error, error_size, "line %d: expected 'key = value', got '%.100s'", number, key);
            rc = -1;
            break;
        }
        *eq = '\0';
        why[0] = '\0';
        if (set(context, trim(key), trim(eq + 1), why, sizeof why) != 0) {
            snprintf(error, error_size, "line %d: %s", number, why);
            rc = -1;
        }
    }
    free(copy);
    return rc;
}
