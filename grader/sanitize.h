/* The sanitizer: run a lab's small cases under Oclgrind and turn its findings into plain verdicts. */
#ifndef CLKIT_GRADER_SANITIZE_H
#define CLKIT_GRADER_SANITIZE_H

#include "grading.h"
#include "labs.h"
#include "runlab.h"

#include <stddef.h>

/* Returns 1 when the oclgrind command is installed. */
int sanitize_available(void);

/* Summarises an Oclgrind log: one line per distinct problem (kind, kernel, file:line, first work-item,
   how many times) with a hint; returns the number of distinct problems. */
int sanitize_parse(const char *log, char *text, size_t size);

/* Runs lab's runner inside Oclgrind with oclgrind_flag ("--data-races" also checks uninitialised values, or
   "--inst-counts") on the cases of mode (RUNLAB_SANITIZER or RUNLAB_TECHNIQUE); returns Oclgrind's log and
   output (caller frees), or NULL with why. */
char *sanitize_exec(struct grading *g, const struct grade_lab_spec *lab, const char *oclgrind_flag,
                    enum runlab_mode mode, long only_case, int limit, char *why, size_t size);

/* Runs lab's small exact cases (or only case only_case, when >= 0) under Oclgrind with races, bounds and
   uninitialised values checked, for at most limit seconds; writes the findings to text and returns their
   number, or -1 when Oclgrind could not run (why is in text). */
int sanitize_lab(struct grading *g, const struct grade_lab_spec *lab, long only_case, int limit, char *text,
                 size_t size);

#endif
