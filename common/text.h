/* Text buffers: formatted text appended to a fixed-size buffer, cut short rather than overrun. */
#ifndef CLKIT_TEXT_H
#define CLKIT_TEXT_H

#include <stddef.h>

/* Appends format's text to the NUL-terminated text of size bytes, as far as room allows; returns the length of
   text afterwards. */
size_t clk_append(char *text, size_t size, const char *format, ...) __attribute__((format(printf, 3, 4)));

#endif
