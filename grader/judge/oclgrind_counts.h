/* What the kit's Oclgrind plugin counted for one launch, and how it is read back from Oclgrind's output. */
#ifndef CLKIT_GRADER_COUNTS_H
#define CLKIT_GRADER_COUNTS_H

#include "labs/technique.h"

/* Reads the counts of the last launch from the text of the plugin's counts file; returns 0, or -1 when it holds
   none. */
int counts_parse(const char *text, struct technique_counts *counts);

/* The first line of the plugin's counts text that is a launch of the kernel named kernel, or with kernel NULL the
   last line, cut at its end in text; "" when there is none. */
const char *counts_line_of(char *text, const char *kernel);

#endif
