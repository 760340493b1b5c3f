/* Settings files: lines of "key = value", with blank lines and '#' comments, read one setting at a time. */
#ifndef CLKIT_SETTINGS_H
#define CLKIT_SETTINGS_H

#include <stddef.h>

/* Takes one setting (key and value trimmed); returns 0, or -1 with why it refuses in why. */
typedef int (*clk_setting_fn)(void *context, const char *key, const char *value, char *why, size_t why_size);

/* Calls set for each setting of text in order; at a line that is no setting, or one set refuses, writes
   "line N: ..." to error and returns -1 without reading further; else returns 0. */
int clk_settings_parse(const char *text, clk_setting_fn set, void *context, char *error, size_t error_size);

#endif
