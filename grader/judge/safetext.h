/* Safe text: what came from a submission, made fit for a terminal, JSON, XML and CSV. */
#ifndef CLKIT_GRADER_SAFETEXT_H
#define CLKIT_GRADER_SAFETEXT_H

#include <stddef.h>
#include <stdio.h>

/* Returns a copy of text (caller frees) in strict UTF-8 (no overlong forms, surrogates or code points past
   U+10FFFF: each bad byte becomes '?'), within XML 1.0's Char production (U+FFFE and U+FFFF become '?'), without
   control characters other than newline and tab, and at most cap bytes long ending in "(cut)" when it was longer
   (cap 0: no cap), cut between characters; NULL when memory runs out. */
char *safetext_clean(const char *text, size_t cap);

/* Copies at most length bytes of text (and at most size - 1) into out, NUL-terminated, never ending inside a
   UTF-8 character; returns the bytes copied. */
size_t safetext_cut(char *out, size_t size, const char *text, size_t length);

/* Writes text as one CSV cell: cleaned, cut at cap bytes, quoted when it holds a comma, a quote or a line break,
   and, when it starts as a spreadsheet formula would (= + - @, tab, carriage return), quoted with a ' before it. */
void safetext_csv(FILE *out, const char *text, size_t cap);

#endif
