#include "judge/rules.h"

#include "files.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The scanner's state: where it is, and the line the user sees. */
struct scan {
    const char *p;
    int line;
    int line_start; /* nothing but blanks since the line began: a # here starts a directive */
};

/* Skips a backslash-newline (a line splice), counting the line; returns 1 when it skipped one. */
static int splice(struct scan *s)
{
    if (s->p[0] == '\\' && s->p[1] == '\n') {
        s->p += 2, s->line++;
        return 1;
    }
    if (s->p[0] == '\\' && s->p[1] == '\r' && s->p[2] == '\n') {
        s->p += 3, s->line++;
        return 1;
    }
    return 0;
}

static void skip_comment(struct scan *s)
{
    int block = s->p[1] == '*';
    s->p += 2;
    while (*s->p) {
        if (splice(s))
            continue;
        if (*s->p == '\n' && !block)
            return;
        if (block && s->p[0] == '*' && s->p[1] == '/') {
            s->p += 2;
            return;
        }
        s->line += *s->p == '\n';
        s->p++;
    }
}

static void skip_literal(struct scan *s)
{
    char quote = *s->p++;
    while (*s->p && *s->p != quote && *s->p != '\n') {
        if (splice(s))
            continue;
        s->p += s->p[0] == '\\' && s->p[1] ? 2 : 1;
    }
    if (*s->p == quote)
        s->p++;
}

/* An #include operand: "name" with no folder above or absolute path, or <name> where allowed. */
static int include_ok(enum rules_kind kind, const char *operand)
{
    char close = operand[0] == '"' ? '"' : operand[0] == '<' ? '>' : 0;
    const char *end = close ? strchr(operand + 1, close) : NULL;
    size_t length = end ? (size_t)(end - operand - 1) : 0;
    if (!end || length == 0 || operand[1] == '/')
        return 0;
    if (close == '>' && kind != RULES_HOST)
        return 0;
    for (size_t i = 1; i <= length; i++)
        if (!(isalnum((unsigned char)operand[i]) || strchr("_-./", operand[i])) ||
            (operand[i] == '.' && operand[i + 1] == '.'))
            return 0;
    return 1;
}

static int directive(enum rules_kind kind, struct scan *s, const char *path, char *why, size_t size)
{
    char name[16] = "", operand[256] = "";
    int n = 0;
    s->p += *s->p == '#' ? 1 : 2;
    for (;;) {
        if (*s->p == ' ' || *s->p == '\t')
            s->p++;
        else if (s->p[0] == '/' && (s->p[1] == '*' || s->p[1] == '/'))
            skip_comment(s);
        else if (!splice(s))
            break;
    }
    while (n < 15 && (splice(s) || isalpha((unsigned char)*s->p)))
        if (isalpha((unsigned char)*s->p))
            name[n++] = *s->p++;
    if (strcmp(name, "include") != 0 && strcmp(name, "include_next") != 0 && strcmp(name, "import") != 0)
        return 0;
    while (*s->p == ' ' || *s->p == '\t')
        s->p++;
    sscanf(s->p, "%255[^\n]", operand);
    if (strcmp(name, "include") == 0 && include_ok(kind, operand))
        return 0;
    snprintf(why, size, "%s:%d: '#%s %.60s' is not allowed: a submission may include only files in its own lab "
             "folder (\"helper.h\")%s",
             path, s->line, name, operand, kind == RULES_HOST ? " and system headers (<stdio.h>)" : "");
    return -1;
}

static int identifier(struct scan *s, const char *path, char *why, size_t size)
{
    const char *start = s->p;
    while (isalnum((unsigned char)*s->p) || *s->p == '_' || *s->p == '$')
        s->p++;
    if ((s->p - start == 3 && !strncmp(start, "asm", 3)) || (s->p - start == 5 && !strncmp(start, "__asm", 5)) ||
        (s->p - start == 7 && !strncmp(start, "__asm__", 7))) {
        snprintf(why, size, "%s:%d: inline assembly ('%.*s') is not allowed: write the lab in OpenCL C or C", path,
                 s->line, (int)(s->p - start), start);
        return -1;
    }
    return 0;
}

static int punctuation(struct scan *s, const char *path, char *why, size_t size)
{
    const char *what = NULL;
    if (s->p[0] == '#' && s->p[1] == '#')
        what = "token pasting ('##')";
    else if (s->p[0] == '%' && s->p[1] == ':')
        what = "the digraph '%:'";
    else if (s->p[0] == '?' && s->p[1] == '?')
        what = "a trigraph ('?" "?')";
    if (!what)
        return 0;
    snprintf(why, size, "%s:%d: %s is not allowed in a submission (it can spell forbidden code); write it out", path,
             s->line, what);
    return -1;
}

int rules_check(enum rules_kind kind, const char *path, const char *text, char *why, size_t size)
{
    struct scan s = {text, 1, 1};
    while (*s.p) {
        int rc = 0;
        if (splice(&s))
            continue;
        if (*s.p == '\n') {
            s.line++, s.line_start = 1, s.p++;
            continue;
        }
        if (*s.p == ' ' || *s.p == '\t' || *s.p == '\r' || *s.p == '\f' || *s.p == '\v') {
            s.p++;
            continue;
        }
        if (s.line_start && (*s.p == '#' || (s.p[0] == '%' && s.p[1] == ':')) && !(s.p[0] == '#' && s.p[1] == '#'))
            rc = directive(kind, &s, path, why, size);
        else if (s.p[0] == '/' && (s.p[1] == '/' || s.p[1] == '*')) {
            skip_comment(&s); /* a comment is blank: a directive may still follow */
            continue;
        } else if (*s.p == '"' || *s.p == '\'')
            skip_literal(&s);
        else if (isalpha((unsigned char)*s.p) || *s.p == '_')
            rc = identifier(&s, path, why, size);
        else if ((rc = punctuation(&s, path, why, size)) == 0)
            s.p++;
        if (rc != 0)
            return -1;
        s.line_start = 0;
    }
    return 0;
}

int rules_check_file(enum rules_kind kind, const char *real, const char *path, char *why, size_t size)
{
    char *text = clk_file_exists(real) ? clk_read_text(real, NULL) : NULL;
    int rc;
    if (!text)
        return 0;
    rc = rules_check(kind, path, text, why, size);
    free(text);
    return rc;
}
