/* Safe text: what came from a submission, made fit for a terminal, JSON, XML and CSV. */
#ifndef CLKIT_GRADER_SAFETEXT_H
#define CLKIT_GRADER_SAFETEXT_H

#include <stddef.h>

/* Returns a copy of text (caller frees) in strict UTF-8 (no overlong forms, surrogates or code points past
   U+10FFFF: each bad byte becomes '?'), without control characters other than newline and tab, and at most
   cap bytes long ending in "(cut)" when it was longer (cap 0: no cap); NULL when memory runs out. */
char *safetext_clean(const char *text, size_t cap);

#endif
