#include "text.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

size_t clk_append(char *text, size_t size, const char *format, ...)
{
    size_t used = strnlen(text, size);
    va_list args;
    if (used + 1 >= size)
        return used;
    va_start(args, format);
    vsnprintf(text + used, size - used, format, args);
    va_end(args);
    return strnlen(text, size);
}
