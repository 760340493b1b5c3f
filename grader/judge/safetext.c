#include "judge/safetext.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define CUT "\n(cut)"

/* The length of the well-formed UTF-8 sequence at s (Unicode's table 3-7), or 0. */
static size_t sequence(const unsigned char *s, uint32_t *code)
{
    size_t length = s[0] < 0x80 ? 1 : s[0] >= 0xc2 && s[0] <= 0xdf ? 2 : s[0] >= 0xe0 && s[0] <= 0xef ? 3
                  : s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : 0;
    uint32_t value = length == 1 ? s[0] : length == 2 ? s[0] & 0x1fu : length == 3 ? s[0] & 0x0fu : s[0] & 0x07u;
    for (size_t i = 1; i < length; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        value = value << 6 | (s[i] & 0x3fu);
    }
    if ((length == 3 && (value < 0x800 || (value >= 0xd800 && value <= 0xdfff))) ||
        (length == 4 && (value < 0x10000 || value > 0x10ffff)))
        return 0;
    *code = value;
    return length;
}

static int is_control(uint32_t code)
{
    return (code < 0x20 && code != '\n' && code != '\t') || (code >= 0x7f && code < 0xa0);
}

/* U+FFFE and U+FFFF: well-formed UTF-8, but outside XML 1.0's Char production. */
static int is_xml_nonchar(uint32_t code)
{
    return code == 0xfffe || code == 0xffff;
}

char *safetext_clean(const char *text, size_t cap)
{
    size_t length = text ? strlen(text) : 0, used = 0, limit = cap && cap > sizeof CUT ? cap - sizeof CUT : length;
    char *clean = malloc(length + sizeof CUT + 1);
    if (!clean)
        return NULL;
    size_t i = 0;
    while (i < length && used < limit) {
        uint32_t code = 0;
        size_t n = sequence((const unsigned char *)text + i, &code);
        if (n == 0 || is_xml_nonchar(code)) { /* a bad byte, or a character XML cannot hold: one '?' */
            clean[used++] = '?';
            i += n ? n : 1;
            continue;
        }
        if (used + n > limit)
            break;
        if (!is_control(code)) {
            memcpy(clean + used, text + i, n);
            used += n;
        }
        i += n;
    }
    clean[used] = '\0';
    if (i < length)
        memcpy(clean + used, CUT, sizeof CUT);
    return clean;
}

size_t safetext_cut(char *out, size_t size, const char *text, size_t length)
{
    size_t n = text ? strnlen(text, length) : 0;
    if (size == 0)
        return 0;
    if (n > size - 1)
        n = size - 1;
    /* A cut before a continuation byte would split a character: leave out the rest of it, lead byte included. */
    while (n > 0 && ((unsigned char)text[n] & 0xc0) == 0x80)
        n--;
    if (n > 0 && ((unsigned char)text[n] & 0xc0) == 0x80)
        n = 0;
    memcpy(out, text, n);
    out[n] = '\0';
    return n;
}

void safetext_csv(FILE *out, const char *text, size_t cap)
{
    char *clean = safetext_clean(text, cap);
    const char *t = clean ? clean : "";
    int formula = t[0] && strchr("=+-@\t\r", t[0]) != NULL;
    if (!formula && strcspn(t, ",\"\n\r") == strlen(t)) {
        fputs(t, out);
    } else {
        fputs(formula ? "\"'" : "\"", out);
        for (const char *p = t; *p; p++) {
            if (*p == '"')
                fputc('"', out);
            fputc(*p, out);
        }
        fputc('"', out);
    }
    free(clean);
}
